import { bodyLimitFor } from "./body-limits";
import { readBodyUpTo } from "./read-body.server";

/**
 * A page action's form body. The gate lets only form content types reach a page action
 * (app/http/auth-gate.server.ts); a malformed multipart body still makes
 * `request.formData()` throw, which Remix would answer with a 500: it is the client's
 * mistake, so it is a 400. The body is read up to the route's limit (body-limits.ts: a
 * chunked body has no Content-Length for the gate to check), and a field holding a NUL or a
 * lone surrogate — text PostgreSQL cannot store as sent — is refused as bad input.
 */
export async function readFormData(request: Request): Promise<FormData> {
  const limit = bodyLimitFor(new URL(request.url).pathname);
  if (Number(request.headers.get("content-length") ?? 0) > limit) throw textError(413, `Request body too large (limit ${limit} bytes)`);
  let bytes: Awaited<ReturnType<typeof readUpTo>>;
  try {
    bytes = await readUpTo(request, limit);
  } catch (err) {
    if (err instanceof Response) throw err;
    throw textError(400, "The form could not be read");
  }
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "Content-Type": request.headers.get("content-type") ?? "application/x-www-form-urlencoded" } }).formData();
  } catch {
    throw textError(400, "The form could not be read");
  }
  for (const [key, value] of form) {
    if (typeof value !== "string") continue;
    // eslint-disable-next-line no-control-regex -- NUL is what this refuses.
    if (/\u0000|\p{Cs}/u.test(key) || /\u0000|\p{Cs}/u.test(value)) throw textError(400, "The form contains an invalid character");
  }
  return form;
}

function textError(status: number, text: string) {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

function readUpTo(request: Request, limit: number) {
  return readBodyUpTo(request, limit, (max) => {
    throw textError(413, `Request body too large (limit ${max} bytes)`);
  });
}
