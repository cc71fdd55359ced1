/**
 * The Collections live connection (spec 2 §4 "Galaxy client connection"; docs/collections.md),
 * a session of the session host (`collections-<accountId>`, decision 0014):
 *
 * - logs in with the stored id and password of the account's saved profile (USER), joins,
 *   posts the user-agent data (the connection's onLogin) and reports "connected";
 * - the first connection: a failure is retried 2 times, 2 s apart (spec 2 §9), then "error"
 *   with the spec's text (server down, network issues, firewall) and the session ends;
 * - an unexpected drop of a connection that was up: "connecting" and a reconnect after 2 s,
 *   twice, then exponential backoff capped at 5 minutes (like the stalker), for as long as the
 *   operator wants the connection; a failed reconnect counts as one more drop;
 * - 451 ("Login failed: Invalid credentials") and 950 ("You login from another device") end it
 *   in "error" with the spec's texts; 452 ends the first connection at once, a reconnect
 *   retries it after 12 s up to 3 times (the platform may still hold the dropped session);
 * - follows the row: desired "disconnected" ends it (QUIT :ds), a wanted planet is joined.
 */
import { desc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { collectionsConnections, collectionsProfiles } from "~/db/schema";
import { GalaxyError } from "~/galaxy/connection.server";
import { createGalaxyConnection } from "~/galaxy/connection-deps.server";
import { GALAXY_MESSAGES as M } from "~/galaxy/messages";
import { getConnection, reportConnection, reportWhileWanted } from "~/models/collections-connection.server";
import { errorText } from "~/utils/errors";
import { decryptSecret } from "~/utils/secrets.server";
import { sessionProcessor, type SessionContext } from "../session-host.server";
import { pause } from "~/utils/pause";

/** The pauses of the connection, in ms; `COLLECTIONS_TIME_SCALE` multiplies them all. */
export function connectionTimings() {
  const raw = Number(process.env.COLLECTIONS_TIME_SCALE ?? "1");
  const k = Number.isFinite(raw) && raw > 0 ? raw : 1;
  return {
    /** Spec 2 §9 "Socket retries, delay: 2, 2 s" (the first connection, and the first two reconnects). */
    retryMs: 2_000 * k,
    retries: 2,
    /** After the two quick reconnects: 4 s, 8 s, … capped at 5 minutes (as the stalker). */
    backoffMaxMs: 300_000 * k,
    /** 452 on a reconnect: retried after 12 s, 3 times (as the stalker). */
    busyRetryMs: 12_000 * k,
    busyRetries: 3,
    /** How often the holder reads the row (disconnect, wanted planet). */
    pollMs: 500 * Math.min(1, k * 4),
  };
}
export type ConnectionTimings = ReturnType<typeof connectionTimings>;

/** The pause before reconnect number `n` (1-based) after an unexpected drop. */
export function reconnectDelay(n: number, t: ConnectionTimings = connectionTimings()): number {
  if (n <= t.retries) return t.retryMs;
  return Math.min(t.retryMs * 2 ** (n - t.retries), t.backoffMaxMs);
}

async function credentialsOf(accountId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(collectionsProfiles)
    .where(eq(collectionsProfiles.accountId, accountId))
    .orderBy(desc(collectionsProfiles.lastUsed))
    .limit(1);
  return row ? { id: row.accountId, password: decryptSecret(row.password), nick: row.nick } : null;
}

type Refusal = "invalid_credentials" | "online_or_banned" | "another_device";
type Outcome =
  | { kind: "aborted" }
  /** The operator asked for "disconnected" (seen in the row). */
  | { kind: "stopped" }
  | { kind: "refused"; code: Refusal; message: string }
  /** Could not connect (`wasConnected` false) or an unexpected close of a connection that was up. */
  | { kind: "dropped"; wasConnected: boolean; why: string };

const REFUSALS: readonly string[] = ["invalid_credentials", "online_or_banned", "another_device"] satisfies Refusal[];

export async function runCollectionsSession(ctx: SessionContext): Promise<void> {
  const { accountId, signal } = ctx;
  const t = connectionTimings();
  /** Reconnects since the connection was last up; null until it was up once. */
  let drops: number | null = null;
  let busy = 0;
  const end = (error: string) => reportConnection(accountId, { desired: "disconnected", state: "error", error, worker: null, planet: null });
  try {
    while (!signal.aborted) {
      const creds = await credentialsOf(accountId);
      if (!creds) {
        await end(M.invalidCredentials);
        return;
      }
      if (drops === null) await reportConnection(accountId, { state: "connecting", error: null, worker: ctx.workerId });
      else if (!(await reportWhileWanted(accountId, { worker: ctx.workerId }))) return; // disconnected meanwhile
      const outcome = await runConnection(ctx, creds, t, drops === null ? t.retries : 0, () => {
        drops = 0;
        busy = 0;
      });
      if (signal.aborted || outcome.kind === "aborted" || outcome.kind === "stopped") return;
      if (outcome.kind === "refused") {
        if (outcome.code === "another_device" && !(await ctx.holdsLock())) return; // a newer holder logged in, not another device
        if (outcome.code === "online_or_banned" && drops !== null && ++busy <= t.busyRetries) {
          if (!(await reportWhileWanted(accountId, { state: "connecting", planet: null, error: `${M.onlineOrBanned}; retry ${busy} of ${t.busyRetries}` })))
            return;
          await pause(t.busyRetryMs, signal);
          continue;
        }
        await end(outcome.message);
        return;
      }
      if (drops === null) {
        // The first connection failed after its retries (spec 2 §4).
        await end(M.connectionFailed);
        return;
      }
      drops++;
      const delay = reconnectDelay(drops, t);
      const why = outcome.wasConnected ? M.connectionLost : outcome.why;
      if (
        !(await reportWhileWanted(accountId, {
          state: "connecting",
          planet: null,
          error: `${why}; reconnecting in ${Math.max(1, Math.round(delay / 1000))} s`,
        }))
      )
        return;
      await pause(delay, signal);
    }
  } finally {
    if (ctx.reason() === "stop" || signal.aborted) {
      const row = await getConnection(accountId).catch(() => null);
      if (row?.desired === "disconnected")
        await reportConnection(accountId, { state: row.state === "error" ? "error" : "disconnected", worker: null, planet: null }).catch(() => {});
      else if (ctx.reason() === "shutdown") await reportConnection(accountId, { state: "connecting", worker: null }).catch(() => {});
    }
  }
}

/** One socket connection, from open to close. Resolves how it ended. */
async function runConnection(
  ctx: SessionContext,
  creds: { id: string; password: string; nick: string },
  t: ConnectionTimings,
  retries: number,
  onUp: () => void,
): Promise<Outcome> {
  const { accountId, signal } = ctx;
  const conn = createGalaxyConnection({ credentials: creds, planet: null, retries, retryDelayMs: t.retryMs });
  let closed: Outcome | null = null;
  conn.on("closed", (info) => {
    if (info.expected && conn.lastError?.code === "another_device") closed = { kind: "refused", code: "another_device", message: M.anotherDevice };
    else closed = { kind: "dropped", wasConnected: true, why: info.expected ? info.reason : M.connectionLost };
  });
  conn.on("planet", (planet) => void reportConnection(accountId, { planet: planet?.name ?? null }).catch(() => {}));
  try {
    try {
      await conn.connect();
    } catch (err) {
      if (signal.aborted) return { kind: "aborted" };
      const e = err instanceof GalaxyError ? err : new GalaxyError(errorText(err), "login");
      if (REFUSALS.includes(e.code)) return { kind: "refused", code: e.code as Refusal, message: e.message };
      return { kind: "dropped", wasConnected: false, why: e.code === "connection" ? M.connectionFailed : e.message };
    }
    if (!(await reportWhileWanted(accountId, { state: "connected", error: null, planet: conn.planet?.name ?? null, worker: ctx.workerId })))
      return { kind: "stopped" };
    onUp();
    let joining: string | null = null;
    for (;;) {
      await pause(t.pollMs, signal);
      if (signal.aborted) return { kind: "aborted" };
      if (closed) return closed;
      const db = await getDb();
      const [row] = await db
        .select({ desired: collectionsConnections.desired, wanted: collectionsConnections.wantedPlanet })
        .from(collectionsConnections)
        .where(eq(collectionsConnections.accountId, accountId));
      if (row?.desired !== "connected") return { kind: "stopped" };
      if (row.wanted && row.wanted !== joining && row.wanted !== conn.planet?.name) {
        joining = row.wanted;
        conn
          .joinPlanet(row.wanted)
          .catch((err: unknown) => void reportConnection(accountId, { error: err instanceof Error ? err.message : String(err) }).catch(() => {}));
      }
    }
  } finally {
    conn.removeAllListeners("closed");
    await conn.close().catch(() => {});
  }
}

export const processCollectionsSession = sessionProcessor("collections", runCollectionsSession);
