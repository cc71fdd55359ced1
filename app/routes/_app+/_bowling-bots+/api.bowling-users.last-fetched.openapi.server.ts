import { lastFetchedBodySchema } from "#api/bowling";
import { documented } from "#api/openapi";
import { lastFetchedSchema } from "#api/responses";

/** The OpenAPI registration of api.bowling-users.last-fetched.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bowling-users/last-fetched", "Bowling", {
  GET: {
    summary: "When bowling statistics were last fetched",
    description: "Spec 1 §7: `lastFetched` (ISO, UTC), null before the first fetch.",
    responses: { 200: lastFetchedSchema },
  },
  POST: {
    summary: "Record when bowling statistics were fetched",
    description: "Spec 1 §7: `timestamp` is ISO 8601 with `Z` or an offset; stored and answered as UTC ISO.",
    body: lastFetchedBodySchema,
    example: { timestamp: "2026-03-01T12:00:00Z" },
    responses: { 200: lastFetchedSchema },
  },
});
