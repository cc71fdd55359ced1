import { defaultShuffle, TRADING_ERRORS, TRADING_LIMITS, type PlanetSequence } from "#api/trading";

/**
 * The sequence form's fields (spec 2 §2 "Sequence form", §5), read the same way in the
 * browser (before submit) and on the server (zod-free, so it costs the page nothing).
 * Steps are posted as parallel lists `stepId`, `planetType`, `shuffle-<stepId>`.
 * `op` = add | remove:<i> | up:<i> | down:<i> edits the planet list without JavaScript.
 */
export type DraftStep = { id: string; planetType: string; shuffle: boolean };
export type SequenceDraft = {
  name: string;
  isActive: boolean;
  steps: DraftStep[];
  seconds: string;
  closedPlanetsLevel: string;
  openPlanetsLevel: string;
};
export type DraftErrors = Partial<Record<"name" | "sequence" | "seconds" | "form", string>>;

export function draftOf(sequence?: PlanetSequence): SequenceDraft {
  return sequence
    ? {
        name: sequence.name,
        isActive: sequence.isActive,
        steps: sequence.sequence.map((s) => ({ ...s })),
        seconds: String(sequence.seconds),
        closedPlanetsLevel: String(sequence.closedPlanetsLevel),
        openPlanetsLevel: String(sequence.openPlanetsLevel),
      }
    : {
        name: "",
        isActive: true,
        steps: [],
        seconds: String(TRADING_LIMITS.seconds),
        closedPlanetsLevel: String(TRADING_LIMITS.closedPlanetsLevel),
        openPlanetsLevel: String(TRADING_LIMITS.openPlanetsLevel),
      };
}

export function newStep(planetType = "ring"): DraftStep {
  return { id: Math.random().toString(36).slice(2, 10), planetType, shuffle: defaultShuffle(planetType) };
}

export function applyOp(draft: SequenceDraft, op: string): SequenceDraft {
  const steps = [...draft.steps];
  const [kind, at] = op.split(":");
  const i = Number(at);
  if (kind === "add") steps.push(newStep());
  else if (kind === "remove" && steps[i]) steps.splice(i, 1);
  else if (kind === "up" && i > 0) [steps[i - 1], steps[i]] = [steps[i]!, steps[i - 1]!];
  else if (kind === "down" && i < steps.length - 1) [steps[i + 1], steps[i]] = [steps[i]!, steps[i + 1]!];
  return { ...draft, steps };
}

const str = (fd: FormData, name: string) => {
  const v = fd.get(name);
  return typeof v === "string" ? v : "";
};

export function draftFromForm(fd: FormData): SequenceDraft {
  const ids = fd.getAll("stepId").map(String);
  const types = fd.getAll("planetType").map(String);
  return {
    name: str(fd, "name"),
    isActive: fd.get("isActive") === "on" || fd.get("isActive") === "true",
    steps: ids
      .slice(0, TRADING_LIMITS.stepsMax)
      .map((id, i) => ({ id: id.slice(0, 64), planetType: (types[i] ?? "").slice(0, 60), shuffle: fd.get(`shuffle-${id}`) === "on" })),
    seconds: str(fd, "seconds"),
    closedPlanetsLevel: str(fd, "closedPlanetsLevel"),
    openPlanetsLevel: str(fd, "openPlanetsLevel"),
  };
}

const whole = (v: string) => /^\s*\d+\s*$/.test(v);

/** Spec 2 §5: name required, at least one planet, seconds a non-negative number (input 0–999); ours: closed level ≥ open level. */
export function validateDraft(draft: SequenceDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (!draft.name.trim()) errors.name = TRADING_ERRORS.sequenceName;
  if (!draft.steps.length) errors.sequence = TRADING_ERRORS.sequencePlanets;
  if (!whole(draft.seconds)) errors.seconds = /^\s*\d*\.\d+\s*$/.test(draft.seconds) ? TRADING_ERRORS.sequenceSecondsWhole : TRADING_ERRORS.sequenceSeconds;
  else if (Number(draft.seconds) > TRADING_LIMITS.secondsMax) errors.seconds = `Seconds must be at most ${TRADING_LIMITS.secondsMax}`;
  for (const [key, label] of [
    ["closedPlanetsLevel", "Closed planets level"],
    ["openPlanetsLevel", "Open planets level"],
  ] as const) {
    if (!whole(draft[key]) || Number(draft[key]) > TRADING_LIMITS.levelMax)
      errors.form = `${label} must be a whole number from 0 to ${TRADING_LIMITS.levelMax}`;
  }
  if (!errors.form && Number(draft.closedPlanetsLevel) < Number(draft.openPlanetsLevel)) errors.form = TRADING_ERRORS.sequenceLevels;
  if (draft.name.trim().length > TRADING_LIMITS.nameMax) errors.name = `Sequence name is at most ${TRADING_LIMITS.nameMax} characters`;
  return errors;
}

export function readSequenceForm(fd: FormData) {
  const op = str(fd, "op");
  const draft = draftFromForm(fd);
  if (op) return { op, ok: false as const, draft: applyOp(draft, op), errors: {} };
  const errors = validateDraft(draft);
  if (Object.keys(errors).length) return { op: "", ok: false as const, draft, errors };
  return {
    op: "",
    ok: true as const,
    draft,
    errors,
    value: {
      name: draft.name.trim(),
      isActive: draft.isActive,
      sequence: draft.steps.filter((s) => s.planetType.trim()),
      seconds: Number(draft.seconds),
      closedPlanetsLevel: Number(draft.closedPlanetsLevel),
      openPlanetsLevel: Number(draft.openPlanetsLevel),
    },
  };
}
