import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Exactly-once steps of background jobs (docs/jobs.md "Exactly-once effects"). BullMQ runs
 * a job at least once; a processor makes each external effect idempotent by recording the
 * step here under a key (`stepKey()` in app/models/once.server.ts), in the same transaction as
 * the effect, or as a two-phase intent around a platform call.
 */
export const jobSteps = pgTable(
  "job_steps",
  {
    /** `<queue>:<jobId>@<job created ms>:<step>` */
    key: text().primaryKey(),
    /** "started": a platform call may have happened (two-phase steps only); "done": the effect happened. */
    state: text().$type<"started" | "done">().notNull(),
    /** What the step returned (JSON), handed back instead of running it again. */
    result: jsonb().$type<unknown>(),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.startedAt)],
);
