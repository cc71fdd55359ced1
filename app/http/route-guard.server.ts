import { type ActionFunctionArgs, type ServerBuild } from "@remix-run/node";
import { recordAudit, type AuditActor } from "~/models/audit.server";
import { adminIntentsOf, writeAccessRefusal } from "./access.server";
import { refusalAnswer } from "./refusal.server";
import { newAuditScope, runInAuditScope, type AuditScope } from "../utils/audit-context.server";
import { describeTarget, fallbackTarget, listed } from "../models/audit-target.server";
import { getAuth, type AuthResult } from "./auth.server";
import { bodyLimitFor } from "../utils/body-limits";
import { degradeRoute } from "./degrade.server";
import { getToast } from "remix-toast";
import { readBodyUpTo } from "../utils/read-body.server";

/**
 * Every route action of the Remix build, wrapped once (issue 21; docs/decisions/0016), so
 * that every present and future page action and /api write gets, without editing it:
 *
 * 1. **Roles**, the second guard behind the Express gate: a write by a viewer or with a
 *    read-only token is a 403 `{ error, message }` before the action runs (the gate refuses
 *    it first in production; this covers any way in the gate did not foresee).
 * 2. **The body, once**: read up to the route's limit (body-limits.ts; a longer one is a 413
 *    before the action runs) and handed to the action as a fresh Request.
 * 3. **The audit trail**: after the action, one entry — who (operator, and token name), the
 *    action (method + route pattern, + the form's `intent` for pages), its target (the URL
 *    parameters, else an id from the body), and a summary of the request body with secrets
 *    blanked — and one entry per job the action started (`enqueue()` reports them). Only
 *    writes that were not refused (status < 400, and no error toast) are recorded: a refused
 *    request changed nothing. The entry is written before the answer leaves, so a client that reads
 *    GET /api/audit right after its change finds it.
 *
 * server.ts hands Remix `guardBuild(build)`; the test kit's remixHandler does the same.
 */
const guarded = new WeakMap<ServerBuild, ServerBuild>();

export function guardBuild(build: ServerBuild): ServerBuild {
  const known = guarded.get(build);
  if (known) return known;
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) {
      routes[id] = route;
      continue;
    }
    // A database or Redis that is down: a 503 naming it, from every loader and action (decision 0029).
    const module = degradeRoute(route.module);
    const action = module.action;
    if (!action) {
      routes[id] = module === route.module ? route : { ...route, module };
      continue;
    }
    const pattern = routePattern(build.routes, id);
    const kind = isApiPattern(pattern) ? "api" : module.default ? "page" : "resource";
    routes[id] = { ...route, module: { ...module, action: guardAction(pattern, action, kind) } };
  }
  const result = { ...build, routes };
  guarded.set(build, result);
  guarded.set(result, result);
  return result;
}

/** "/api/rates/:id" for a route id, from the parents' path segments (pathless layouts add nothing). */
export function routePattern(routes: ServerBuild["routes"], id: string): string {
  const parts: string[] = [];
  let r: ServerBuild["routes"][string] | undefined = routes[id];
  while (r) {
    if (r.path) parts.unshift(r.path);
    r = r.parentId ? routes[r.parentId] : undefined;
  }
  return "/" + parts.join("/");
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const isApiPattern = (pattern: string) => pattern === "/api" || pattern.startsWith("/api/");

type Action = NonNullable<ServerBuild["routes"][string]["module"]["action"]>;

function guardAction(pattern: string, action: Action, kind: "api" | "resource" | "page"): Action {
  return async (args) => {
    const { request } = args;
    const method = request.method.toUpperCase();
    if (!WRITES.has(method)) return action(args);
    const auth = await getAuth(request).catch(() => null);
    if (!auth) return action(args); // the route's own check answers (401 / redirect to the login)
    // The one write rule (access.server.ts), as the gate asked it; refused before the body is read.
    const path = new URL(request.url).pathname;
    const refusal = writeAccessRefusal(method, path, auth);
    if (refusal) throw await refusalAnswer(request, 403, refusal, kind);
    // The body is read once, up to the route's limit, and handed on: the action reads the
    // same bytes, the audit summary reads them afterwards. (A tee'd clone would stall: a
    // cancelled branch of a tee waits for the other one.)
    const limit = bodyLimitFor(new URL(request.url).pathname);
    let bytes: Buffer<ArrayBuffer> | null = null;
    if (request.body) {
      bytes = await readCapped(request.body, limit);
      if (!bytes) {
        const text = `Request body too large (limit ${limit} bytes)`;
        throw await refusalAnswer(request, 413, text, kind);
      }
    }
    // A route that mixes personal and admin forms (/settings): the intent's rule, now that the body is read.
    if (bytes && adminIntentsOf(path).length) {
      const denied = writeAccessRefusal(method, path, auth, await intentOf(bytes, request.headers.get("content-type") ?? ""));
      if (denied) throw await refusalAnswer(request, 403, denied, kind);
    }
    // What the request names, looked up before the action (a deleted row is gone afterwards).
    const named = await nameBeforeAction(pattern, args, bytes, request.headers.get("content-type") ?? "", auth.operator.id);
    const forwarded = bytes ? new Request(request.url, { method: request.method, headers: request.headers, body: bytes, signal: request.signal }) : request;
    const scope = newAuditScope();
    let result: unknown;
    let thrown: unknown;
    let failed = false;
    try {
      result = await runInAuditScope(scope, () => action({ ...args, request: forwarded }));
    } catch (err) {
      failed = true;
      thrown = err;
    }
    const status = statusOf(failed ? thrown : result, failed);
    if (status < 400 && !scope.skip && !(await failedWithToast(failed ? thrown : result)))
      await recordRequest(auth, method, pattern, args, named, scope, status);
    if (failed) throw thrown;
    return result as Awaited<ReturnType<Action>>;
  };
}

/** The form's `intent` field, when the body is a form. */
async function intentOf(bytes: Buffer<ArrayBuffer>, type: string): Promise<string | null> {
  if (!/form/i.test(type)) return null;
  const form = await new Response(bytes, { headers: { "Content-Type": type } }).formData().catch(() => null);
  const intent = form?.get("intent");
  return typeof intent === "string" ? intent : null;
}

/** The HTTP status an action's outcome becomes: a Response's, data()'s, 200 for plain data, 500 for a thrown error. */
function statusOf(outcome: unknown, thrown: boolean): number {
  if (outcome instanceof Response) return outcome.status;
  const init = (outcome as { type?: string; init?: { status?: number } | null } | null)?.init;
  if (outcome && typeof outcome === "object" && (outcome as { type?: string }).type === "DataWithResponseInit") return init?.status ?? 200;
  return thrown ? 500 : 200;
}

/**
 * A page action that failed tells the operator with an error toast and may still answer 2xx
 * (a no-JS redirect, 302): it changed nothing, so it is no entry of the trail.
 */
async function failedWithToast(outcome: unknown): Promise<boolean> {
  // A fetcher's answer carries its toast in the body (jsonWithError), a redirect in the flash cookie.
  if (outcome && typeof outcome === "object" && (outcome as { type?: string }).type === "DataWithResponseInit") {
    const carried = (outcome as { data?: { toast?: { type?: string } } }).data?.toast;
    if (carried) return carried.type === "error";
  }
  const headers =
    outcome instanceof Response
      ? outcome.headers
      : outcome && typeof outcome === "object" && (outcome as { type?: string }).type === "DataWithResponseInit"
        ? new Headers((outcome as { init?: ResponseInit | null }).init?.headers)
        : null;
  const flash = headers?.getSetCookie().find((c) => c.startsWith("toast-session="));
  if (!flash) return false;
  const { toast } = await getToast(new Request("http://local.invalid/", { headers: { Cookie: flash.split(";")[0]! } })).catch(() => ({ toast: undefined }));
  return toast?.type === "error";
}

export function actorOf(auth: AuthResult): AuditActor {
  return { operatorId: auth.operator.id, operator: auth.operator.name, token: auth.token?.name ?? null };
}

type NamedRequest = { body: unknown; fields: Record<string, unknown>; target: string; operatorId: string };

/** The request's body as fields, and the human name of what it changes as it stands before the action. */
async function nameBeforeAction(
  pattern: string,
  args: ActionFunctionArgs,
  bytes: Buffer<ArrayBuffer> | null,
  contentType: string,
  operatorId: string,
): Promise<NamedRequest> {
  const body = await parseBody(bytes, contentType);
  const fields: Record<string, unknown> = body && typeof body === "object" && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
  const listFields = Array.isArray(body) && body.every((b) => b && typeof b === "object") ? (body as Record<string, unknown>[]) : null;
  const target = await describeRequest(pattern, args.params ?? {}, fields, listFields, operatorId);
  return { body, fields, target, operatorId };
}

/** describeTarget for an object body, or for each item of a list body (a batch), joined. */
async function describeRequest(
  pattern: string,
  params: Record<string, string | undefined>,
  fields: Record<string, unknown>,
  list: Record<string, unknown>[] | null,
  operatorId: string,
): Promise<string> {
  try {
    if (!list) return await describeTarget({ pattern, params, fields, operatorId });
    const names: string[] = [];
    for (const item of list.slice(0, 50)) {
      const n = await describeTarget({ pattern, params, fields: item, operatorId });
      if (n && !names.includes(n)) names.push(n);
    }
    return names.length ? listed(names) + (list.length > 50 ? ` (${list.length} items)` : "") : "";
  } catch {
    // A lookup that failed must not fail the write: the entry falls back to the request's own words.
    return "";
  }
}

async function recordRequest(
  auth: AuthResult,
  method: string,
  pattern: string,
  args: ActionFunctionArgs,
  named: NamedRequest,
  scope: AuditScope,
  status: number,
) {
  const actor = actorOf(auth);
  const { body } = named;
  const api = isApiPattern(pattern);
  const fields = { ...named.fields };
  const intent = !api && typeof fields.intent === "string" ? fields.intent : undefined;
  delete fields.intent;
  // Where the page goes afterwards tells nothing about the change.
  delete fields.redirectTo;
  delete fields.errorRedirectTo;
  const params = Object.values(args.params ?? {}).filter((v): v is string => typeof v === "string");
  const action = scope.note.action ?? (api ? `${method} ${pattern}` : `${method} ${pattern}${intent ? ` ${intent}` : ""}`);
  // The action's own words first; else what the request named before it ran; else what it
  // names now (a row it created); else the ids it carried; else the request itself.
  const list = Array.isArray(body) && body.every((b) => b && typeof b === "object") ? (body as Record<string, unknown>[]) : null;
  const target =
    scope.note.target?.trim() ||
    named.target ||
    (await describeRequest(pattern, args.params ?? {}, named.fields, list, named.operatorId)) ||
    (params.length ? params.join("/") : targetFromBody(fields)) ||
    fallbackTarget(action, fields);
  const details: Record<string, unknown> = {
    ...(body === undefined ? {} : Array.isArray(body) || typeof body !== "object" || body === null ? { body } : fields),
    ...scope.note.details,
    status,
  };
  if (actor.token) details.via = `API token "${actor.token}"`;
  // One write, one entry (issue 28): the jobs it started are part of what it did.
  if (scope.jobs.length) details.jobs = scope.jobs.map((j) => `${j.queue} ${j.kind} ${j.jobId}`);
  await recordAudit(actor, { action, target, details });
}

const ID_FIELDS = ["_id", "id", "accountId", "account_id", "userID", "userId", "profileId", "tokenId", "operatorId", "name", "inputItem"];

function targetFromBody(fields: Record<string, unknown>): string {
  for (const key of ID_FIELDS) {
    const v = fields[key];
    if (typeof v === "string" && v.trim()) return v.trim().slice(0, 120);
    if (typeof v === "number") return String(v);
  }
  return "";
}

/** The whole body, or null when it is longer than `limit` (reading stops there). */
async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Buffer<ArrayBuffer> | null> {
  const over = new Error("over the limit");
  try {
    return await readBodyUpTo({ body }, limit, () => {
      throw over;
    });
  } catch (err) {
    if (err === over) return null;
    throw err;
  }
}

/** The request body as a value for the summary: JSON parsed, a form as an object. */
async function parseBody(bytes: Buffer<ArrayBuffer> | null, type: string): Promise<unknown> {
  if (!bytes?.length) return undefined;
  try {
    if (/json/i.test(type)) return JSON.parse(bytes.toString("utf8"));
    if (/form/i.test(type)) {
      const form = await new Response(bytes, { headers: { "Content-Type": type } }).formData();
      const out: Record<string, unknown> = {};
      for (const [k, v] of form) {
        const value = typeof v === "string" ? v : `[file ${v.name}, ${v.size} bytes]`;
        out[k] = k in out ? ([] as unknown[]).concat(out[k], value) : value;
      }
      return out;
    }
    return `[${bytes.length} bytes of ${type || "unknown type"}]`;
  } catch {
    return "[unreadable body]";
  }
}
