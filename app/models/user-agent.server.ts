import { eq, inArray, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { galaxyUserAgents } from "~/db/schema";
import { normalizeUserAgent, UserAgentError, type UserAgentInput, type UserAgentRecord } from "~/galaxy/user-agent";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";

/**
 * Registry of user-agent records (spec 1 §3: headers, sek, device, id, nick), one per game
 * account. Written by POST /api/user-agent and by the socket client after login (999);
 * read by the HTTP services client to build each account's X-Galaxy-* headers (its `userAgents`
 * source, app/platform/galaxy-services.server.ts). Stored in `galaxy_user_agents` so it survives
 * restarts; the sek is encrypted at rest. What a record is: app/galaxy/user-agent.ts.
 */

// A short-lived copy in memory: every service call looks the record up. The worker process
// has its own copy, hence the expiry rather than an unbounded cache.
const MEMORY_TTL_MS = 30_000;
const memory = new Map<string, { record: UserAgentRecord | null; at: number }>();

function remember(id: string, record: UserAgentRecord | null) {
  memory.set(id, { record, at: Date.now() });
  if (memory.size > 20_000) memory.delete(memory.keys().next().value!);
}

function row(record: UserAgentRecord) {
  return {
    accountId: record.id,
    headers: record.headers,
    sek: record.sek ? encryptSecret(record.sek) : null,
    device: record.device,
    nick: record.nick,
    updatedAt: new Date(),
  };
}

const upsertSet = {
  headers: sql`excluded.headers`,
  sek: sql`excluded.sek`,
  device: sql`excluded.device`,
  nick: sql`excluded.nick`,
  updatedAt: sql`excluded.updated_at`,
};

/** Stores (or replaces) one account's record. Throws UserAgentError for unusable input. */
export async function registerUserAgent(accountId: string | number, input: UserAgentInput): Promise<UserAgentRecord> {
  const id = String(accountId);
  const record = normalizeUserAgent(id, input);
  const db = await getDb();
  await db.insert(galaxyUserAgents).values(row(record)).onConflictDoUpdate({ target: galaxyUserAgents.accountId, set: upsertSet });
  remember(id, record);
  return record;
}

export type RegisterResult = {
  registered: string[];
  skipped: Array<{ id: string; reason: string }>;
};

/**
 * Stores many records in one transaction (POST /api/user-agent). Entries without headers
 * or with unparsable headers are skipped and reported, not fatal (spec 1 §5).
 */
/** Rows per INSERT statement (6 columns each, far below the bind-parameter limit). */
const USER_AGENT_CHUNK = 1_000;

export async function registerUserAgents(map: Record<string, UserAgentInput | null | undefined>): Promise<RegisterResult> {
  const records: UserAgentRecord[] = [];
  const skipped: RegisterResult["skipped"] = [];
  for (const [id, input] of Object.entries(map)) {
    if (!input || typeof input !== "object") {
      skipped.push({ id, reason: "no user-agent data" });
      continue;
    }
    try {
      records.push(normalizeUserAgent(id, input));
    } catch (err) {
      if (!(err instanceof UserAgentError)) throw err;
      skipped.push({ id, reason: err.message });
    }
  }
  if (records.length) {
    const db = await getDb();
    // One row per account (the last entry wins: one INSERT … ON CONFLICT must not touch a
    // row twice), written in chunks: PostgreSQL binds at most 65,535 parameters a statement.
    const rows = [...new Map(records.map((r) => [r.id, row(r)])).values()];
    await db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += USER_AGENT_CHUNK) {
        await tx
          .insert(galaxyUserAgents)
          .values(rows.slice(i, i + USER_AGENT_CHUNK))
          .onConflictDoUpdate({ target: galaxyUserAgents.accountId, set: upsertSet });
      }
    });
    for (const r of records) remember(r.id, r);
  }
  return { registered: records.map((r) => r.id), skipped };
}

function fromRow(r: typeof galaxyUserAgents.$inferSelect): UserAgentRecord {
  let sek: string | null = null;
  if (r.sek) {
    try {
      sek = decryptSecret(r.sek);
    } catch {
      // Encrypted under another APP_SECRET: treat as absent rather than fail every call.
      sek = null;
    }
  }
  return { id: r.accountId, nick: r.nick, headers: r.headers ?? {}, sek, device: r.device };
}

/** The account's record, or null when none was registered. */
export async function getUserAgent(accountId: string | number): Promise<UserAgentRecord | null> {
  const id = String(accountId);
  const hit = memory.get(id);
  if (hit && Date.now() - hit.at < MEMORY_TTL_MS) return hit.record;
  const db = await getDb();
  const [r] = await db.select().from(galaxyUserAgents).where(eq(galaxyUserAgents.accountId, id));
  const record = r ? fromRow(r) : null;
  remember(id, record);
  return record;
}

/** Removes records (e.g. when an account is deleted). */
export async function deleteUserAgents(accountIds: Array<string | number>): Promise<number> {
  const ids = accountIds.map(String);
  if (!ids.length) return 0;
  const db = await getDb();
  const rows = await db.delete(galaxyUserAgents).where(inArray(galaxyUserAgents.accountId, ids)).returning({ id: galaxyUserAgents.accountId });
  for (const id of ids) memory.delete(id);
  return rows.length;
}

/** Forget the in-memory copies (tests; another process changed the table). */
export function resetUserAgentMemory() {
  memory.clear();
}
