import { COLLECTIONS_LIMITS } from "#api/collections";

/**
 * A failed Collections operation (spec 2 §7 "Collections"): the status and the text the caller
 * answers with. The platform operations themselves are app/galaxy/clay.server.ts (models make
 * no platform calls); the models and the automation cycle share this type and the timings.
 */
export class ClayError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ClayError";
  }
}

/** Every pause of the section, in ms. `COLLECTIONS_TIME_SCALE` (tests, e2e) multiplies them all. */
export function collectionsTimings() {
  const raw = Number(process.env.COLLECTIONS_TIME_SCALE ?? "1");
  const k = Number.isFinite(raw) && raw > 0 ? raw : 1;
  return {
    /** Spec 2 §9 "First auto cycle after 0.5 s". */
    firstCycleMs: COLLECTIONS_LIMITS.firstCycleMs * k,
    /** Spec 2 §9 "Wait between cycle steps 2 s". */
    stepWaitMs: COLLECTIONS_LIMITS.stepWaitMs * k,
    /** The interval unit (a chosen interval of 30 means 30 000 ms × k). */
    secondMs: 1_000 * k,
    /** [D] Between two mastic requests of one run (docs/collections.md). */
    masticPacingMs: 250 * k,
    /** galaxy-runtime.md §3.3: send chunks of 50 go 2 s apart. */
    sendChunkGapMs: COLLECTIONS_LIMITS.stepWaitMs * k,
  };
}
