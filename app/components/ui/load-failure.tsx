import { ReloadIcon } from "~/components/ui/icons";
import { Button, Card } from "@radix-ui/themes";
import { useLocation, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { EmptyState } from "~/components/ui/empty-state";
import { toast } from "~/components/ui/toast";

/**
 * A screen whose data failed to load: automatic retries announced by toasts, then the
 * "failed" empty state with Retry (CONVENTIONS, "UI habits": three distinct empty states).
 */
export type LoadRetryPolicy = {
  /** Attempts in all, the first load included. */
  attempts: number;
  /** Wait before retry n (1-based: `delaysMs[0]` before the 2nd attempt). */
  delaysMs: readonly number[];
  retryingMessage: (failedAttempt: number) => string;
  retryToastMs: number;
  gaveUpMessage: string;
  gaveUpToastMs: number;
};

/**
 * Runs the policy. `failure` is a value that changes with every failed load (the loader's
 * answer, or the route error) and is null after a good one. Retries revalidate the page's
 * loaders. Returns whether retries are still under way, and a manual retry that starts over.
 */
export function useLoadRetry(failure: unknown, policy: LoadRetryPolicy) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const failures = useRef(0);
  /** The scheduled retry, while one waits out its delay. */
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [retrying, setRetrying] = useState(failure != null);
  const latest = useRef(policy);
  latest.current = policy;

  const cancel = () => {
    if (pending.current) clearTimeout(pending.current);
    pending.current = null;
  };
  useEffect(() => cancel, []);

  useEffect(() => {
    const p = latest.current;
    if (failure == null) {
      failures.current = 0;
      cancel();
      setRetrying(false);
      return;
    }
    // A load that failed while a retry waits out its delay is one nobody here scheduled (the
    // live stream's catch-up, a revalidation after a post): the retry already owed still runs
    // on its own time, and this failure is not an attempt of its own. Counting it announced
    // "(2/3)" early and gave up before the 1 s + 2 s the spec gives the load.
    if (pending.current) return;
    failures.current += 1;
    const n = failures.current;
    if (n >= p.attempts) {
      setRetrying(false);
      toast.error(p.gaveUpMessage, { duration: p.gaveUpToastMs });
      return;
    }
    setRetrying(true);
    toast.error(p.retryingMessage(n), { duration: p.retryToastMs });
    pending.current = setTimeout(
      () => {
        pending.current = null;
        void revalidate.current();
      },
      p.delaysMs[n - 1] ?? p.delaysMs[p.delaysMs.length - 1] ?? 0,
    );
  }, [failure]);

  const retry = useCallback(() => {
    cancel();
    failures.current = 0;
    setRetrying(true);
    void revalidate.current();
  }, []);

  return { retrying: retrying || revalidator.state === "loading", retry };
}

/**
 * The failed state: `title` (the spec's words), the reason, and Retry. Without JavaScript
 * (no `onRetry`) Retry reloads the page, a GET to the same address.
 */
export function LoadFailurePanel({
  title,
  message,
  onRetry,
  retryLabel = "Retry",
}: {
  title: string;
  message: string;
  onRetry?: () => void;
  retryLabel?: string;
}) {
  const location = useLocation();
  return (
    <Card>
      <EmptyState
        tone="error"
        title={title}
        description={message}
        action={
          <form method="get" action={location.pathname} className="gt-inline-form">
            {[...new URLSearchParams(location.search).entries()].map(([name, value], i) => (
              <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
            ))}
            <Button
              type="submit"
              onClick={(event) => {
                if (!onRetry) return;
                event.preventDefault();
                onRetry();
              }}
            >
              <ReloadIcon /> {retryLabel}
            </Button>
          </form>
        }
      />
    </Card>
  );
}
