import { Callout } from "@radix-ui/themes";
import { useLiveDegraded } from "./live";

/**
 * The shell's banner while a dependency of the server is unreachable (the live stream's
 * `degraded` event; issue 29 item 3, docs/live.md "When a dependency is down"). It names what
 * is down in the words of api/dependencies.ts, says what still works, and goes away by itself
 * when the server says it is back. Without JavaScript the page as rendered says it (the header
 * badge for Redis; the error page for the database).
 */
export function DegradedBanner() {
  const { down, messages } = useLiveDegraded();
  if (!down.length) return null;
  const onlyRedis = down.length === 1 && down[0] === "redis";
  return (
    <Callout.Root color={onlyRedis ? "amber" : "red"} highContrast role="status" size="1" className="gt-degraded-banner" data-down={down.join(" ")}>
      <Callout.Text>
        {messages.join(". ")}.{" "}
        {onlyRedis
          ? "Pages work; starting, stopping and live updates wait until it is back."
          : "This page shows what it last loaded; changes wait until it is back."}
      </Callout.Text>
    </Callout.Root>
  );
}
