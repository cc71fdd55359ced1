import { AsyncLocalStorage } from "node:async_hooks";
import { remember } from "./remember.server";

/**
 * The audit entry being gathered for the request in progress (docs/decisions/0016). The
 * route guard (route-guard.server.ts) opens a scope around every page action and /api write
 * and records the entry when the action is done; code inside may name the action and its
 * target better than the route's path does (`auditNote`), and `enqueue()` reports the jobs
 * the request started (`noteJobStarted`), each recorded as an entry of its own.
 *
 * Outside a request (jobs, schedulers, scripts) there is no scope and these calls do nothing.
 */
export type AuditNote = { action?: string; target?: string; details?: Record<string, unknown> };
export type AuditScope = { note: AuditNote; jobs: Array<{ queue: string; jobId: string; kind: string }>; skip: boolean };

const storage = remember("audit-scope", () => new AsyncLocalStorage<AuditScope>());

export function newAuditScope(): AuditScope {
  return { note: {}, jobs: [], skip: false };
}

export function runInAuditScope<T>(scope: AuditScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** Names this request's change (merged into what the route guard derived from the request). */
export function auditNote(note: AuditNote) {
  const scope = storage.getStore();
  if (!scope) return;
  scope.note = { ...scope.note, ...note, details: note.details ? { ...scope.note.details, ...note.details } : scope.note.details };
}

/** This write changed nothing worth recording (e.g. a POST that only reads). */
export function skipAudit() {
  const scope = storage.getStore();
  if (scope) scope.skip = true;
}

/** Called by enqueue(): the request in progress started this job. */
export function noteJobStarted(queue: string, jobId: string | undefined, kind: string) {
  const scope = storage.getStore();
  if (scope && jobId) scope.jobs.push({ queue, jobId, kind });
}
