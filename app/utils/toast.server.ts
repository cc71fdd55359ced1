import crypto from "node:crypto";
import { getToast, setToastCookieOptions } from "remix-toast";
import { getEnv } from "~/utils/env.server";

/**
 * Flash toasts (CONVENTIONS rule 4): actions answer `redirectWithSuccess(url, message)`
 * or, for fetchers that stay on the page, `jsonWithSuccess(data, message)`; the root
 * loader picks the message up with `getFlashToast` and the <Toaster> shows it.
 *
 * remix-toast 1.x keeps the message in an unsigned cookie, so it is only ever rendered
 * as plain text (never HTML) and never trusted for anything else.
 */
export {
  jsonWithError,
  jsonWithInfo,
  jsonWithSuccess,
  jsonWithWarning,
  redirectWithError,
  redirectWithInfo,
  redirectWithSuccess,
  redirectWithWarning,
} from "remix-toast";

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
