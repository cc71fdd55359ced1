import { Badge } from "@radix-ui/themes";
import { Link } from "@remix-run/react";
import { Hint } from "~/components/ui/hint";

export type JobsState = { redis: "up" | "down"; worker: "running" | "stopped" | "unknown"; workers?: number; lost?: number };

/**
 * The job engine at a glance. Background work (refreshes, stalker, relay bot, collection
 * cycles) runs on Redis-backed queues; when Redis is away the operator should know why
 * nothing moves before pressing buttons. It links to the Sessions page (issue 31: every session
 * and the Workers panel).
 */
export function JobsBadge({ jobs }: { jobs: JobsState }) {
  const { label, color, hint } =
    jobs.redis === "down"
      ? {
          label: "Jobs offline",
          color: "red" as const,
          hint: "Redis is not reachable, so background jobs cannot be queued or run. They resume once Redis answers again.",
        }
      : jobs.worker === "running"
        ? {
            // Issue 29: the live workers counted truthfully (their beats), and one lost lately said.
            label: `Jobs online${jobs.workers && jobs.workers > 1 ? ` · ${jobs.workers} workers` : ""}${jobs.lost ? ` · ${jobs.lost} lost` : ""}`,
            color: jobs.lost ? ("amber" as const) : ("green" as const),
            hint: `Redis is reachable and ${jobs.workers ?? 1} job worker${(jobs.workers ?? 1) === 1 ? " is" : "s are"} running${jobs.lost ? `; ${jobs.lost} stopped beating in the last 10 minutes (see /api/health)` : ""}.`,
          }
        : {
            label: jobs.lost ? "Worker lost" : "Worker stopped",
            color: "amber" as const,
            hint: "Redis is reachable, but no job worker is running: jobs are queued and wait for a worker (npm run worker).",
          };
  // High contrast: "Jobs online" in the light theme's soft green was 4.28:1 (issue 30 B2).
  return (
    <Hint content={hint}>
      <Badge asChild color={color} variant="soft" highContrast radius="full" title={hint} className="gt-jobs-badge" data-state={jobs.redis}>
        <Link to="/sessions">
          <span className="gt-dot" aria-hidden />
          <span className="gt-jobs-label">{label}</span>
        </Link>
      </Badge>
    </Hint>
  );
}
