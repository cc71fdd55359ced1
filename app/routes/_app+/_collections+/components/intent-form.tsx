/**
 * The two pieces of the Collections screen that the floating panel also uses. Kept apart from
 * collections-screen.tsx so the shell (which renders the panel on every section) does not
 * load the screen and its zod schemas (bench/first-load.ts).
 */
import { useFetcher, useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { HiddenFields, NoJsRedirect } from "~/components/ui/no-js";

export const COLLECTIONS_ACTION = "/collections";
const ACTION = COLLECTIONS_ACTION;

/** A form posting one intent to the Collections action: a fetcher with JS, a plain POST + redirect without. */
export function IntentForm({
  intent,
  fields = {},
  children,
  className,
  label,
}: {
  intent?: string;
  fields?: Record<string, string>;
  children: ReactNode | ((busy: boolean) => ReactNode);
  className?: string;
  label?: string;
}) {
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={ACTION} className={className} aria-label={label}>
      <HiddenFields fields={intent ? { intent, ...fields } : fields} />
      <NoJsRedirect />
      {typeof children === "function" ? children(busy) : children}
    </fetcher.Form>
  );
}

/**
 * Re-reads the page's data every `everyMs` while `active`: for the live connection's state,
 * which is not published on the live-events bus yet (Auto cycles and the Activity Log are:
 * `useLive`). Never while a form is being sent or a page loads: a revalidation racing an
 * action could swallow the action's flash toast.
 */
export function useBackgroundRefresh(active: boolean, everyMs = 2_000) {
  const revalidator = useRevalidator();
  const fetchers = useFetchers();
  const navigation = useNavigation();
  const busy = useRef(false);
  busy.current = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (!busy.current && revalidator.state === "idle" && document.visibilityState === "visible") revalidator.revalidate();
    }, everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, revalidator]);
}
