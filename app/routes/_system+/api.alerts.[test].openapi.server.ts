import { TestAlertsResponseSchema } from "#api/alerts";
import { documented } from "#api/openapi";

/** The OpenAPI registration of api.alerts.[test].ts (issues 31, 33; docs/api.md). */
export const openapi = documented("/api/alerts/test", "System", {
  POST: {
    summary: "Send a test alert to each destination now (admins)",
    description: "Answers what each destination returned; 200 even when one refused (that is the answer asked for). 400 when none is set.",
    responses: { 200: TestAlertsResponseSchema },
  },
});
