/**
 * The /api contract of the job engine. Client-safe: no server imports.
 *
 *   GET  /api/health      → 200 { status: "ok" | "degraded", database: { ok, kind, state, error? },
 *                                 redis: { ok, state, error? }, worker: { state, lastHeartbeat }, down: [] }
 *                           503 (same body, status "degraded", with error/message) only when the database
 *                           is down; while the gate itself cannot reach it: 503 { error, message, dependency }.
 *   POST /api/jobs/probe  { ms?: 0..60000 (default 1000), key?: idempotency key }
 *                         → 202 { jobId, queue: "system", name: "probe", ms, state }
 *                           400 { error } bad input · 503 { error: "Job engine offline: Redis is not reachable" }
 *
 * The probe sleeps `ms`, then writes "Probe job <jobId> completed" (debug, source system)
 * to System Logs. The same `key` within the job's retention gives the same job (idempotent).
 */
import { z } from "zod";
import { DEPENDENCY_DOWN, type Dependency, type DependencyState } from "./dependencies";

export const PROBE_LIMITS = { minMs: 0, maxMs: 60_000, defaultMs: 1_000, keyMax: 64 } as const;

export const JOB_ERRORS = {
  offline: DEPENDENCY_DOWN.redis,
  // readJson() prefixes the field: "ms: must be …".
  badMs: `must be a whole number of milliseconds from ${PROBE_LIMITS.minMs} to ${PROBE_LIMITS.maxMs}`,
  badKey: `must be 1-${PROBE_LIMITS.keyMax} letters, digits, '-' or '_'`,
  badBody: "Body must be a JSON object",
} as const;

export const probeRequestSchema = z
  .object(
    {
      ms: z
        .number({ error: JOB_ERRORS.badMs })
        .int({ error: JOB_ERRORS.badMs })
        .min(PROBE_LIMITS.minMs, { error: JOB_ERRORS.badMs })
        .max(PROBE_LIMITS.maxMs, { error: JOB_ERRORS.badMs })
        .default(PROBE_LIMITS.defaultMs),
      key: z
        .string({ error: JOB_ERRORS.badKey })
        .regex(new RegExp(`^[A-Za-z0-9_-]{1,${PROBE_LIMITS.keyMax}}$`), { error: JOB_ERRORS.badKey })
        .optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys" ? `Unknown field${issue.keys.length > 1 ? "s" : ""}: ${issue.keys.join(", ")}` : JOB_ERRORS.badBody,
    },
  )
  .strict()
  .optional()
  .transform((body) => body ?? { ms: PROBE_LIMITS.defaultMs, key: undefined });
export type ProbeRequest = z.output<typeof probeRequestSchema>;

export type ProbeResponse = { jobId: string; queue: "system"; name: "probe"; ms: number; state: string };

export type HealthResponse = {
  status: "ok" | "degraded";
  // state/error (issue 29 item 3): which dependency is down, and the driver's reason.
  database: { ok: boolean; kind: "pglite" | "postgres"; state: DependencyState; error?: string };
  redis: { ok: boolean; state: DependencyState; error?: string };
  /** The unreachable dependencies (empty when none); with a 503 also `error`/`message` naming the database. */
  down: Dependency[];
  error?: string;
  message?: string;
  worker: { state: "running" | "stopped" | "unknown"; lastHeartbeat: string | null };
  /** Issue 29: each worker alive now, then each lost within the last 10 minutes. */
  workers: HealthWorker[];
  /** Issue 29: sessions wanted that no live worker holds, and why ("Worker lost · waiting for a worker"…). */
  sessions: { waiting: number; status: string | null };
};

/** A worker as /api/health lists it (issue 29 "Holder liveness"). */
export type HealthWorker = {
  id: string;
  host: string;
  pid: number;
  mode: "in-process" | "standalone";
  startedAt: string;
  state: "alive" | "lost";
  /** Seconds since its last beat (beats every second; lost after 3 s without one). */
  beatAgeSeconds: number;
  /** Sessions held per purpose, as of its last beat. */
  sessions: Record<string, number>;
  /** Sessions it can hold per purpose (SESSION_CONCURRENCY or what its memory holds). */
  capacity: Record<string, number>;
  /** When its loss was noticed (ISO), for lost workers. */
  lostAt?: string;
  /** "Alive", "Worker lost · 12 sessions waiting for a worker", "Worker lost; its sessions moved". */
  status: string;
};
