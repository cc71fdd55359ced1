import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The audit trail (issue 21; docs/decisions/0016): one row per change made through a page
 * action, an /api call, a job one of them started, or the command line. Who (the operator's
 * name at the time, and the API token's name when one was used), what, on what, and a short
 * summary without secrets. No foreign key: entries outlive the operators they name.
 * Kept AUDIT_RETENTION_DAYS (default 90).
 */
export const auditLog = pgTable(
  "audit_log",
  {
    /** Increasing: "newest first" and paging are by id, stable under equal timestamps. */
    id: bigserial({ mode: "number" }).primaryKey(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    operatorId: uuid(),
    /** The operator's name, or "(command line)" for a CLI command run by whoever holds the shell. */
    operator: text().notNull(),
    /** The API token's name when the change came with one. */
    token: text(),
    action: text().notNull(),
    target: text().notNull().default(""),
    details: jsonb().$type<Record<string, unknown>>(),
  },
  (t) => [
    index().on(t.at),
    index().on(t.operator, t.id),
    index().on(t.action, t.id),
    // The trail's page order, newest first by (at, id) (listAudit; issue 32 item 1): no sort step on ties.
    index("audit_log_at_id_index").on(t.at, t.id),
  ],
);
