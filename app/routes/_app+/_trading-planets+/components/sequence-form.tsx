import { Box, Button, Card, Flex, Heading, IconButton, Select, Text, TextField } from "@radix-ui/themes";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type HTMLAttributes, type ReactNode } from "react";
import { defaultShuffle, TRADING_LIMITS, type CustomPlanet, type PlanetSequence } from "#api/trading";
import { PLANET_TYPES, planetTypeLabel } from "#api/planets";
import { arrayMove, useLazySortable, useSortableItem, type SortableStore } from "~/components/ui/lazy-sortable";
import { FieldError } from "~/components/ui/field-error";
import { Cross2Icon, PlusIcon } from "~/components/ui/icons";
import { useHydrated } from "~/components/ui/use-hydrated";
import { FormSwitch } from "./form-switch";
import { applyOp, draftOf, validateDraft, type DraftErrors, type SequenceDraft } from "./sequence-draft";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";

/**
 * Spec 2 §2 "Sequence form": name, Active switch, planets (add, remove, reorder, type with its
 * entry count in brackets, shuffle), seconds (0–999, default 6), closed level (51), open level
 * (15), Cancel and Create/Update. Checked in the browser and again by the server (§5).
 * Planets reorder by drag with JavaScript (dnd-kit, loaded on the first drag: mouse 5 px,
 * touch 120 ms long press, keyboard on the handle; spec 2 §9) and by the ↑/↓ buttons
 * (which also work without it).
 */
export function SequenceForm({
  sequence,
  draft: posted,
  errors: serverErrors,
  customPlanets,
  cancelTo,
}: {
  sequence?: PlanetSequence;
  draft?: SequenceDraft;
  errors: DraftErrors;
  customPlanets: CustomPlanet[];
  cancelTo: string;
}) {
  const [draft, setDraft] = useState<SequenceDraft>(posted ?? draftOf(sequence));
  const [errors, setErrors] = useState<DraftErrors>(serverErrors);
  // A post the server refused (its §5 check runs again there) shows the server's messages.
  const serverKey = JSON.stringify(serverErrors);
  useEffect(() => {
    if (serverKey !== "{}") setErrors(JSON.parse(serverKey) as DraftErrors);
  }, [serverKey]);
  const hydrated = useHydrated();
  // Issue 30 B3: Edit and New Sequence left focus on the card or button that opened the form,
  // dozens of Tabs away from it; the form takes focus when it opens.
  const nameField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    nameField.current?.focus({ preventScroll: true });
    nameField.current?.scrollIntoView({ block: "nearest" });
  }, []);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "sequence-save";
  const edit = (op: string) => (e: { preventDefault: () => void }) => {
    if (!hydrated) return;
    e.preventDefault();
    setDraft((d) => applyOp(d, op));
    if (op === "add") setErrors((x) => ({ ...x, sequence: undefined }));
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.name === "op") return;
    const found = validateDraft(draft);
    setErrors(found);
    if (Object.keys(found).length) e.preventDefault();
  };
  const setStep = (i: number, patch: Partial<SequenceDraft["steps"][number]>) =>
    setDraft((d) => ({ ...d, steps: d.steps.map((s, j) => (j === i ? { ...s, ...patch } : s)) }));
  const onMove = (fromId: string, toId: string) =>
    setDraft((d) => {
      const from = d.steps.findIndex((x) => x.id === fromId);
      const to = d.steps.findIndex((x) => x.id === toId);
      return from < 0 || to < 0 ? d : { ...d, steps: arrayMove(d.steps, from, to) };
    });
  const { store, layer } = useLazySortable({
    items: draft.steps.map((x, i) => ({ id: x.id, name: `planet ${i + 1}, ${planetTypeLabel(x.planetType, customPlanets)}` })),
    enabled: hydrated,
    onMove,
  });

  return (
    <Card mb="4" asChild>
      <section aria-labelledby="gt-sequence-form-title">
        <Form method="post" onSubmit={onSubmit} noValidate preventScrollReset>
          {/* The form's default button (Enter in a field saves), ahead of the planet list's move/remove/add buttons. */}
          <button type="submit" className="gt-visually-hidden" tabIndex={-1} aria-hidden="true" data-testid="sequence-default-submit" />
          <HiddenFields fields={{ intent: "sequence-save", id: sequence?._id ?? "" }} />
          <NoJsRedirect />
          <Flex direction="column" gap="3">
            <Heading as="h2" size="4" id="gt-sequence-form-title">
              {sequence ? "Edit Sequence" : "New Sequence"}
            </Heading>
            <label>
              <Text as="div" size="2" weight="medium" mb="1">
                Name
              </Text>
              <TextField.Root
                ref={nameField}
                name="name"
                value={draft.name}
                onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                aria-invalid={!!errors.name}
              />
            </label>
            <FieldError errors={errors.name ? [errors.name] : null} />
            <Text as="label" size="2">
              <Flex gap="2" align="center">
                <FormSwitch name="isActive" checked={draft.isActive} onCheckedChange={(v) => setDraft({ ...draft, isActive: v })} /> Active
              </Flex>
            </Text>
            <Box>
              <Text as="div" size="2" weight="medium" mb="1">
                Planets
              </Text>
              <Flex direction="column" gap="2" asChild>
                <ol className="gt-step-list" aria-label="Planets">
                  {draft.steps.map((step, i) => (
                    <StepItem key={step.id} id={step.id} store={store} draggable={hydrated}>
                      {(handle) => (
                        <Flex gap="2" align="center" wrap="wrap" className="gt-step-row">
                          {handle ? (
                            <IconButton
                              type="button"
                              size="1"
                              variant="ghost"
                              color="gray"
                              aria-label={`Drag planet ${i + 1}`}
                              className="gt-drag-handle"
                              {...(handle as object)}
                            >
                              ⋮⋮
                            </IconButton>
                          ) : null}
                          <input type="hidden" name="stepId" value={step.id} />
                          <Text size="2" color="gray">
                            {i + 1}.
                          </Text>
                          {hydrated ? (
                            <Select.Root
                              name="planetType"
                              value={step.planetType}
                              onValueChange={(v) => setStep(i, { planetType: v, shuffle: defaultShuffle(v) })}
                            >
                              <Select.Trigger aria-label={`Planet type ${i + 1}`} />
                              <Select.Content>
                                {PLANET_TYPES.map((t) => (
                                  <Select.Item key={t} value={t}>
                                    {planetTypeLabel(t, customPlanets)}
                                  </Select.Item>
                                ))}
                              </Select.Content>
                            </Select.Root>
                          ) : (
                            <select name="planetType" defaultValue={step.planetType} aria-label={`Planet type ${i + 1}`}>
                              {PLANET_TYPES.map((t) => (
                                <option key={t} value={t}>
                                  {planetTypeLabel(t, customPlanets)}
                                </option>
                              ))}
                            </select>
                          )}
                          <Text as="label" size="2">
                            <Flex gap="1" align="center">
                              <FormSwitch name={`shuffle-${step.id}`} checked={step.shuffle} onCheckedChange={(v) => setStep(i, { shuffle: v })} /> Shuffle
                            </Flex>
                          </Text>
                          <Button
                            type="submit"
                            name="op"
                            value={`up:${i}`}
                            size="1"
                            variant="soft"
                            color="gray"
                            disabled={i === 0}
                            onClick={edit(`up:${i}`)}
                            aria-label={`Move planet ${i + 1} up`}
                          >
                            ↑
                          </Button>
                          <Button
                            type="submit"
                            name="op"
                            value={`down:${i}`}
                            size="1"
                            variant="soft"
                            color="gray"
                            disabled={i === draft.steps.length - 1}
                            onClick={edit(`down:${i}`)}
                            aria-label={`Move planet ${i + 1} down`}
                          >
                            ↓
                          </Button>
                          <IconButton
                            type="submit"
                            name="op"
                            value={`remove:${i}`}
                            size="1"
                            variant="soft"
                            color="red"
                            onClick={edit(`remove:${i}`)}
                            aria-label={`Remove planet ${i + 1}`}
                          >
                            <Cross2Icon />
                          </IconButton>
                        </Flex>
                      )}
                    </StepItem>
                  ))}
                </ol>
              </Flex>
              {layer}
              <Button type="submit" name="op" value="add" size="1" variant="soft" mt="2" onClick={edit("add")}>
                <PlusIcon /> Add planet
              </Button>
              <FieldError errors={errors.sequence ? [errors.sequence] : null} />
            </Box>
            <Flex gap="3" wrap="wrap">
              <label>
                <Text as="div" size="2" weight="medium" mb="1">
                  Seconds
                </Text>
                <TextField.Root
                  name="seconds"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={TRADING_LIMITS.secondsMax}
                  value={draft.seconds}
                  onChange={(e) => setDraft({ ...draft, seconds: e.target.value })}
                  aria-invalid={!!errors.seconds}
                />
              </label>
              <FieldError errors={errors.seconds ? [errors.seconds] : null} />
              <label>
                <Text as="div" size="2" weight="medium" mb="1">
                  Closed level
                </Text>
                <TextField.Root
                  name="closedPlanetsLevel"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  value={draft.closedPlanetsLevel}
                  onChange={(e) => setDraft({ ...draft, closedPlanetsLevel: e.target.value })}
                />
              </label>
              <label>
                <Text as="div" size="2" weight="medium" mb="1">
                  Open level
                </Text>
                <TextField.Root
                  name="openPlanetsLevel"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  value={draft.openPlanetsLevel}
                  onChange={(e) => setDraft({ ...draft, openPlanetsLevel: e.target.value })}
                />
              </label>
            </Flex>
            <FieldError errors={errors.form ? [errors.form] : null} />
            <Flex gap="3" justify="end">
              <Button asChild variant="soft" color="gray">
                <Link to={cancelTo} preventScrollReset>
                  Cancel
                </Link>
              </Button>
              <Button type="submit" loading={busy}>
                {sequence ? "Update" : "Create"}
              </Button>
            </Flex>
          </Flex>
        </Form>
      </section>
    </Card>
  );
}

/** One planet row; `handle` (drag props for the handle button) only when draggable. */
function StepItem({
  id,
  store,
  draggable,
  children,
}: {
  id: string;
  store: SortableStore;
  draggable: boolean;
  children: (handle: HTMLAttributes<HTMLElement> | null) => ReactNode;
}) {
  const drag = useSortableItem(store, id, draggable);
  return (
    <li ref={drag.ref} style={drag.style} data-dragging={drag.dragging || undefined}>
      {children(drag.handle)}
    </li>
  );
}
