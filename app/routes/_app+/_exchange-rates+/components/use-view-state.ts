import { useSearchParams } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { parseView, viewToParams, type RatesView } from "./rates-view";

/** Typing in a search box writes the URL after this pause, not on every key. */
const URL_WRITE_DELAY_MS = 250;

/**
 * The panel's view state (filters, expanded rows, open dialog), kept in the URL
 * (CONVENTIONS rule 6) so Back, refresh and shared links restore it.
 *
 * The screen follows local state at once; the URL follows it (replace, no scroll reset).
 * The route's `shouldRevalidate` skips its loader for these params, so typing never
 * refetches the rates. Changes made to the URL from outside (Back, a link) are adopted.
 */
export function useViewState() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [view, setView] = useState<RatesView>(() => parseView(searchParams));
  const written = useRef(searchParams.toString());
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const latest = useRef(view);
  latest.current = view;

  const current = searchParams.toString();
  useEffect(() => {
    if (current === written.current) return;
    written.current = current;
    setView(parseView(new URLSearchParams(current)));
  }, [current]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const write = useCallback(
    (next: RatesView) => {
      const params = viewToParams(next, new URLSearchParams(window.location.search));
      written.current = params.toString();
      setSearchParams(params, { replace: true, preventScrollReset: true });
    },
    [setSearchParams],
  );

  /** Applies a change now; `debounce` delays the URL write (search boxes). */
  const update = useCallback(
    (change: Partial<RatesView> | ((view: RatesView) => RatesView), options: { debounce?: boolean } = {}) => {
      const next = typeof change === "function" ? change(latest.current) : { ...latest.current, ...change };
      latest.current = next;
      setView(next);
      clearTimeout(timer.current);
      if (options.debounce) timer.current = setTimeout(() => write(latest.current), URL_WRITE_DELAY_MS);
      else write(next);
    },
    [write],
  );

  return { view, update, searchParams };
}
