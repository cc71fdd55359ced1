import { data } from "@remix-run/node";

/**
 * How a refusal (a 4xx: the write rule, a missing right, a bad request) reaches whoever asked
 * (issue 28 item 4; docs/decisions/0024):
 *
 * - a script — /api, or any request that does not accept `text/html` (curl, fetch with a
 *   token) — gets JSON `{ error, message }` with the status, from every route;
 * - a browser's page fetch (`.data`) and a browser's document request get the same
 *   `{ error, message }` as route error data, which the page's error boundary shows as the
 *   reason (root.tsx), never "Unexpected Server Error".
 */
export function wantsHtml(request: Request): boolean {
  return /text\/html/i.test(request.headers.get("Accept") ?? "");
}

const isDataRequest = (request: Request) => new URL(request.url).pathname.endsWith(".data");

/** A script's request: not a page fetch, and it does not accept HTML. */
export function isScript(request: Request): boolean {
  return !isDataRequest(request) && !wantsHtml(request);
}

/** The answer to throw for a refusal: JSON for /api and scripts, route error data for a browser. */
export function refusalAnswer(request: Request, status: number, text: string, api = false) {
  if (api || isScript(request)) return Response.json({ error: text, message: text }, { status, headers: { "Cache-Control": "no-store" } });
  return data({ error: text, message: text }, { status });
}

/**
 * A page's error document, for a script: Remix renders a thrown 4xx as the page's error
 * boundary (HTML) even for curl. Called by app/entry.server.tsx before rendering: a request
 * that does not accept HTML gets the error as `{ error, message }` with its status instead.
 * Null when the HTML page is the right answer.
 */
export function scriptErrorAnswer(request: Request, status: number, errors: Record<string, unknown> | null | undefined): Response | null {
  if (status < 400 || status >= 500 || !isScript(request) || !errors) return null;
  for (const error of Object.values(errors)) {
    const body = (error as { data?: unknown } | null)?.data;
    const text = errorText(body) ?? (error as { statusText?: string } | null)?.statusText;
    if (text) return Response.json({ error: text, message: text }, { status, headers: { "Cache-Control": "no-store" } });
  }
  return null;
}

/** The human text of an error body: its `error` or `message`, or a string body. */
export function errorText(body: unknown): string | null {
  if (typeof body === "string" && body.trim()) return body.trim().slice(0, 500);
  if (body && typeof body === "object") {
    const { error, message } = body as { error?: unknown; message?: unknown };
    if (typeof error === "string" && error) return error;
    if (typeof message === "string" && message) return message;
  }
  return null;
}

/**
 * An error answer of a resource route that is not /api (/resources/theme, /summary/gift-rates):
 * Remix sends a resource route's `data()` to a document request as 200 whatever its status,
 * so a script gets a real Response with the status, a page fetch the route error data.
 */
export function resourceError(request: Request, status: number, text: string) {
  if (isDataRequest(request)) return data({ error: text, message: text }, { status });
  return Response.json({ error: text, message: text }, { status, headers: { "Cache-Control": "no-store" } });
}
