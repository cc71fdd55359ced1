import { useRevalidator, type FetcherWithComponents } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { isSubmitFailure } from "~/components/ui/submit-failure";

/** What an action answers a fetcher: at least whether it worked, usually the toast text. */
export type FetcherOutcome = { ok: boolean; message?: string };

/**
 * Calls back once per finished fetcher submission. A failure also revalidates the page's
 * loaders (Remix skips revalidation after an error status on its own): the screen shows the
 * server's truth again and an optimistic change falls away. The answer's toast needs neither:
 * the route's clientAction shows it as the answer arrives (`showAnswerToast`).
 */
export function useFetcherOutcome<T extends FetcherOutcome = FetcherOutcome>(
  fetcher: FetcherWithComponents<unknown>,
  handlers: { onSuccess?: (data: T) => void; onFailure?: (data: T) => void } = {},
) {
  const revalidator = useRevalidator();
  const handled = useRef<unknown>(fetcher.data);
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === handled.current) return;
    handled.current = fetcher.data;
    const data = fetcher.data as T;
    if (data.ok) latest.current.onSuccess?.(data);
    else {
      latest.current.onFailure?.(data);
      if (revalidator.state === "idle" && !isSubmitFailure(data)) revalidator.revalidate();
    }
  }, [fetcher.state, fetcher.data, revalidator]);
}
