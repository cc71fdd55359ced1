import { data } from "@remix-run/node";
import { safeRedirect } from "./auth.server";
import { redirectWithError } from "../utils/toast.server";

/**
 * How a refusal (a 4xx: the write rule, a missing right, a bad request) reaches whoever asked
 * (issue 28 item 4; docs/decisions/0024):
 *
 * - a script — /api, or any request that does not accept `text/html` (curl, fetch with a
 *   token) — gets JSON `{ error, message }` with the status, from every route;
 * - a browser's no-JavaScript form (a document request that accepts HTML) goes back to the
 *   page it came from with the reason as an error toast (the gate answers its own refusals
 *   with a page that says the reason);
 * - a browser's page fetch (`.data`) gets `{ error, message }` as route error data, which
 *   the error boundary shows as the reason (root.tsx), never "Unexpected Server Error".
 */
export function wantsHtml(request: Request): boolean {
  return /text\/html/i.test(request.headers.get("Accept") ?? "");
}

const isDataRequest = (request: Request) => new URL(request.url).pathname.endsWith(".data");

/** A script's request: not a page fetch, and it does not accept HTML. */
export function isScript(request: Request): boolean {
  return !isDataRequest(request) && !wantsHtml(request);
}

/** The answer to throw for a refusal: JSON for /api and scripts, a redirect with a toast for a no-JS form, route error data for a page fetch. */
export async function refusalAnswer(request: Request, status: number, text: string, kind: "api" | "resource" | "page" = "page") {
  const json = () => Response.json({ error: text, message: text }, { status, headers: { "Cache-Control": "no-store" } });
  if (kind === "api" || isScript(request)) return json();
  if (!isDataRequest(request)) return redirectWithError(backTo(request), text);
  // A resource route's thrown data() reaches the client as "Unexpected Server Error": a Response there.
  return kind === "resource" ? json() : data({ error: text, message: text }, { status });
}

/** The same-origin page a form was posted from (Referer), else the page posted to. */
function backTo(request: Request): string {
  const url = new URL(request.url);
  const referer = request.headers.get("Referer");
  if (referer) {
    try {
      const from = new URL(referer);
      if (from.origin === url.origin) return safeRedirect(from.pathname + from.search, url.pathname);
    } catch {
      // not a URL: the page posted to
    }
  }
  return safeRedirect(url.pathname, "/");
}

/**
 * A page's error document, for a script: Remix renders a thrown 4xx as the page's error
 * boundary (HTML) even for curl. Called by app/entry.server.tsx before rendering: a request
 * that does not accept HTML gets the error as `{ error, message }` with its status instead.
 * Null when the HTML page is the right answer.
 */
export function scriptErrorAnswer(
  request: Request,
  status: number,
  context: { errors?: Record<string, unknown> | null; actionData?: Record<string, unknown> | null },
): Response | null {
  if (status < 400 || status >= 500 || !isScript(request)) return null;
  // A thrown refusal (route error data), else an action's answer with a 4xx ({ ok: false, message } of pageAction).
  const candidates = [
    ...Object.values(context.errors ?? {}).map((e) => (e as { data?: unknown } | null)?.data ?? (e as { statusText?: string } | null)?.statusText),
    ...Object.values(context.actionData ?? {}),
  ];
  for (const body of candidates) {
    const text = errorText(body);
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
