import { Form, Link, useFetcher } from "@remix-run/react";
import type { CSSProperties, HTMLAttributes } from "react";
import type { PlanetSequence } from "#api/trading";
import { TrashIcon } from "~/components/ui/icons";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";
import { FormSwitch } from "./form-switch";

/* Light rows (issue 20): plain elements with Radix Themes' classes and accent attributes
   (what <Card>, <Badge>, <Button>, <IconButton> render) instead of the components; the name
   is in the markup once and the controls take their names from it (`aria-labelledby`). */
const BADGE = "rt-reset rt-Badge rt-r-size-1";
const SOFT = "rt-reset rt-BaseButton rt-r-size-1 rt-variant-soft";

/**
 * One sequence (spec 2 §2 "Trading Planets screen"): name, seconds badge, closed level (at
 * most), open level (at least), numbered planet chips with a star when shuffle is on, active
 * switch, edit, delete, and move up/down buttons (the reorder that needs no JavaScript).
 * The active switch and the moves are one form: without JavaScript its submit buttons say
 * which (`intent`, `direction`); with it the switch posts through its own fetcher.
 * `index` and `count` are the sequence's place in the whole list (not the page).
 */
export function SequenceCard({
  sequence,
  index,
  count,
  here,
  linkWith,
  canWrite,
  hydrated,
  handle,
  style,
  innerRef,
  dragging,
}: {
  sequence: PlanetSequence;
  index: number;
  count: number;
  here: string;
  linkWith: (name: string, value: string | null) => string;
  canWrite: boolean;
  hydrated: boolean;
  handle?: HTMLAttributes<HTMLElement>;
  style?: CSSProperties;
  innerRef?: (el: HTMLElement | null) => void;
  dragging?: boolean;
}) {
  const fetcher = useFetcher();
  const pendingActive = fetcher.formData?.get("isActive");
  const active = pendingActive ? pendingActive === "true" : sequence.isActive;
  // Element ids from the place in the list (`seq26-name`): short, unique in the page.
  const id = `seq${index}`;
  const name = `${id}-name`;
  const by = (part: string) => ({ id: `${id}-${part}`, "aria-labelledby": `${id}-${part} ${name}` });
  return (
    <li
      ref={innerRef}
      style={style}
      className="rt-reset rt-BaseCard rt-Card rt-r-size-1 rt-variant-surface gt-sequence"
      data-testid="sequence"
      data-dragging={dragging ? "" : undefined}
    >
      <div className="gt-sequence-head">
        {handle ? (
          <button
            type="button"
            className="rt-reset rt-BaseButton rt-r-size-1 rt-variant-ghost rt-IconButton gt-drag-handle"
            data-accent-color="gray"
            aria-label="Drag"
            {...by("drag")}
            {...(handle as object)}
          >
            ⋮⋮
          </button>
        ) : null}
        <strong className="rt-Text gt-sequence-name" id={name}>
          {sequence.name}
        </strong>
        <span className={`${BADGE} rt-variant-soft`} data-accent-color="blue" title="Seconds on each planet">
          {sequence.seconds}s
        </span>
        <span className={`${BADGE} rt-variant-soft`} data-accent-color="red" title="Closed planets level (at most)">
          ≤ {sequence.closedPlanetsLevel}
        </span>
        <span className={`${BADGE} rt-variant-soft`} data-accent-color="green" title="Open planets level (at least)">
          ≥ {sequence.openPlanetsLevel}
        </span>
      </div>
      <ol className="gt-chips" aria-label="Planets of" {...by("planets")}>
        {sequence.sequence.map((step, i) => (
          <li key={step.id} className={`${BADGE} rt-variant-outline`} data-accent-color="gray">
            {i + 1}. {step.planetType}
            {step.shuffle ? <span aria-label="shuffled"> ★</span> : null}
          </li>
        ))}
      </ol>
      {canWrite ? (
        <div className="gt-sequence-actions">
          <fetcher.Form method="post" action={here} className="gt-inline-form">
            <HiddenFields fields={{ intent: "sequence-active", id: sequence._id, isActive: String(!active) }} />
            <NoJsRedirect />
            <label className="rt-Text rt-r-size-2 gt-inline-form">
              <FormSwitch
                checked={active}
                id={`${id}-active`}
                label="Active:"
                labelledBy={`${id}-active ${name}`}
                onCheckedChange={(v) => fetcher.submit({ intent: "sequence-active", id: sequence._id, isActive: String(v) }, { method: "post", action: here })}
              />
              {hydrated ? null : (
                <button type="submit" className={`${SOFT} rt-Button`} data-accent-color="gray">
                  {active ? "Deactivate" : "Activate"}
                </button>
              )}
              Active
            </label>
          </fetcher.Form>
          <span className="gt-inline-form">
            <Form method="post" action={here} preventScrollReset className="gt-inline-form" discover="none">
              <HiddenFields fields={{ intent: "sequence-move", id: sequence._id }} />
              <NoJsRedirect />
              <MoveButton id={id} direction="up" disabled={index === 0} />
              <MoveButton id={id} direction="down" disabled={index === count - 1} />
            </Form>
            <Link to={linkWith("sequence", sequence._id)} preventScrollReset discover="none" aria-label="Edit" {...by("edit")} className={`${SOFT} rt-Button`}>
              Edit
            </Link>
            <Link
              to={linkWith("confirm", `sequence:${sequence._id}`)}
              preventScrollReset
              discover="none"
              aria-label="Delete"
              {...by("delete")}
              className={`${SOFT} rt-IconButton`}
              data-accent-color="red"
            >
              <TrashIcon />
            </Link>
          </span>
        </div>
      ) : (
        <span className={`${BADGE} rt-variant-soft gt-sequence-state`} data-accent-color={active ? "green" : "gray"}>
          {active ? "Active" : "Inactive"}
        </span>
      )}
    </li>
  );
}

/**
 * "Move <name> up|down": a submit button of the card's one move form (issue 20 "one form per
 * action bar"); the button pressed posts its `direction`. Named from the card's name.
 */
function MoveButton({ id, direction, disabled }: { id: string; direction: "up" | "down"; disabled: boolean }) {
  const own = `${id}-move-${direction}`;
  return (
    <button
      type="submit"
      name="direction"
      value={direction}
      disabled={disabled}
      data-disabled={disabled || undefined}
      className={`${SOFT} rt-IconButton`}
      data-accent-color="gray"
      id={own}
      aria-label="Move"
      aria-labelledby={`${own} ${id}-name ${own}-dir`}
    >
      {direction === "up" ? "↑" : "↓"}
      <span hidden id={`${own}-dir`}>
        {direction}
      </span>
    </button>
  );
}
