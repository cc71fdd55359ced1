import crypto from "node:crypto";
import type { ActionFunctionArgs } from "@remix-run/node";
import { probeRequestSchema, type ProbeResponse } from "#api/jobs";
import { enqueue } from "#jobs/queues.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";

/**
 * POST /api/jobs/probe { ms?, key? } → 202 { jobId, queue, name, ms, state }
 * Lets an operator check the whole job pipeline: the probe job sleeps `ms` on a worker,
 * then writes "Probe job <jobId> completed" to System Logs. 503 `{ error }` at once when
 * Redis is down. A `key` makes the job id stable (`probe-<key>`): asking twice gives one job.
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const body = await readJson(request, probeRequestSchema);
  const jobId = `probe-${body.key ?? crypto.randomUUID()}`;
  const job = await enqueue("system", { kind: "probe", ms: body.ms }, { jobId });
  const answer: ProbeResponse = {
    jobId: String(job.id),
    queue: "system",
    name: "probe",
    ms: job.data.kind === "probe" ? job.data.ms : body.ms,
    state: await job.getState(),
  };
  return Response.json(answer, { status: 202 });
});

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
