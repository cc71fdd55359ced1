import { documented } from "#api/openapi";
import { dailyTotalsSchema } from "#api/responses";

/** The OpenAPI registration of api.bowling-awards.daily-totals.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/bowling-awards/daily-totals", "Summary", {
  GET: { summary: "Bowling awards per day", description: 'Spec 2 "Summary": the last days\' award and ball totals.', responses: { 200: dailyTotalsSchema } },
});
