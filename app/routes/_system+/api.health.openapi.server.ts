import { documented } from "#api/openapi";
import { healthSchema } from "#api/responses";

/** The OpenAPI registration of api.health.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/health", "System", {
  GET: {
    summary: "Database, Redis and worker state",
    description:
      '"ok" when everything runs, "degraded" when Redis or the worker is down (pages and the API still work); 503 only when the database is down ' +
      "(then with the same body plus `error`/`message`). Unauthenticated liveness without details is `GET /healthz`.",
    responses: { 200: healthSchema },
  },
});
