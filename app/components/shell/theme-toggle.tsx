import { MoonIcon, SunIcon } from "~/components/ui/icons";
import { Hint } from "~/components/ui/hint";
import { IconButton } from "@radix-ui/themes";
import { useFetcher, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useHydrated } from "~/components/ui/use-hydrated";

/** Root reads this fetcher's form data to switch the theme before the server answers. */
export const THEME_FETCHER_KEY = "theme-toggle";

/**
 * The dark mode toggle (spec 2, "Main app shell": default dark, remembered). A submit
 * button with role="switch": without JavaScript it posts the form and the action
 * redirects back; with JavaScript a fetcher posts it in place.
 */
export function ThemeToggle() {
  const fetcher = useFetcher({ key: THEME_FETCHER_KEY });
  const root = useRouteLoaderData<{ theme: "dark" | "light" }>("root");
  const location = useLocation();
  const hydrated = useHydrated();
  const pending = fetcher.formData?.get("theme");
  const theme = pending === "light" || pending === "dark" ? pending : (root?.theme ?? "dark");
  const dark = theme === "dark";
  const hint = dark ? "Switch to light mode" : "Switch to dark mode";

  return (
    <fetcher.Form method="post" action="/resources/theme" className="gt-inline-form">
      {/* Only the no-JavaScript post needs to be sent back to this page. */}
      {hydrated ? null : <input type="hidden" name="redirectTo" value={location.pathname + location.search} />}
      <Hint content={hint}>
        <IconButton
          type="submit"
          name="theme"
          value={dark ? "light" : "dark"}
          role="switch"
          aria-checked={dark}
          aria-label="Dark mode"
          title={hint}
          variant="ghost"
          color="gray"
          size="3"
          className="gt-touch"
        >
          {dark ? <MoonIcon width="18" height="18" /> : <SunIcon width="18" height="18" />}
        </IconButton>
      </Hint>
    </fetcher.Form>
  );
}
