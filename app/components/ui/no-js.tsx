import { useLocation } from "@remix-run/react";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * Pieces that keep a fetcher form working without JavaScript (CONVENTIONS rule 5).
 *
 * <NoJsRedirect> is the post-redirect target of a plain form post. It exists only until
 * hydration: with JavaScript the same form goes through a fetcher and the action answers
 * data instead of a redirect. `to` defaults to the current page (path and search).
 * The action reads it as `redirectTo` (always through `safeRedirect`).
 */
export function NoJsRedirect({ to }: { to?: string }) {
  const hydrated = useHydrated();
  const location = useLocation();
  if (hydrated) return null;
  return <input type="hidden" name="redirectTo" value={to ?? `${location.pathname}${location.search}`} />;
}

/** Hidden inputs for fixed fields a form posts (`intent`, ids). */
export function HiddenFields({ fields }: { fields: Record<string, string> }) {
  return (
    <>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/**
 * Without JavaScript a page that follows a job reloads itself every `seconds` (a refresh
 * meta inside <noscript>: with JavaScript the page follows live events instead).
 */
export function NoJsReload({ seconds }: { seconds: number }) {
  return <noscript dangerouslySetInnerHTML={{ __html: `<meta http-equiv="refresh" content="${Math.max(1, Math.round(seconds))}">` }} />;
}
