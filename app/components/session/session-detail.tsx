import { Text } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { type ReactNode } from "react";
import { sessionLogsUrl, type SessionView } from "#api/sessions";
import { RelativeTime } from "~/components/ui/relative-time";
import { Countdown } from "./session-phase";

/**
 * The truth of one background session under its spec state (issue 18, docs/sessions.md): why it
 * is not up (the platform's words), the attempt and when the next try is, that it waits for a
 * worker (or its worker died), who took it over, and a link to its System Logs entries when it
 * failed or reconnects. Renders nothing for a session that is simply up or simply stopped.
 *
 * The main words (the error, the note) carry the role (`announce`) on their own, apart from the
 * time and the link beside them: where a screen already has its state as its one status (the
 * stalker card), pass `announce="none"`.
 */
export function SessionDetail({
  session,
  size = "1",
  announce = "status",
}: {
  session: SessionView;
  size?: "1" | "2";
  /** The ARIA role of the main words; "none" where the screen already has its one status. */
  announce?: "status" | "alert" | "none";
}) {
  const s = session;
  const r = announce === "none" ? undefined : announce;
  const logs = (
    <Link to={sessionLogsUrl(s)} className="gt-session-logs">
      System Logs
    </Link>
  );
  const line = (actual: string, color: "red" | "amber" | "gray", main: ReactNode, meta: ReactNode) => (
    <Text as="p" size={size} color={color} data-testid="session-detail" data-actual={actual} data-phase={s.phase} className="gt-session-detail">
      <span role={r}>{main}</span>
      {meta ? <span className="gt-session-meta"> · {meta}</span> : null}
    </Text>
  );
  if (s.actual === "failed") {
    return line(
      s.actual,
      "red",
      s.error ?? "Stopped after an error",
      <>
        <RelativeTime value={s.since} /> · {logs}
      </>,
    );
  }
  // Issue 29: the phase joins the holder's beat; a dead holder's session waits ("Worker lost ·
  // waiting for a worker"), whatever its row last said, and never claims another worker takes it.
  if (s.phase === "waiting") {
    return line(
      s.actual === "waiting" ? "waiting" : "holder-gone",
      "amber",
      s.status,
      <>
        since <RelativeTime value={s.since} />
      </>,
    );
  }
  if (s.phase === "connecting" && s.info.movedFrom) return line("moving", "amber", s.status, null);
  if ((s.phase === "retrying" || s.phase === "connecting") && s.actual === "reconnecting") {
    return line(
      s.actual,
      "amber",
      s.error ?? "Reconnecting",
      <>
        {s.attempt ? `attempt ${s.attempt}` : "retrying"}
        {s.phase === "retrying" && s.nextRetryAt ? (
          <>
            {" · next try "}
            <Countdown at={s.nextRetryAt} />
          </>
        ) : (
          " · trying now"
        )}{" "}
        · {logs}
      </>,
    );
  }
  if (s.actual === "stopped" && s.note) return line(s.actual, "gray", s.note, <RelativeTime value={s.since} />);
  // Up, with a passing trouble worth knowing (a planet that refused the join, prison).
  if (s.phase === "active" && s.error) return line(s.actual, "amber", s.error, null);
  return null;
}
