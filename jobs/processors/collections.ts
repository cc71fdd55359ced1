/**
 * The Collections live connection (spec 2 §4 "Galaxy client connection"; docs/collections.md),
 * a session of the session host (`collections-<accountId>`, decision 0014):
 *
 * - logs in with the stored id and password of the account's saved profile (USER), joins,
 *   posts the user-agent data (the connection's onLogin) and reports "connected";
 * - retries a failed connection 2 times, 2 s apart (spec 2 §9), then reports "error" with the
 *   spec's text (server down, network issues, firewall) and ends; 451/452/950 end it with the
 *   platform's texts;
 * - follows the row: desired "disconnected" ends it (QUIT :ds), a wanted planet is joined.
 */
import { desc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { collectionsConnections, collectionsProfiles } from "~/db/schema";
import { GalaxyError } from "~/galaxy/connection.server";
import { createGalaxyConnection } from "~/galaxy/connection-deps.server";
import { GALAXY_MESSAGES as M } from "~/galaxy/messages";
import { getConnection, reportConnection } from "~/models/collections-connection.server";
import { decryptSecret } from "~/utils/secrets.server";
import { sessionProcessor, type SessionContext } from "../session-host.server";

function scale() {
  const raw = Number(process.env.COLLECTIONS_TIME_SCALE ?? "1");
  return Number.isFinite(raw) && raw > 0 ? raw : 1;
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

function sleep(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export async function runCollectionsSession(ctx: SessionContext): Promise<void> {
  const { accountId, signal } = ctx;
  const creds = await credentialsOf(accountId);
  if (!creds) {
    await reportConnection(accountId, { desired: "disconnected", state: "error", error: M.invalidCredentials, worker: null });
    return;
  }
  await reportConnection(accountId, { state: "connecting", error: null, worker: ctx.workerId });
  const conn = createGalaxyConnection({
    credentials: creds,
    planet: null,
    retries: 2,
    retryDelayMs: 2_000 * scale(),
  });
  let closed: string | null = null;
  conn.on("closed", (info) => {
    closed = info.expected && conn.lastError?.code === "another_device" ? M.anotherDevice : info.expected ? info.reason : M.connectionLost;
  });
  conn.on("planet", (planet) => void reportConnection(accountId, { planet: planet?.name ?? null }).catch(() => {}));
  try {
    try {
      await conn.connect();
    } catch (err) {
      if (signal.aborted) return;
      const e = err instanceof GalaxyError ? err : null;
      const text = e && ["invalid_credentials", "online_or_banned", "another_device"].includes(e.code) ? e.message : M.connectionFailed;
      await reportConnection(accountId, { desired: "disconnected", state: "error", error: text, worker: null, planet: null });
      return;
    }
    await reportConnection(accountId, { state: "connected", error: null, planet: conn.planet?.name ?? null });
    let joining: string | null = null;
    while (!signal.aborted && closed === null) {
      await sleep(500 * Math.min(1, scale() * 4), signal);
      if (signal.aborted || closed !== null) break;
      const row = await getConnection(accountId);
      if (row.desired !== "connected") break;
      const db = await getDb();
      const [r] = await db
        .select({ wanted: collectionsConnections.wantedPlanet })
        .from(collectionsConnections)
        .where(eq(collectionsConnections.accountId, accountId));
      if (r?.wanted && r.wanted !== joining && r.wanted !== conn.planet?.name) {
        joining = r.wanted;
        conn
          .joinPlanet(r.wanted)
          .catch((err: unknown) => void reportConnection(accountId, { error: err instanceof Error ? err.message : String(err) }).catch(() => {}));
      }
    }
    if (closed !== null && !signal.aborted) {
      await reportConnection(accountId, { desired: "disconnected", state: "error", error: closed, worker: null, planet: null });
    }
  } finally {
    await conn.close().catch(() => {});
    if (ctx.reason() === "stop" || signal.aborted) {
      const row = await getConnection(accountId).catch(() => null);
      if (row?.desired === "disconnected")
        await reportConnection(accountId, { state: row.state === "error" ? "error" : "disconnected", worker: null, planet: null }).catch(() => {});
      else if (ctx.reason() === "shutdown") await reportConnection(accountId, { state: "connecting", worker: null }).catch(() => {});
    }
  }
}

export const processCollectionsSession = sessionProcessor("collections", runCollectionsSession);
