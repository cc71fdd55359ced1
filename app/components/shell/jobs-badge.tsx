import { Badge } from "@radix-ui/themes";
import { Hint } from "~/components/ui/hint";

export type JobsState = { redis: "up" | "down"; worker: "running" | "stopped" | "unknown" };

/**
 * The job engine at a glance. Background work (refreshes, stalker, relay bot, collection
 * cycles) runs on Redis-backed queues; when Redis is away the operator should know why
 * nothing moves before pressing buttons.
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
        ? { label: "Jobs online", color: "green" as const, hint: "Redis is reachable and a job worker is running." }
        : {
            label: "Worker stopped",
            color: "amber" as const,
            hint: "Redis is reachable, but no job worker is running: jobs are queued and wait for a worker (npm run worker).",
          };
  return (
    <Hint content={hint}>
      <Badge color={color} variant="soft" radius="full" title={hint} tabIndex={0} className="gt-jobs-badge" data-state={jobs.redis}>
        <span className="gt-dot" aria-hidden />
        <span className="gt-jobs-label">{label}</span>
      </Badge>
    </Hint>
  );
}
