import { Badge } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { Hint } from "~/components/ui/hint";
import { useEffect, useState } from "react";
import type { SessionView } from "#api/sessions";
import { useLiveEvent } from "~/components/live/live";

/**
 * "N waiting for a worker" (issue 18 "Scale"): sessions asked for that no worker holds — none
 * runs, all are full (SESSION_CONCURRENCY), or the one holding them died. The shell's loader
 * names them; live session events add and remove them, so the count follows without reloading
 * any page.
 */
export function WaitingBadge({ waiting, text = null }: { waiting: string[]; text?: string | null }) {
  const [keys, setKeys] = useState(() => new Set(waiting));
  useEffect(() => setKeys(new Set(waiting)), [waiting]);
  useLiveEvent(["session"], (event) => {
    const s = event.data as SessionView | undefined;
    if (!s) return;
    const id = `${s.purpose}:${s.key}`;
    // Issue 29: the phase joins the holder's beat (a dead holder's session waits too).
    const isWaiting = s.desired === "run" && (s.phase ? s.phase === "waiting" : s.actual === "waiting") && s.purpose !== "relay-link";
    setKeys((prev) => {
      if (prev.has(id) === isWaiting) return prev;
      const next = new Set(prev);
      if (isWaiting) next.add(id);
      else next.delete(id);
      return next;
    });
  });
  if (!keys.size) return null;
  const hint =
    "Sessions asked for that no job worker holds: none is running, every one is full (SESSION_CONCURRENCY), or the worker holding them stopped. Start a worker (npm run worker) or wait for one to take them.";
  return (
    <Hint content={hint}>
      <Badge asChild color="amber" variant="soft" radius="full" title={hint} data-testid="waiting-sessions">
        {/* Issue 31: the Sessions page, filtered to them. */}
        <Link to="/sessions?state=waiting">
          {keys.size} waiting for a worker{text && text !== "Waiting for a worker" ? `: ${text.replace(/^Waiting for a worker: /, "")}` : ""}
        </Link>
      </Badge>
    </Hint>
  );
}
