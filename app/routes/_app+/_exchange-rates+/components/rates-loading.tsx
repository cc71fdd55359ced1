import { Card, Flex, Skeleton } from "@radix-ui/themes";
import { RATE_LIMITS, RATE_MESSAGES } from "#api/rates";
import { useLoadRetry, type LoadRetryPolicy } from "~/components/ui/load-failure";

/**
 * The rates load's retry policy (spec 1 §4, §9): a failed load is retried up to 2 more
 * times, after 1 s and then 2 s, each announced by 'Failed to load exchange rates.
 * Retrying... (n/3)' for 2 s; after the third failure 'Failed to load exchange rates after
 * multiple attempts. Please refresh the page.' for 5 s.
 */
export const RATES_LOAD_RETRY: LoadRetryPolicy = {
  attempts: RATE_LIMITS.loadAttempts,
  delaysMs: RATE_LIMITS.loadRetryDelaysMs,
  retryingMessage: RATE_MESSAGES.loadRetrying,
  retryToastMs: RATE_LIMITS.retryToastMs,
  gaveUpMessage: RATE_MESSAGES.loadGaveUp,
  gaveUpToastMs: RATE_LIMITS.gaveUpToastMs,
};

export function useRatesLoadRetry(failure: unknown) {
  return useLoadRetry(failure, RATES_LOAD_RETRY);
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
