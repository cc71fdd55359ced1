import { documented } from "#api/openapi";
import { z } from "zod";
import { auditListSchema } from "#api/responses";

/** The OpenAPI registration of api.audit.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
const text = (what: string) => z.string().max(200).describe(what);

export const openapi = documented("/api/audit", "Team", {
  GET: {
    summary: "The audit trail",
    description:
      "Issues 21, 28 (docs/decisions/0016, 0025): newest first, keyset-paged: pass `next` as `before` for older entries, `prev` as `after` for newer ones. Every role may read it.",
    // parseAuditQuery (api/audit.ts) reads these by hand (aliases since/until, cursors); the shapes it accepts:
    query: z
      .object({
        operator: text('An operator\'s name (exact, any case) or id; "(command line)" for CLI commands'),
        action: text("An action, e.g. `rate.update`"),
        target: text("Text in the target"),
        from: text("From this ISO time or date (YYYY-MM-DD: from the day's start, UTC); also `since`"),
        to: text("Up to this ISO time or date (a date: to its end, UTC); also `until`"),
        before: text("The `next` cursor of an answer"),
        after: text("The `prev` cursor of an answer"),
        limit: z.string().regex(/^\d+$/).describe("Entries per page, 1–200 (default 50)"),
        page: z.string().regex(/^\d+$/).describe("Offset page (1-based), for old scripts"),
      })
      .partial(),
    responses: { 200: auditListSchema },
  },
});
