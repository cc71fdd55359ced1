import { Badge, Spinner } from "@radix-ui/themes";
import { useEffect, useState } from "react";
import type { SessionPhase, SessionView } from "#api/sessions";

/** "in 12 s", "in 3 min", "now": until `at`, ticking every second after hydration. */
export function Countdown({ at }: { at: string }) {
  const target = new Date(at).getTime();
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.round((target - (now ?? Date.now())) / 1000));
  const text = left === 0 ? "now" : left < 60 ? `in ${left} s` : `in ${Math.round(left / 60)} min`;
  return (
    <time dateTime={at} title={new Date(at).toISOString()} suppressHydrationWarning>
      {text}
    </time>
  );
}

const COLORS: Record<SessionPhase, "amber" | "blue" | "green" | "gray" | "red"> = {
  waiting: "amber",
  connecting: "blue",
  active: "green",
  retrying: "amber",
  stopped: "gray",
  failed: "red",
};

/**
 * ONE state per badge (issue 29, decision 0027): the session's phase — waiting for a worker
 * (and why: worker lost, all workers full, none running), connecting (the only one with a
 * spinner), active, retrying (with the next try's countdown), stopped, failed. Each screen
 * passes its spec's own words for the phases its spec names ("Connected", "Running",
 * "Stalker Active"…); the others say the truth in the same words everywhere (`session.status`).
 */
export function SessionPhaseBadge({
  session,
  words = {},
  pending,
}: {
  session: Pick<SessionView, "phase" | "status" | "nextRetryAt">;
  /** The spec's words for some phases. */
  words?: Partial<Record<SessionPhase, string>>;
  /** A press under way (Start, Connect): shown as connecting until the server answers. */
  pending?: boolean;
}) {
  const phase: SessionPhase = pending ? "connecting" : session.phase;
  let label: React.ReactNode = words[phase] ?? (phase === "waiting" ? session.status : DEFAULT_WORDS[phase]);
  if (phase === "retrying") {
    label = session.nextRetryAt ? (
      <>
        {words.retrying ?? "Retrying"} <Countdown at={session.nextRetryAt} />
      </>
    ) : (
      (words.retrying ?? "Retrying")
    );
  }
  return (
    <Badge color={COLORS[phase]} variant="soft" data-testid="session-phase" data-phase={phase} className="gt-session-phase">
      {phase === "connecting" ? <Spinner size="1" /> : null}
      {label}
    </Badge>
  );
}

const DEFAULT_WORDS: Record<SessionPhase, string> = {
  waiting: "Waiting for a worker",
  connecting: "Connecting",
  active: "Active",
  retrying: "Retrying",
  stopped: "Stopped",
  failed: "Failed",
};
