import { probeRequestSchema } from "#api/jobs";
import { documented } from "#api/openapi";
import { probeSchema } from "#api/responses";

/** The OpenAPI registration of api.jobs.probe.ts (issue 33; docs/api.md): its operations, from the zod schemas it parses and answers with. */
export const openapi = documented("/api/jobs/probe", "System", {
  POST: {
    summary: "Check the job pipeline",
    description:
      'The probe job sleeps `ms` on a worker, then writes "Probe job <jobId> completed" to System Logs. A `key` makes the job id stable: asking twice gives one job. 503 at once when Redis is down.',
    body: probeRequestSchema,
    bodyRequired: false,
    example: { ms: 0 },
    responses: { 202: probeSchema },
  },
});
