import { Text } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { SESSION_TEXTS, sessionLogsUrl, type SessionView } from "#api/sessions";
import { RelativeTime } from "~/components/ui/relative-time";

/** "in 12 s", "in 3 min", "now": until `at`, ticking every second after hydration. */
function Countdown({ at }: { at: string }) {
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

/**
 * The truth of one background session under its spec state (issue 18, docs/sessions.md): why it
 * is not up (the platform's words), the attempt and when the next try is, that it waits for a
 * worker (or its worker died), who took it over, and a link to its System Logs entries when it
 * failed. Renders nothing for a session that is simply up or simply stopped.
 */
export function SessionDetail({ session, size = "1" }: { session: SessionView; size?: "1" | "2" }) {
  const s = session;
  const logs = (
    <Link to={sessionLogsUrl(s)} className="gt-session-logs">
      System Logs
    </Link>
  );
  if (s.actual === "failed") {
    return (
      <Text as="p" size={size} color="red" role="status" data-testid="session-detail" data-actual={s.actual}>
        {s.error ?? "Stopped after an error"} · <RelativeTime value={s.since} /> · {logs}
      </Text>
    );
  }
  if (s.desired === "run" && s.holder && s.holderAlive === false) {
    return (
      <Text as="p" size={size} color="amber" role="status" data-testid="session-detail" data-actual="holder-gone">
        {SESSION_TEXTS.holderGone}
      </Text>
    );
  }
  if (s.actual === "waiting" && s.desired === "run") {
    return (
      <Text as="p" size={size} color="amber" role="status" data-testid="session-detail" data-actual={s.actual}>
        {SESSION_TEXTS.waiting} (since <RelativeTime value={s.since} />)
      </Text>
    );
  }
  if (s.actual === "reconnecting" && s.desired === "run") {
    return (
      <Text as="p" size={size} color="amber" role="status" data-testid="session-detail" data-actual={s.actual}>
        {s.error ? `${s.error} · ` : ""}
        {s.attempt ? `attempt ${s.attempt}` : "retrying"}
        {s.nextRetryAt ? (
          <>
            {" · next try "}
            <Countdown at={s.nextRetryAt} />
          </>
        ) : (
          " · trying now"
        )}{" "}
        · {logs}
      </Text>
    );
  }
  if (s.actual === "stopped" && s.note) {
    return (
      <Text as="p" size={size} color="gray" role="status" data-testid="session-detail" data-actual={s.actual}>
        {s.note} · <RelativeTime value={s.since} />
      </Text>
    );
  }
  if (s.actual === "active" && s.error) {
    // Up, with a passing trouble worth knowing (a planet that refused the join, prison).
    return (
      <Text as="p" size={size} color="amber" role="status" data-testid="session-detail" data-actual={s.actual}>
        {s.error}
      </Text>
    );
  }
  return null;
}
