import { workersAnswerSchema } from "#api/operations-schemas";
import { documented } from "#api/openapi";

/** The OpenAPI registration of api.workers.ts (issues 31, 33; docs/api.md). */
export const openapi = documented("/api/workers", "System", {
  GET: {
    summary: "The workers: live ones, then those lost in the last 10 minutes",
    description: "Each worker's host, pid, heartbeat, sessions held per purpose, memory (RSS), version and whether it is drained or lost (issue 31).",
    responses: { 200: workersAnswerSchema },
  },
});
