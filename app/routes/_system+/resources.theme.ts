import { data, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/http/auth.server";
import { isTheme, setThemeCookie } from "~/utils/theme.server";
import { readFormData } from "~/utils/forms.server";
import { keepInputOnFailure } from "~/components/ui/submit-failure";
import { isScript, resourceError } from "~/http/refusal.server";
import { redirectWithError } from "~/utils/toast.server";

const THEME_REFUSAL = "Theme must be dark or light";

/**
 * The dark mode toggle's action: remembers the chosen theme in the `gt_theme` cookie.
 * A plain form post (no JavaScript) carries `redirectTo` and goes back to its page;
 * the fetcher gets `{ theme }` and the root loader revalidates with the new cookie.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const theme = form.get("theme");
  const redirectTo = form.get("redirectTo");
  if (!isTheme(theme)) {
    // A no-JS form goes back with the reason as a toast; a script or a fetcher gets a 400 (never a 200).
    if (redirectTo && !isScript(request)) return redirectWithError(safeRedirect(redirectTo, "/"), THEME_REFUSAL);
    return resourceError(request, 400, THEME_REFUSAL);
  }
  const headers = { "Set-Cookie": setThemeCookie(theme) };
  if (redirectTo) return redirect(safeRedirect(redirectTo, "/"), { headers });
  return data({ theme }, { headers });
}

/** The toggle is in every page's header: a post that cannot reach the app is a toast, not the error page (the form kit). */
export const clientAction = keepInputOnFailure();

export function loader() {
  // Nothing to show here; someone who opens the URL lands on the app.
  return redirect("/");
}
