import crypto from "node:crypto";
import { data } from "@remix-run/node";
import { getToast, setToastCookieOptions } from "remix-toast";
import { getEnv } from "~/utils/env.server";

/**
 * Toasts from actions (CONVENTIONS rule 4), two ways:
 *
 * - **A redirect** (`redirectWithSuccess(url, message)`: every no-JavaScript post): the message
 *   rides a flash cookie; the root loader of the next page picks it up with `getFlashToast`
 *   and the <Toaster> shows it. remix-toast 1.x keeps it in an unsigned cookie, so it is only
 *   ever rendered as plain text (never HTML) and never trusted for anything else.
 * - **A fetcher answer that stays on the page** (`jsonWithSuccess(data, message)`): the message
 *   rides the answer itself, as `toast: { id, type, message }`, and <ActionToasts> in the root
 *   shows it in the tab that acted. Not a cookie: the cookie belongs to every tab of the
 *   browser, and another tab's live refresh (a session page revalidating on each event) would
 *   take the flash — and show it there — before the acting tab's own revalidation came for it.
 */
export { redirectWithError, redirectWithInfo, redirectWithSuccess, redirectWithWarning } from "remix-toast";

/** A toast carried in a fetcher's answer; the id lets the acting tab show it exactly once. */
export type ActionToast = { id: string; type: FlashToast["type"]; message: string; description?: string };
type ToastText = string | { message: string; description?: string };

function jsonWith(type: ActionToast["type"]) {
  return <T extends Record<string, unknown>>(body: T, text: ToastText, init?: ResponseInit) => {
    const { message, description } = typeof text === "string" ? { message: text, description: undefined } : text;
    const toast: ActionToast = { id: crypto.randomUUID(), type, message, ...(description ? { description } : {}) };
    return data({ ...body, toast }, init);
  };
}

export const jsonWithSuccess = jsonWith("success");
export const jsonWithError = jsonWith("error");
export const jsonWithInfo = jsonWith("info");
export const jsonWithWarning = jsonWith("warning");

// Runs when the server build loads (the root route imports this module), so every
// remix-toast helper, imported from here or from the package, sets a Secure cookie on https.
if (getEnv().SECURE_COOKIES) setToastCookieOptions({ secure: true });

export type FlashToast = {
  id: string;
  type: "success" | "error" | "info" | "warning";
  message: string;
  description?: string;
  duration?: number;
};

/**
 * The pending flash toast of this request, if any, with the headers that consume it.
 * The id lets the client show each flash exactly once across revalidations.
 */
export async function getFlashToast(request: Request): Promise<{ toast: FlashToast | undefined; headers: Headers | undefined }> {
  const cookie = request.headers.get("Cookie") ?? "";
  if (!/(^|;\s*)toast-session=/.test(cookie)) return { toast: undefined, headers: undefined };
  const { toast, headers } = await getToast(request);
  // Nothing to take: no Set-Cookie. This request may have left before an action's answer set a
  // flash (a live revalidation, another tab); "clearing" the empty cookie on the way back would
  // wipe that flash before the action's own revalidation reads it: its toast would never show.
  if (!toast) return { toast: undefined, headers: undefined };
  return { toast: { id: crypto.randomUUID(), ...toast }, headers };
}
