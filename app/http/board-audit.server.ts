import express, { type NextFunction, type Request, type Response } from "express";
import { recordAudit, SYSTEM_ACTOR } from "~/models/audit.server";
import { gateVerdict } from "~/http/auth.server";
import { QUEUE_NAMES, type QueueName } from "../queue/queues.server";
import { jobKindsOf, payloadProblem } from "../queue/queue-payloads";

/**
 * The queue board's writes on the audit trail, and its add-job checked (issue 28 item 2;
 * docs/decisions/0025). Mounted in front of bull-board's router (mountQueueBoard), behind the
 * auth gate, which has already decided who may write (access.server.ts):
 *
 * - every write bull-board serves (pause, resume, empty, clean, retry, promote, add, edit a
 *   job's data; one queue or all) that it answers below 400 gets one entry: who, the board's
 *   action, and the queue or job it acted on ("job probe-1 in queue system");
 * - an added job, or a job's edited data, must be one the queue's processor knows: the queue
 *   is one of ours, the name one of its job kinds, the data that kind's payload
 *   (queue-payloads.ts), the options a small safe set. Anything else is a 400
 *   `{error, message}` and nothing is added.
 */
type BoardWrite = { action: string; target: string; queue?: string; check?: "add" | "update-data" };

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const ADD_OPTIONS = new Set(["delay", "priority", "attempts", "lifo", "jobId"]);

/** What a write path of bull-board's API does ("/api/queues/system/add" → add a job to queue system). */
export function boardWriteOf(method: string, path: string): BoardWrite | null {
  const m = /^\/api\/queues(?:\/(.*))?$/.exec(path);
  if (!m) return null;
  const parts = (m[1] ?? "").split("/").filter(Boolean).map(decodeURIComponent);
  const verb = method.toUpperCase();
  if (parts.length === 1 && (parts[0] === "pause" || parts[0] === "resume") && verb === "PUT")
    return { action: `queue-board.${parts[0]}-all`, target: "all queues" };
  const [queue, a, b, c] = parts;
  if (!queue) return null;
  const q = `queue ${queue}`;
  if (parts.length === 2 && a === "add" && verb === "POST") return { action: "queue-board.add-job", target: q, queue, check: "add" };
  if (parts.length === 2 && ["pause", "resume", "empty", "promote"].includes(a!)) return { action: `queue-board.${a}`, target: q, queue };
  if (parts.length === 3 && (a === "retry" || a === "clean")) return { action: `queue-board.${a}-all`, target: `${b} jobs in ${q}`, queue };
  const job = `job ${a} in ${q}`;
  if (parts.length === 4 && b === "retry") return { action: "queue-board.retry-job", target: `${job} (${c})`, queue };
  if (parts.length === 3 && (b === "clean" || b === "promote"))
    return { action: `queue-board.${b === "clean" ? "remove" : "promote"}-job`, target: job, queue };
  if (parts.length === 3 && b === "update-data") return { action: "queue-board.update-job-data", target: job, queue, check: "update-data" };
  return { action: `queue-board ${verb} ${path}`, target: parts.join(" / ") || "queue board", queue };
}

function refuse(res: Response, text: string) {
  res.status(400).set("Cache-Control", "no-store").json({ error: text, message: text });
}

function problemOf(write: BoardWrite, body: unknown): string | null {
  const queue = write.queue as QueueName;
  if (!(QUEUE_NAMES as readonly string[]).includes(write.queue ?? "")) return `Unknown queue "${write.queue}": the board knows ${QUEUE_NAMES.join(", ")}`;
  const fields = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  if (!fields) return "Send a JSON object";
  if (write.check === "update-data") {
    const problem = payloadProblem(queue, fields.jobData);
    return problem && `Invalid job data for queue ${queue}: ${problem}`;
  }
  const kinds = jobKindsOf(queue);
  if (typeof fields.name !== "string" || !kinds.includes(fields.name))
    return `Unknown job name for queue ${queue}: use ${kinds.map((k) => `"${k}"`).join(" or ")}`;
  const problem = payloadProblem(queue, fields.data);
  if (problem) return `Invalid job data for queue ${queue}: ${problem}`;
  if ((fields.data as { kind: string }).kind !== fields.name) return `The job's name ("${fields.name}") and its data's kind must be the same`;
  const options = fields.options ?? {};
  if (!options || typeof options !== "object" || Array.isArray(options)) return "Invalid job options: send an object";
  const unknown = Object.keys(options).filter((k) => !ADD_OPTIONS.has(k));
  if (unknown.length) return `Job options not allowed on the board: ${unknown.join(", ")} (allowed: ${[...ADD_OPTIONS].join(", ")})`;
  const o = options as Record<string, unknown>;
  for (const k of ["delay", "priority", "attempts"]) {
    if (o[k] !== undefined && !(Number.isInteger(o[k]) && (o[k] as number) >= 0 && (o[k] as number) <= 2_147_483_647))
      return `Invalid job option ${k}: a whole number from 0`;
  }
  if (o.jobId !== undefined && !(typeof o.jobId === "string" && /^[\w.-]{1,100}$/.test(o.jobId) && !/^\d+$/.test(o.jobId)))
    return "Invalid job option jobId: letters, digits, '.', '_' or '-', not only digits";
  return null;
}

const parseJson = express.json({ limit: "64kb", type: () => true });

/** Express middleware for the board's mount path: checks add-job / update-data, records each write that succeeded. */
export function boardAudit() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!WRITE_METHODS.has(req.method.toUpperCase())) return next();
    const write = boardWriteOf(req.method, req.path);
    if (!write) return next();
    const proceed = () => {
      if (write.check) {
        const problem = problemOf(write, req.body);
        if (problem) return refuse(res, problem);
      }
      const auth = gateVerdict();
      const actor = auth ? { operatorId: auth.operator.id, operator: auth.operator.name, token: auth.token?.name ?? null } : SYSTEM_ACTOR;
      const details: Record<string, unknown> = {};
      if (write.check === "add") {
        const body = req.body as { name: string; data: unknown; options?: unknown };
        Object.assign(details, { name: body.name, data: body.data, options: body.options ?? {} });
      }
      if (auth?.token) details.via = `API token "${auth.token.name}"`;
      // Written before the answer leaves (as the route guard does): a client that reads the trail next finds it.
      const send = res.end.bind(res) as (...args: unknown[]) => Response;
      let done = false;
      res.end = ((...args: unknown[]) => {
        if (done || res.statusCode >= 400) return send(...args);
        done = true;
        void recordAudit(actor, { action: write.action, target: write.target, details: { ...details, status: res.statusCode } }).finally(() => send(...args));
        return res;
      }) as Response["end"];
      next();
    };
    // Only the writes whose body is checked are read here; bull-board's own parser then finds it read.
    if (write.check) return parseJson(req, res, (err?: unknown) => (err ? refuse(res, "The body must be JSON (at most 64 KB)") : proceed()));
    proceed();
  };
}
