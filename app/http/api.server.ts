import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { writeAccessRefusal } from "./access.server";
import { getAuth, requireApiAuth } from "./auth.server";
import { dbReachability, reportDbUnreachable } from "~/db/reachability.server";
import { AppError } from "../utils/app-error";
import { bodyLimitFor, jsonDepthExceeds, MAX_JSON_DEPTH } from "../utils/body-limits";
import { DependencyDownError, findDependencyDown } from "../utils/dependency-down.server";
import { errorText } from "../utils/errors";
import { readBodyUpTo } from "../utils/read-body.server";

/** Largest JSON body any /api route accepts (the rates import); each route's own limit is in body-limits.ts. */
export const MAX_JSON_BYTES = 2 * 1024 * 1024;

/**
 * A JSON error answer in the /api contract's shape: `{ error, message }`, the same human
 * text in both (spec 1 screens read `error`, spec 2 screens read `message`).
 */
export function jsonError(status: number, error: string, headers?: HeadersInit) {
  return Response.json({ error, message: error }, { status, headers: { "Cache-Control": "no-store", ...headersObject(headers) } });
}

function headersObject(headers?: HeadersInit): Record<string, string> {
  return headers ? Object.fromEntries(new Headers(headers)) : {};
}

export const INTERNAL_ERROR = "Internal server error";
export const SERVICE_UNAVAILABLE = "Service unavailable: the database cannot be reached";
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are refused.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** In a `u` regex a paired surrogate is one code point, so \p{Cs} matches only lone ones. */
export const LONE_SURROGATE = /\p{Cs}/u;

/** The 500 text of a route when something unexpected fails: one text, or one per method (spec 2 §8). */
export type ApiFailureText = string | Partial<Record<"GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE", string>>;

/**
 * Every /api resource route's loader and action go through this wrapper (issue 7, the
 * second guard behind the Express gate, docs/decisions/0006):
 * - it requires an operator (session cookie or API token) itself, so a request that
 *   reaches the route by any path the gate did not foresee still gets a 401; and a write
 *   (POST/PUT/PATCH/DELETE) by a viewer or a read-only token is a 403 (docs/decisions/0016);
 * - URL parameters with NUL or control characters are a 400 before any query sees them;
 * - errors are mapped here, once (docs/decisions/0023): a thrown `AppError` (models, the
 *   jobs layer, the request readers) is answered with its status, its text as `error` and
 *   `message`, its headers and its extra body fields; a thrown Response is answered as is;
 *   anything else is logged and answered 500 with the route's `failure` text (its method's,
 *   or "Internal server error"), never a stack trace;
 * - every answer is `Cache-Control: no-store`, and every error body has both `error` and
 *   `message` with the same text, whatever the handler wrote.
 */
export function apiRoute<A extends LoaderFunctionArgs | ActionFunctionArgs>(
  handler: (args: A) => Response | Promise<Response>,
  failure?: ApiFailureText,
): (args: A) => Promise<Response> {
  return async (args: A) => {
    let response: Response;
    try {
      try {
        await requireApiAuth(args.request);
      } catch (err) {
        // Without the database no credential can be checked: unavailable, not a 500.
        if (err instanceof Response) throw err;
        throw findDependencyDown(err, reportDbUnreachable) ?? new AppError(503, SERVICE_UNAVAILABLE, { headers: { "Retry-After": "5" } });
      }
      const auth = await getAuth(args.request);
      const refusal = auth && writeAccessRefusal(args.request.method, new URL(args.request.url).pathname, auth);
      if (refusal) throw new AppError(403, refusal);
      const bad = Object.values(args.params ?? {}).some((v) => v !== undefined && (CONTROL_CHARS.test(v) || LONE_SURROGATE.test(v)));
      response = bad ? jsonError(400, "The URL contains invalid characters") : await handler(args);
    } catch (err) {
      response = apiErrorResponse(err, args.request, failure);
    }
    return finishApiResponse(response);
  };
}

/** The /api answer of anything a route threw (see apiRoute). */
export function apiErrorResponse(err: unknown, request: Request, failure?: ApiFailureText): Response {
  if (err instanceof Response) return err;
  // A database or Redis that is down: 503 naming it (Drizzle wraps the driver's error; decision 0029).
  err = findDependencyDown(err, reportDbUnreachable) ?? err;
  if (err instanceof AppError) {
    return Response.json(
      { ...err.body, error: err.message, message: err.message },
      { status: err.status, headers: { "Cache-Control": "no-store", ...err.headers } },
    );
  }
  const text = (typeof failure === "string" ? failure : failure?.[request.method.toUpperCase() as keyof typeof failure]) ?? INTERNAL_ERROR;
  console.warn(`[api] ${request.method} ${new URL(request.url).pathname} failed (${text}):`, errorText(err));
  return jsonError(500, text);
}

async function finishApiResponse(response: Response): Promise<Response> {
  // A route that caught a failure itself and answered 500 while the database is known to be
  // down failed for want of it: say so (503 naming it), as for an error it let through.
  if (response.status === 500 && !dbReachability().up) response = apiErrorResponse(new DependencyDownError("database"), new Request("http://local.invalid"));
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "no-store");
  if (response.status < 400 || !/json/i.test(response.headers.get("Content-Type") ?? "")) return response;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => null);
  if (!body || typeof body !== "object" || Array.isArray(body)) return response;
  const { error, message } = body as { error?: unknown; message?: unknown };
  if (typeof error === "string" && message === error) return response;
  const text = typeof error === "string" ? error : typeof message === "string" ? message : INTERNAL_ERROR;
  return Response.json({ ...body, error: text, message: text }, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Throws the AppError `apiRoute` answers as `{ error, message }` with this status. */
export function apiError(status: number, error: string): never {
  throw new AppError(status, error);
}

/** Formats the first zod issue as one readable sentence. */
export function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request";
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  return `${where}${issue.message}`;
}

/**
 * Reads a JSON body with a size cap (the route's, from body-limits.ts, unless given) and
 * parses it with a zod schema. Throws 413 (too large), 415 (not JSON), 400 (malformed, nested
 * too deeply, NUL or lone surrogates, invalid) as an AppError.
 */
export async function readJson<S extends z.ZodType>(request: Request, schema: S, maxBytes = bodyLimitFor(new URL(request.url).pathname)): Promise<z.output<S>> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > maxBytes) apiError(413, `Request body too large (limit ${maxBytes} bytes)`);
  const type = request.headers.get("content-type") ?? "";
  if (type && !/^application\/json\s*(;|$)/i.test(type)) apiError(415, "Content-Type must be application/json");
  let text: string;
  try {
    text = await readLimited(request, maxBytes);
  } catch (err) {
    if (err instanceof AppError) throw err;
    apiError(400, "Could not read request body");
  }
  // Refused before JSON.parse spends time on it.
  if (jsonDepthExceeds(text)) apiError(400, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  let body: unknown;
  try {
    body = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    apiError(400, "Malformed JSON body");
  }
  const badText = findBadText(body);
  if (badText) apiError(400, badText);
  const parsed = schema.safeParse(body);
  if (!parsed.success) apiError(400, zodMessage(parsed.error));
  return parsed.data;
}

/** True when any string (key or value) in a parsed JSON value holds a NUL: PostgreSQL text cannot store one. */
export function hasNul(value: unknown, depth = 0): boolean {
  return findBadText(value, depth) === NUL_TEXT;
}

const NUL_TEXT = "The request contains a NUL character";
export const LONE_SURROGATE_TEXT = "The request contains an invalid character (a lone UTF-16 surrogate such as \\ud800)";

/**
 * Text PostgreSQL cannot store as sent, in any string (key or value) of a parsed JSON value:
 * a NUL, or a lone UTF-16 surrogate ("\ud800" is valid JSON but no character: jsonb refuses it
 * with a 500, text columns silently store U+FFFD). The refusal's text, or null.
 */
export function findBadText(value: unknown, depth = 0): string | null {
  if (typeof value === "string") return textProblem(value);
  if (depth > 64 || value === null || typeof value !== "object") return null;
  for (const [k, v] of Object.entries(value)) {
    const problem = textProblem(k) ?? findBadText(v, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/** The refusal's text for one string, or null when PostgreSQL can store it as is. */
export function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return NUL_TEXT;
  if (LONE_SURROGATE.test(text)) return LONE_SURROGATE_TEXT;
  return null;
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  const body = await readBodyUpTo(request, maxBytes, (limit) => apiError(413, `Request body too large (limit ${limit} bytes)`));
  return body.toString("utf8");
}

export { isUuid } from "../utils/uuid";

/** Answers 405 for methods a resource route does not serve. */
export function methodNotAllowed(allowed: string[]) {
  return jsonError(405, `Method not allowed (use ${allowed.join(", ")})`, { Allow: allowed.join(", ") });
}

export { data };
