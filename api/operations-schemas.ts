/**
 * zod schemas of the Sessions page's /api answers (issue 31 item 1), for the OpenAPI document
 * and the contract tests. Kept off the page's first load (api/operations.ts has the types).
 */
import { z } from "zod";
import { LIST_PURPOSES, LIST_STATES } from "./operations";

const iso = z.iso.datetime({ offset: true });

export const relayCountersSchema = z.object({
  to_galaxy: z.number().int().min(0),
  to_discord: z.number().int().min(0),
  dropped: z.number().int().min(0),
  queued: z.number().int().min(0),
  last_message_at: iso.nullable(),
});

export const sessionListItemSchema = z.object({
  purpose: z.enum(LIST_PURPOSES),
  key: z.string(),
  account_id: z.string().nullable(),
  nick: z.string().nullable(),
  desired: z.enum(["run", "stop"]),
  actual: z.enum(["waiting", "connecting", "active", "reconnecting", "stopped", "failed"]),
  phase: z.enum(LIST_STATES),
  status: z.string(),
  since: iso,
  holder: z.string().nullable(),
  holder_alive: z.boolean().nullable(),
  attempt: z.number().int().min(0),
  next_try_at: iso.nullable(),
  last_error: z.string().nullable(),
  note: z.string().nullable(),
  logs_url: z.string(),
  page_url: z.string(),
  relay: relayCountersSchema.nullable(),
});

/** GET /api/sessions */
export const sessionsListAnswerSchema = z.object({
  sessions: z.array(sessionListItemSchema),
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  page_size: z.number().int().min(1),
  page_count: z.number().int().min(0),
});

export const workerItemSchema = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.number().int(),
  mode: z.enum(["in-process", "standalone"]),
  state: z.enum(["alive", "lost"]),
  started_at: z.string(),
  beat_at: iso,
  beat_age_seconds: z.number().min(0),
  sessions: z.record(z.string(), z.number().int().min(0)),
  capacity: z.record(z.string(), z.number().int().min(0)),
  rss_bytes: z.number().int().min(0).nullable(),
  version: z.string().nullable(),
  drained_at: iso.nullable(),
  lost_at: iso.nullable(),
});

/** GET /api/workers */
export const workersAnswerSchema = z.object({ workers: z.array(workerItemSchema) });

/** POST and DELETE /api/workers/{id}/drain */
export const drainAnswerSchema = z.object({ worker: workerItemSchema, message: z.string() });

/** Every error answer: the same human text in both fields. */
export const errorAnswerSchema = z.object({ error: z.string(), message: z.string() });
