import { Badge, Button, Card, Flex, Text } from "@radix-ui/themes";
import { useFetcher } from "@remix-run/react";
import type { LogDto } from "#api/logs";
import { RelativeTime } from "~/components/ui/relative-time";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { LogSourceBadge, LogTypeBadge } from "./log-badges";

/** Details as formatted data: JSON, two-space indented. */
export function formatDetails(details: unknown): string | null {
  if (details === null || details === undefined) return null;
  if (typeof details === "string") return details;
  try {
    return JSON.stringify(details, null, 2);
  } catch {
    return String(details);
  }
}

/**
 * One System Logs entry (spec 2 "Logs page": message, time, type badge, source badge,
 * a Clear button, details as formatted data). Clear goes through a fetcher and hides the
 * entry at once; without JavaScript the same form posts and comes back to `returnTo`.
 */
export function LogEntryCard({ log, action, returnTo, showCleared }: { log: LogDto; action: string; returnTo: string; showCleared: boolean }) {
  const fetcher = useFetcher({ key: `clear-log-${log._id}` });
  const hydrated = useHydrated();
  const canWrite = useCanWrite();
  const clearing = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "clear";
  const cleared = log.cleared || clearing;
  if (clearing && !showCleared) return null;
  const details = formatDetails(log.details);

  return (
    <li className="gt-log-entry" data-log-id={log._id} data-cleared={cleared ? "true" : "false"}>
      <Card size="2">
        <Flex direction="column" gap="2">
          <Flex align="center" gap="2" wrap="wrap">
            <LogTypeBadge type={log.type} />
            <LogSourceBadge source={log.source} />
            {cleared ? (
              <Badge color="gray" variant="surface">
                Cleared
              </Badge>
            ) : null}
            <Text size="1" color="gray" className="gt-log-time">
              <RelativeTime value={log.timestamp} />
            </Text>
            {cleared || !canWrite ? null : (
              <fetcher.Form method="post" action={action} className="gt-inline-form gt-log-clear">
                <input type="hidden" name="intent" value="clear" />
                <input type="hidden" name="id" value={log._id} />
                {hydrated ? null : <input type="hidden" name="redirectTo" value={returnTo} />}
                <Button type="submit" size="1" variant="soft" color="gray" className="gt-touch" aria-describedby={`log-${log._id}-message`}>
                  Clear
                </Button>
              </fetcher.Form>
            )}
          </Flex>
          <Text as="p" size="2" className="gt-log-message" id={`log-${log._id}-message`}>
            {log.message}
          </Text>
          {details ? (
            <pre className="gt-log-details" aria-label="Details">
              {details}
            </pre>
          ) : null}
        </Flex>
      </Card>
    </li>
  );
}
