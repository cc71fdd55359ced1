import { ReloadIcon } from "~/components/ui/icons";
import { Button, Card, Flex, Skeleton } from "@radix-ui/themes";
import { useLocation, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { RATE_LIMITS, RATE_MESSAGES } from "#api/rates";
import { EmptyState } from "~/components/ui/empty-state";
import { toast } from "~/components/ui/toast";

/**
 * The rates load's retry policy (spec 1 §4, §9): a failed load is retried up to 2 more
 * times, after 1 s and then 2 s, each announced by 'Failed to load exchange rates.
 * Retrying... (n/3)' for 2 s; after the third failure 'Failed to load exchange rates after
 * multiple attempts. Please refresh the page.' for 5 s.
 *
 * `failure` is a value that changes with every failed load (the loader's answer, or the
 * route error) and is null after a good one. Retries revalidate the page's loaders.
 * Returns whether retries are still under way, and a manual retry that starts over.
 */
export function useLoadRetry(failure: unknown) {
  const revalidator = useRevalidator();
  const failures = useRef(0);
  const [retrying, setRetrying] = useState(failure != null);

  useEffect(() => {
    if (failure == null) {
      failures.current = 0;
      setRetrying(false);
      return;
    }
    failures.current += 1;
    const n = failures.current;
    if (n >= RATE_LIMITS.loadAttempts) {
      setRetrying(false);
      toast.error(RATE_MESSAGES.loadGaveUp, { duration: RATE_LIMITS.gaveUpToastMs });
      return;
    }
    setRetrying(true);
    toast.error(RATE_MESSAGES.loadRetrying(n), { duration: RATE_LIMITS.retryToastMs });
    const timer = setTimeout(() => revalidator.revalidate(), RATE_LIMITS.loadRetryDelaysMs[n - 1]);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one run per load result; the revalidator's identity changes on every state change.
  }, [failure]);

  const retry = useCallback(() => {
    failures.current = 0;
    setRetrying(true);
    revalidator.revalidate();
  }, [revalidator]);

  return { retrying: retrying || revalidator.state === "loading", retry };
}

/** 'Failed to load exchange rates' with the message and Retry (spec 1 §2). */
export function LoadFailurePanel({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const location = useLocation();
  return (
    <Card>
      <EmptyState
        tone="error"
        title={RATE_MESSAGES.loadFailed}
        description={message}
        action={
          // Without JavaScript, Retry reloads the page (a GET to the same address).
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
              <ReloadIcon /> Retry
            </Button>
          </form>
        }
      />
    </Card>
  );
}

/** The panel's loading state: a few group-shaped placeholders. */
export function RatesSkeleton() {
  return (
    <Flex direction="column" gap="3" aria-busy="true" aria-label="Loading exchange rates" role="status">
      {[3, 2, 2].map((rows, g) => (
        <Card key={g}>
          <Flex align="center" gap="3" mb="3">
            <Skeleton width="36px" height="36px" />
            <Skeleton width="160px" height="20px" />
            <Skeleton width="70px" height="20px" ml="auto" />
          </Flex>
          <Flex direction="column" gap="2">
            {Array.from({ length: rows }, (_, r) => (
              <Flex key={r} align="center" gap="3">
                <Skeleton width="32px" height="32px" />
                <Skeleton width="45%" height="16px" />
                <Skeleton width="60px" height="16px" ml="auto" />
              </Flex>
            ))}
          </Flex>
        </Card>
      ))}
    </Flex>
  );
}
