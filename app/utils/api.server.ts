import { data } from "@remix-run/node";
import type { z } from "zod";

/** Largest JSON body any /api route accepts (import of a few thousand rates fits easily). */
export const MAX_JSON_BYTES = 2 * 1024 * 1024;

/** A JSON error answer in the /api contract's shape: `{ error }`. */
export function jsonError(status: number, error: string, headers?: HeadersInit) {
  return Response.json({ error }, { status, headers });
}

/** Throwable form, for use deep inside helpers. */
export function apiError(status: number, error: string): never {
  throw jsonError(status, error);
}

/** Formats the first zod issue as one readable sentence. */
export function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request";
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  return `${where}${issue.message}`;
}

/**
 * Reads a JSON body with a size cap and parses it with a zod schema.
 * Throws 413 (too large), 415 (not JSON), 400 (malformed or invalid) as `{ error }`.
 */
export async function readJson<S extends z.ZodType>(request: Request, schema: S, maxBytes = MAX_JSON_BYTES): Promise<z.output<S>> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > maxBytes) apiError(413, `Request body too large (limit ${maxBytes} bytes)`);
  const type = request.headers.get("content-type") ?? "";
  if (type && !/json/i.test(type)) apiError(415, "Content-Type must be application/json");
  let text: string;
  try {
    text = await readLimited(request, maxBytes);
  } catch (err) {
    if (err instanceof Response) throw err;
    apiError(400, "Could not read request body");
  }
  let body: unknown;
  try {
    body = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    apiError(400, "Malformed JSON body");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) apiError(400, zodMessage(parsed.error));
  return parsed.data;
}

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      apiError(413, `Request body too large (limit ${maxBytes} bytes)`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: string | undefined): value is string {
  return !!value && UUID.test(value);
}

/** Answers 405 for methods a resource route does not serve. */
export function methodNotAllowed(allowed: string[]) {
  return jsonError(405, `Method not allowed (use ${allowed.join(", ")})`, { Allow: allowed.join(", ") });
}

export { data };
