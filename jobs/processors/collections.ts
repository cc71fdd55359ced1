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
 * - Disconnect ends it (QUIT :ds) through the session host's control channel; Change planet
 *   is a command it runs on the live connection (the platform's reason when the JOIN fails).
 * - Reconnects and their texts are the one supervisor's (jobs/processors/supervise.ts) with
 *   `firstConnect: "give-up"` and `busyOnFirst: "fail"`.
 */
import { GalaxyError } from "~/galaxy/connection.server";
import { createGalaxyConnection } from "~/platform/connection-deps.server";
import { GALAXY_MESSAGES as M } from "~/galaxy/messages";
import { AppError } from "~/utils/app-error";
import { errorText } from "~/utils/errors";
import { accountProfileCredentials } from "~/models/collections.server";
import type { SessionContext } from "../session-host.server";
import { reconnectDelay as supervisedDelay, superviseConnection, type ConnectionOutcome } from "./supervise";

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
  };
}
export type ConnectionTimings = ReturnType<typeof connectionTimings>;

/** The pause before reconnect number `n` (1-based) after an unexpected drop. */
export function reconnectDelay(n: number, t: ConnectionTimings = connectionTimings()): number {
  return supervisedDelay(n, { dropRetryMs: t.retryMs, dropRetries: t.retries, backoffMaxMs: t.backoffMaxMs });
}

const REFUSALS: readonly string[] = ["invalid_credentials", "online_or_banned", "another_device"];

export async function runCollectionsSession(ctx: SessionContext): Promise<void> {
  const { accountId } = ctx;
  const t = connectionTimings();
  let nick = accountId;
  /** The live connection, for Change planet. */
  let live: ReturnType<typeof createGalaxyConnection> | null = null;
  /**
   * The planet it was last on (issue 29: Collections keeps its planet across reconnects): a
   * reconnect joins it again, and the row keeps it, instead of a bare JOIN whose answer could
   * land after the "connected" write had cleared the planet.
   */
  const where: { planet: string | null } = { planet: null };
  ctx.onCommand(async (cmd) => {
    if (cmd.kind !== "planet") throw new AppError(400, `Unknown command ${cmd.kind}`);
    const conn = live;
    if (!conn || conn.state !== "connected") throw new AppError(409, M.notConnected);
    const planet = await conn.joinPlanet(String(cmd.arg));
    where.planet = planet.name;
    await ctx.report({ planet: planet.name });
    return planet.name;
  });
  await superviseConnection(
    ctx.supervised(() => `Collections ${nick}`),
    {
      dropRetryMs: t.retryMs,
      dropRetries: t.retries,
      backoffMaxMs: t.backoffMaxMs,
      busyRetryMs: t.busyRetryMs,
      busyRetries: t.busyRetries,
      firstConnect: "give-up",
      busyOnFirst: "fail",
    },
    async (attempt) => {
      const creds = await accountProfileCredentials(accountId);
      if (!creds) {
        await ctx.end({ actual: "failed", error: M.invalidCredentials });
        return { kind: "ended" };
      }
      nick = creds.nick;
      // The first connection retries twice itself (spec 2 §9); reconnects are the supervisor's.
      const conn = createGalaxyConnection({ credentials: creds, planet: where.planet, retries: attempt === 0 ? t.retries : 0, retryDelayMs: t.retryMs });
      live = conn;
      try {
        return await runConnection(ctx, conn, where);
      } finally {
        live = null;
      }
    },
  );
}

/** One socket connection, from open to close. Resolves how it ended. */
async function runConnection(
  ctx: SessionContext,
  conn: ReturnType<typeof createGalaxyConnection>,
  where: { planet: string | null },
): Promise<ConnectionOutcome> {
  const { signal } = ctx;
  let closed!: (o: ConnectionOutcome) => void;
  const ended = new Promise<ConnectionOutcome>((resolve) => (closed = resolve));
  const gone = { closed: false };
  conn.on("closed", (info) => {
    gone.closed = true;
    if (info.expected && conn.lastError?.code === "another_device") closed({ kind: "refused", code: "another_device", message: M.anotherDevice });
    else closed({ kind: "dropped", wasOnline: true, why: info.expected ? info.reason : M.connectionLost });
  });
  // Planet writes in the order the planets came (a late "none" must not land over "Orion"),
  // and only while the connection is up: leaving on a drop is not a planet change.
  let planetWrites = Promise.resolve();
  conn.on("planet", (planet) => {
    if (planet) where.planet = planet.name;
    planetWrites = planetWrites.then(async () => {
      // The connection emits "none" as it closes, just before "closed": run after both (a
      // microtask later), a drop keeps the planet it will join again.
      if (!planet && gone.closed) return;
      if (!planet) where.planet = null;
      await ctx.report({ planet: planet?.name ?? null }).catch(() => {});
    });
  });
  const onAbort = () => closed({ kind: "aborted" });
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    // A stop that landed before this listener existed (while the supervisor wrote "connecting")
    // would never fire it, and the host does not abort twice: end without logging in.
    if (signal.aborted) return { kind: "aborted" };
    try {
      // A stop while the first connection still waits on the platform (its login timeout, its own
      // two tries, spec 2 §9) ends it now, as the stalker's: `ended` wins the race and `finally`
      // closes the connection, which ends the pending connect. Waiting for connect() kept a
      // closing worker past its bound ("active jobs did not finish", issue 30 A8).
      const early = await Promise.race([conn.connect().then(() => null), ended]);
      if (early) return early;
    } catch (err) {
      if (signal.aborted) return { kind: "aborted" };
      const e = err instanceof GalaxyError ? err : new GalaxyError(errorText(err), "login");
      if (REFUSALS.includes(e.code)) return { kind: "refused", code: e.code as "invalid_credentials", message: e.message };
      return { kind: "dropped", wasOnline: false, why: e.code === "connection" ? M.connectionFailed : e.message };
    }
    // The planet as known now; when the JOIN's answer is still on its way, the planet writes
    // above bring it (never a null over the planet it is about to be on).
    const upWrite = planetWrites.then(() => ctx.report({ actual: "active", error: null, ...(conn.planet ? { planet: conn.planet.name } : {}) }));
    planetWrites = upWrite.then(
      () => {},
      () => {},
    );
    if (!(await upWrite)) return { kind: "ended" };
    return await ended;
  } finally {
    signal.removeEventListener("abort", onAbort);
    conn.removeAllListeners("closed");
    await conn.close().catch(() => {});
  }
}
