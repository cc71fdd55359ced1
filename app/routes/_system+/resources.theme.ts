import { data, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { safeRedirect } from "~/utils/auth.server";
import { isTheme, setThemeCookie } from "~/utils/theme.server";
import { readFormData } from "~/utils/forms.server";
import { keepInputOnFailure } from "~/components/ui/submit-failure";

/**
 * The dark mode toggle's action: remembers the chosen theme in the `gt_theme` cookie.
 * A plain form post (no JavaScript) carries `redirectTo` and goes back to its page;
 * the fetcher gets `{ theme }` and the root loader revalidates with the new cookie.
 */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const theme = form.get("theme");
  if (!isTheme(theme)) return data({ error: "Theme must be dark or light" }, { status: 400 });
  const headers = { "Set-Cookie": setThemeCookie(theme) };
  const redirectTo = form.get("redirectTo");
  if (redirectTo) return redirect(safeRedirect(redirectTo, "/"), { headers });
  return data({ theme }, { headers });
}

/** The toggle is in every page's header: a post that cannot reach the app is a toast, not the error page (the form kit). */
export const clientAction = keepInputOnFailure();

export function loader() {
  // Nothing to show here; someone who opens the URL lands on the app.
  return redirect("/");
}
