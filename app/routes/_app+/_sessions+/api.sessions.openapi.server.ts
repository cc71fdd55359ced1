import { z } from "zod";
import { LIST_PURPOSES, LIST_STATES, SESSIONS_PAGE_MAX } from "#api/operations";
import { sessionsListAnswerSchema } from "#api/operations-schemas";
import { documented } from "#api/openapi";

/** The OpenAPI registration of api.sessions.ts (issues 31, 33; docs/api.md). */
export const openapi = documented("/api/sessions", "System", {
  GET: {
    summary: "Every session of every purpose, one page of 50, problems first",
    description:
      "The Sessions page's list (issue 31): `actual` is the row as its holder wrote it; `phase`/`status` the state every screen shows " +
      "(waiting, connecting, active, retrying, stopped, failed). A filter the page does not know is a 400 naming it.",
    query: z.object({
      purpose: z.enum(LIST_PURPOSES).optional(),
      state: z.enum(LIST_STATES).optional(),
      worker: z.string().max(200).optional(),
      q: z.string().max(100).optional().describe("Nick or account id"),
      page: z.coerce.number().int().min(1).max(SESSIONS_PAGE_MAX).optional(),
    }),
    responses: { 200: sessionsListAnswerSchema },
  },
});
