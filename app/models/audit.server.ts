import { and, asc, desc, gte, ilike, lt, lte, sql, type SQL } from "drizzle-orm";
import { encodeAuditCursor, type AuditCursor, type AuditEntryDto, type AuditQuery } from "#api/audit";
import { getDb } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { errorText, scrubLogText } from "~/utils/errors";
import { isSecretKey } from "./log.server";
import { publishLive } from "~/queue/live.server";

/**
 * The audit trail (issue 21; docs/decisions/0016): who changed what, when. Entries are
 * written by the route guard for every page action and /api write (and each job one of them
 * started), by the settings and CLI code for operator management, and by backup/restore.
 * Details are a short summary of the request with every secret-looking field blanked
 * (System Logs' rule, `isSecretKey`), JSON texts opened and redacted too, long texts cut.
 */
export type AuditActor = { operatorId: string | null; operator: string; token: string | null };

/** Who a CLI command acts as: whoever holds a shell on the machine, not a logged-in operator. */
export const CLI_ACTOR: AuditActor = { operatorId: null, operator: "(command line)", token: null };
/** Changes the app makes by itself (the daily backup). */
export const SYSTEM_ACTOR: AuditActor = { operatorId: null, operator: "(system)", token: null };

/**
 * `target` names what changed the way the screen names it ("Kazensar (123456)", "Gold Ring →
 * Silver Ring", "12 companions", an operator's or a token's name), never a secret. Required:
 * an entry that does not say what it changed is of no use to an auditor (issue 28).
 */
export type AuditInput = { action: string; target: string; details?: Record<string, unknown> | null };

export type AuditRow = typeof auditLog.$inferSelect;

const MAX_TEXT = 200;
const MAX_ITEMS = 20;
const MAX_KEYS = 40;
const MAX_DETAILS_CHARS = 4_000;

/**
 * A short, secret-free copy of a request body or any value: secret-looking keys blanked at
 * every depth, strings that hold JSON opened and treated the same way, long strings and lists cut.
 */
export function auditSummary(value: unknown, depth = 0): unknown {
  if (typeof value === "string") {
    const t = value.trim();
    if ((t.startsWith("{") && t.endsWith("}")) || (t.startsWith("[") && t.endsWith("]"))) {
      try {
        return auditSummary(JSON.parse(t), depth + 1);
      } catch {
        // Not JSON after all: a plain text.
      }
    }
    const clean = storable(scrubLogText(value));
    return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT)}… (${clean.length} characters)` : clean;
  }
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Error) return errorText(value);
  if (depth > 4) return "[…]";
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => auditSummary(v, depth + 1));
    if (value.length > MAX_ITEMS) items.push(`… and ${value.length - MAX_ITEMS} more`);
    return items;
  }
  const out: Record<string, unknown> = {};
  const entries = Object.entries(value);
  for (const [k, v] of entries.slice(0, MAX_KEYS)) out[storable(k)] = isSecretKey(k) ? "[redacted]" : auditSummary(v, depth + 1);
  if (entries.length > MAX_KEYS) out["…"] = `${entries.length - MAX_KEYS} more fields`;
  return out;
}

/**
 * Text jsonb can store: a NUL or a lone surrogate (bad input a route ignored, e.g. the body of
 * a DELETE) is written out as its escape, so the entry is recorded rather than refused.
 */
function storable(text: string): string {
  // eslint-disable-next-line no-control-regex -- NUL is what this rewrites.
  return text.replace(/\u0000|\p{Cs}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function boundedDetails(details: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!details) return null;
  const summary = auditSummary(details) as Record<string, unknown>;
  const text = JSON.stringify(summary);
  if (text.length <= MAX_DETAILS_CHARS) return summary;
  // Too long to be a summary: keep the scalar fields, name the rest.
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(summary)) out[k] = v !== null && typeof v === "object" ? `[${Array.isArray(v) ? "list" : "object"}]` : v;
  return out;
}

/**
 * Records one entry. Never throws: the change it describes has happened; a failure to record
 * it is reported on the console (and the entry's action), not turned into a failed request.
 */
export async function recordAudit(actor: AuditActor, input: AuditInput, at = new Date()): Promise<void> {
  try {
    const db = await getDb();
    await db.insert(auditLog).values(auditRow(actor, input, at));
    publishLive("audit");
  } catch (err) {
    console.warn(`[audit] could not record "${input.action}" by ${actor.operator}:`, errorText(err));
  }
}

/**
 * The row an entry becomes (recordAudit; restore writes its own inside its transaction).
 * A caller that passed no target still gets one (JavaScript callers, a blank string): the
 * action and the names of the fields it carried, never "".
 */
export function auditRow(actor: AuditActor, input: AuditInput, at = new Date()): typeof auditLog.$inferInsert {
  const action = storable(scrubLogText(input.action)).slice(0, 200);
  const given = typeof input.target === "string" ? storable(scrubLogText(input.target)).trim() : "";
  const fields = input.details ? Object.keys(input.details).filter((k) => k !== "status") : [];
  const target = given || `${action || "(unnamed change)"}${fields.length ? ` (${fields.slice(0, 5).join(", ")})` : ""}`;
  return {
    at,
    operatorId: actor.operatorId,
    operator: actor.operator,
    token: actor.token,
    action,
    target: target.slice(0, 300),
    details: boundedDetails(input.details),
  };
}

/** What listAudit reads: the contract's query (api/audit.ts), every part optional. */
export type AuditFilter = Partial<AuditQuery>;

export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_MAX_PAGE_SIZE = 200;

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function whereOf(f: AuditFilter): SQL[] {
  const where: SQL[] = [];
  if (f.operator) {
    // A name (any case), or an operator's id.
    where.push(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(f.operator)
        ? sql`(${auditLog.operatorId} = ${f.operator}::uuid or lower(${auditLog.operator}) = lower(${f.operator}))`
        : sql`lower(${auditLog.operator}) = lower(${f.operator})`,
    );
  }
  if (f.action) where.push(ilike(auditLog.action, like(f.action)));
  if (f.target) where.push(ilike(auditLog.target, like(f.target)));
  if (f.from) where.push(gte(auditLog.at, f.from));
  if (f.to) where.push(lte(auditLog.at, f.to));
  return where;
}

/** Entries strictly older (`<`) or newer (`>`) than a cursor; written so the index on `at` bounds the scan. */
function beyond(c: AuditCursor, dir: "<" | ">"): SQL {
  const at = sql`${c.at}::timestamptz`;
  return dir === "<"
    ? sql`(${auditLog.at} <= ${at} and (${auditLog.at} < ${at} or ${auditLog.id} < ${c.id}))`
    : sql`(${auditLog.at} >= ${at} and (${auditLog.at} > ${at} or ${auditLog.id} > ${c.id}))`;
}

/** The entry's position as a cursor: its time to the microsecond (as stored) and its id. */
const cursorAt = sql<string>`to_char(${auditLog.at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export type AuditPage = { entries: AuditRow[]; page: number; limit: number; hasMore: boolean; next: string | null; prev: string | null };

/**
 * One page, newest first (by time, then id): never more than `limit` + 1 rows read, at any
 * depth (keyset paging on (at, id); issue 28). `next` pages to older entries, `prev` to newer;
 * `hasMore` is `next !== null`. No total count: counting a filtered trail would read all of it.
 */
export async function listAudit(f: AuditFilter = {}): Promise<AuditPage> {
  const limit = Math.max(1, Math.min(Math.trunc(f.limit ?? AUDIT_PAGE_SIZE), AUDIT_MAX_PAGE_SIZE));
  const page = Math.max(1, Math.trunc(f.page ?? 1));
  const db = await getDb();
  const base = whereOf(f);
  const newerFirst = !f.after;
  const where = [...base];
  if (f.before) where.push(beyond(f.before, "<"));
  if (f.after) where.push(beyond(f.after, ">"));
  const rows = await auditPageQuery(db, where.length ? and(...where) : undefined, newerFirst, limit + 1, f.before || f.after ? 0 : (page - 1) * limit);
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  if (!newerFirst) shown.reverse();
  const first = shown[0];
  const last = shown.at(-1);
  const cursor = (r: (typeof shown)[number]) => encodeAuditCursor({ at: r.cursor, id: r.row.id });
  const exists = async (c: AuditCursor, dir: "<" | ">") =>
    (
      await db
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(and(...base, beyond(c, dir)))
        .limit(1)
    ).length > 0;
  // Older entries follow when this read found one more (newest first), or, paging back, when it started from one.
  const olderFollow = newerFirst ? more : !!last && (await exists({ at: last.cursor, id: last.row.id }, "<"));
  const newerFollow = newerFirst ? !!first && (page > 1 || !!f.before) && (await exists({ at: first.cursor, id: first.row.id }, ">")) : more;
  return {
    entries: shown.map((r) => r.row),
    page,
    limit,
    hasMore: olderFollow,
    next: olderFollow && last ? cursor(last) : null,
    prev: newerFollow && first ? cursor(first) : null,
  };
}

/** The operator names that appear in the trail (the page's filter offers them). */
/** One page of the trail in (at, id) order, walked in `audit_log_at_id_index` (exported for the plan test; issue 32 item 1). */
export function auditPageQuery(db: Awaited<ReturnType<typeof getDb>>, where: SQL | undefined, newerFirst: boolean, limit: number, offset: number) {
  return db
    .select({ row: auditLog, cursor: cursorAt })
    .from(auditLog)
    .where(where)
    .orderBy(...(newerFirst ? [desc(auditLog.at), desc(auditLog.id)] : [asc(auditLog.at), asc(auditLog.id)]))
    .limit(limit)
    .offset(offset);
}

export async function auditOperators(): Promise<string[]> {
  const db = await getDb();
  const rows = await db.selectDistinct({ operator: auditLog.operator }).from(auditLog).orderBy(auditLog.operator).limit(500);
  return rows.map((r) => r.operator);
}

export function toAuditDto(row: AuditRow): AuditEntryDto {
  return {
    _id: String(row.id),
    at: row.at.toISOString(),
    operator: row.operator,
    token: row.token,
    action: row.action,
    target: row.target,
    details: row.details ?? null,
  };
}

/** Removes entries older than AUDIT_RETENTION_DAYS (the daily clean-up job). */
export async function cleanupAudit(now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - getEnv().AUDIT_RETENTION_DAYS * 86_400_000);
  const db = await getDb();
  const rows = await db.delete(auditLog).where(lt(auditLog.at, cutoff)).returning({ id: auditLog.id });
  return rows.length;
}
