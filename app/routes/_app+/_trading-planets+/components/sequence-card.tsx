import { Badge, Button, Card, Flex, IconButton, Text } from "@radix-ui/themes";
import { Form, Link, useFetcher, useLocation } from "@remix-run/react";
import type { CSSProperties, HTMLAttributes, ReactNode } from "react";
import type { PlanetSequence } from "#api/trading";
import { TrashIcon } from "~/components/ui/icons";
import { useCanWrite } from "~/components/ui/write-only";
import { FormSwitch } from "./form-switch";

/**
 * One sequence (spec 2 §2 "Trading Planets screen"): name, seconds badge, closed level (at
 * most), open level (at least), numbered planet chips with a star when shuffle is on, active
 * switch, edit, delete, and move up/down buttons (the reorder that needs no JavaScript).
 */
export function SequenceCard({
  sequence,
  index,
  count,
  linkWith,
  handle,
  style,
  innerRef,
  dragging,
}: {
  sequence: PlanetSequence;
  index: number;
  count: number;
  linkWith: (name: string, value: string | null) => string;
  handle?: HTMLAttributes<HTMLElement>;
  style?: CSSProperties;
  innerRef?: (el: HTMLElement | null) => void;
  dragging?: boolean;
}) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const fetcher = useFetcher();
  const canWrite = useCanWrite();
  const pendingActive = fetcher.formData?.get("isActive");
  const active = pendingActive ? pendingActive === "true" : sequence.isActive;
  return (
    <li ref={innerRef} style={style} className="gt-sequence" data-testid="sequence" data-dragging={dragging ? "" : undefined}>
      <Card>
        <Flex direction="column" gap="2">
          <Flex align="center" gap="2" wrap="wrap">
            {handle ? (
              <IconButton size="1" variant="ghost" color="gray" aria-label={`Drag ${sequence.name}`} {...(handle as object)} className="gt-drag-handle">
                ⋮⋮
              </IconButton>
            ) : null}
            <Text weight="bold" className="gt-sequence-name">
              {sequence.name}
            </Text>
            <Badge color="blue" title="Seconds on each planet">
              {sequence.seconds}s
            </Badge>
            <Badge color="red" variant="soft" title="Closed planets level (at most)">
              ≤ {sequence.closedPlanetsLevel}
            </Badge>
            <Badge color="green" variant="soft" title="Open planets level (at least)">
              ≥ {sequence.openPlanetsLevel}
            </Badge>
          </Flex>
          <Flex gap="1" wrap="wrap" asChild>
            <ol className="gt-chips" aria-label={`Planets of ${sequence.name}`}>
              {sequence.sequence.map((step, i) => (
                <li key={step.id}>
                  <Badge variant="outline" color="gray">
                    {i + 1}. {step.planetType}
                    {step.shuffle ? <span aria-label="shuffled"> ★</span> : null}
                  </Badge>
                </li>
              ))}
            </ol>
          </Flex>
          {canWrite ? (
            <Flex align="center" gap="2" wrap="wrap" justify="between">
              <fetcher.Form method="post" action="/trading-planets" className="gt-inline-form">
                <input type="hidden" name="intent" value="sequence-active" />
                <input type="hidden" name="id" value={sequence._id} />
                <input type="hidden" name="redirectTo" value={here} />
                <ActiveSwitch
                  active={active}
                  label={`Active: ${sequence.name}`}
                  onChange={(v) =>
                    fetcher.submit(
                      { intent: "sequence-active", id: sequence._id, isActive: String(v), redirectTo: here },
                      { method: "post", action: "/trading-planets" },
                    )
                  }
                />
              </fetcher.Form>
              <Flex gap="1" wrap="wrap">
                <MoveButton id={sequence._id} direction="up" disabled={index === 0} here={here} name={sequence.name} />
                <MoveButton id={sequence._id} direction="down" disabled={index === count - 1} here={here} name={sequence.name} />
                <Button asChild size="1" variant="soft">
                  <Link to={linkWith("sequence", sequence._id)} preventScrollReset aria-label={`Edit ${sequence.name}`}>
                    Edit
                  </Link>
                </Button>
                <IconButton asChild size="1" variant="soft" color="red">
                  <Link to={linkWith("confirm", `sequence:${sequence._id}`)} preventScrollReset aria-label={`Delete ${sequence.name}`}>
                    <TrashIcon />
                  </Link>
                </IconButton>
              </Flex>
            </Flex>
          ) : (
            <Badge color={active ? "green" : "gray"} variant="soft" className="gt-sequence-state">
              {active ? "Active" : "Inactive"}
            </Badge>
          )}
        </Flex>
      </Card>
    </li>
  );
}

/** Checkbox + Save without JavaScript; a switch that posts at once with it. */
function ActiveSwitch({ active, label, onChange }: { active: boolean; label: string; onChange: (v: boolean) => void }): ReactNode {
  return (
    <Text as="label" size="2">
      <Flex gap="2" align="center">
        <FormSwitch checked={active} onCheckedChange={onChange} label={label} />
        <noscript>
          <input type="hidden" name="isActive" value={active ? "false" : "true"} />
          <button type="submit">{active ? "Deactivate" : "Activate"}</button>
        </noscript>
        Active
      </Flex>
    </Text>
  );
}

function MoveButton({ id, direction, disabled, here, name }: { id: string; direction: "up" | "down"; disabled: boolean; here: string; name: string }) {
  return (
    <Form method="post" action="/trading-planets" preventScrollReset className="gt-inline-form">
      <input type="hidden" name="intent" value="sequence-move" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="direction" value={direction} />
      <input type="hidden" name="redirectTo" value={here} />
      <IconButton type="submit" size="1" variant="soft" color="gray" disabled={disabled} aria-label={`Move ${name} ${direction}`}>
        {direction === "up" ? "↑" : "↓"}
      </IconButton>
    </Form>
  );
}
