import { SESSION_TEXTS, type SessionView } from "#api/sessions";
import { accountHolder, AccountHeldError } from "~/models/session.server";
import { safeRedirect } from "./auth.server";

/**
 * "Take over" (issue 18 "One Galaxy account, one holder"; docs/sessions.md): a start refused
 * because another purpose holds the account sends the operator back to the page with
 * `?takeover=<intent, fields>`; the page shows who holds it and offers the same action again
 * with `takeover=1`. The same with and without JavaScript (a fetcher follows the redirect).
 * Only non-secret fields travel in the URL: forms that carry a recovery code offer a
 * "take it over" checkbox instead.
 */
export const TAKEOVER_PARAM = "takeover";

export type TakeoverRequest = { intent: string; fields: Record<string, string>; accountId: string };
export type TakeoverNotice = TakeoverRequest & { message: string; holder: SessionView; cancelTo: string; formAction: string };

/** Where the operator goes when `err` is a refused start: the page with the take-over question. */
export function takeoverLocation(err: unknown, redirectTo: string, request: TakeoverRequest): string | null {
  if (!(err instanceof AccountHeldError)) return null;
  const url = new URL(safeRedirect(redirectTo, "/"), "http://local");
  url.searchParams.set(TAKEOVER_PARAM, Buffer.from(JSON.stringify(request)).toString("base64url"));
  return `${url.pathname}${url.search}`;
}

/** The take-over question a page shows, read from its URL (null when none, or when nobody holds the account any more). */
export async function takeoverNotice(request: Request, allowedIntents: readonly string[]): Promise<TakeoverNotice | null> {
  const url = new URL(request.url);
  const raw = url.searchParams.get(TAKEOVER_PARAM);
  if (!raw) return null;
  let parsed: TakeoverRequest;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as TakeoverRequest;
  } catch {
    return null;
  }
  if (!parsed || typeof parsed.intent !== "string" || !allowedIntents.includes(parsed.intent) || typeof parsed.accountId !== "string") return null;
  const fields = Object.fromEntries(Object.entries(parsed.fields ?? {}).filter(([k, v]) => typeof k === "string" && typeof v === "string")) as Record<
    string,
    string
  >;
  const holder = await accountHolder(parsed.accountId).catch(() => null);
  url.searchParams.delete(TAKEOVER_PARAM);
  const cancelTo = `${url.pathname}${url.search}`;
  if (!holder) return null;
  return {
    intent: parsed.intent,
    accountId: parsed.accountId,
    fields,
    holder,
    message: SESSION_TEXTS.held(fields.accountName ?? parsed.accountId, holder.purpose),
    cancelTo,
    formAction: url.pathname,
  };
}
