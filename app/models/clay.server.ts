import { COLLECTIONS_LIMITS } from "#api/collections";

/**
 * The Collections section's timings (spec 2 §7 "Collections"). The platform operations are
 * app/platform/clay.server.ts (models make no platform calls); a failed operation is an
 * AppError (app/utils/app-error.ts) with the status and the text the caller answers with.
 */

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
