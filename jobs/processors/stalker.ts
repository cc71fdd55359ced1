/**
 * The stalker (spec 2 §4 "Stalker"; semantics galaxy-runtime.md §1.3, our design, recorded in
 * docs/stalker.md): a persistent presence-and-observation session for one account of type
 * stalker, run by the session host (jobs/session-host.server.ts) as the job `stalker-<id>`.
 *
 * - Signs in with the stored id and password (USER, 4 fields; 5 with the account's sek); the
 *   stored recovery code is only the connection's 451 fallback.
 * - Joins its home planet (a bare JOIN); the connection answers PING and keeps alive.
 * - State (the `stalker` session, docs/sessions.md): connecting from socket open until 900,
 *   active after 900 (planet shown), reconnecting with the reason and the next try, failed
 *   with the platform's words.
 * - Observes: the roster of its planet goes to this worker's sightings recorder
 *   (app/models/sighting.server.ts), which writes each arrival once however many stalkers
 *   share the planet; our own characters seen there become online in `character_details`.
 * - Inbox: PRIVMSG addressed to it and NOTE lines go to System Logs (info, source bot).
 * - Recovery: KICK aimed at itself → wait ≥ 4 s → JOIN again; PRISON → logged, stays;
 *   471/403 → retry after 2.5–3.5 s up to 3 times, then a bare JOIN; 451 → stop with
 *   "Login failed: Invalid credentials"; 950 → stop, inactive, "You login from another
 *   device"; 452 → retry after 12 s up to 3 times; an unexpected close → reconnect after 2 s
 *   twice, then exponential backoff capped at 5 minutes while the stalker stays started
 *   (jobs/processors/supervise.ts).
 * - Stop: `QUIT :ds` (GalaxyConnection.close()); the host clears the holder.
 */
import { GalaxyError } from "~/galaxy/connection.server";
import { createGalaxyConnection } from "~/platform/connection-deps.server";
import { GALAXY_MESSAGES as M } from "~/galaxy/messages";
import { readPrison, type GalaxyLine, type PlanetUser } from "~/galaxy/protocol";
import { sightingsRecorder } from "~/models/sighting.server";
import { getUserCredentials, updateUserPassword, type UserCredentials } from "~/models/user.server";
import { errorText } from "~/utils/errors";
import type { SessionContext } from "../session-host.server";
import { reconnectDelay, superviseConnection, type ConnectionOutcome } from "./supervise";

/** Every pause of §1.3, in ms. `STALKER_TIME_SCALE` (tests, benches) multiplies them all. */
export function stalkerTimings() {
  const raw = Number(process.env.STALKER_TIME_SCALE ?? "1");
  const k = Number.isFinite(raw) && raw > 0 ? raw : 1;
  return {
    /** Unexpected close: first two reconnects after 2 s (spec's "retries 2 × 2 s"). */
    dropRetryMs: 2_000 * k,
    dropRetries: 2,
    /** Then exponential backoff from 4 s, capped at 5 minutes. */
    backoffMaxMs: 300_000 * k,
    /** KICK aimed at self: the web client's joinMinDelay. */
    kickRejoinMs: 4_000 * k,
    /** 452 "online or banned": retry after 12 s, 3 times. */
    busyRetryMs: 12_000 * k,
    busyRetries: 3,
    /** 471/403: retry after 2.5–3.5 s, 3 times, then a bare JOIN. */
    joinRetryMinMs: 2_500 * k,
    joinRetryMaxMs: 3_500 * k,
    joinRetries: 3,
    /** After the fallback also failed, try the bare JOIN again this often. */
    joinIdleRetryMs: 60_000 * k,
    /** Bare PONG keepalive (SAB, reference §3.1). */
    keepaliveMs: 25_000 * k,
    /** Sightings of everyone present are re-confirmed this often (status freshness is 5 min). */
    sightingRefreshMs: 60_000 * k,
  };
}
export type StalkerTimings = ReturnType<typeof stalkerTimings>;

export { reconnectDelay };

type Outcome = ConnectionOutcome;

export async function runStalker(ctx: SessionContext): Promise<void> {
  const { accountId } = ctx;
  const t = stalkerTimings();
  let nick = accountId;
  try {
    await superviseConnection(
      ctx.supervised(() => `Stalker ${nick}`),
      { ...t, firstConnect: "persist", busyOnFirst: "retry" },
      async () => {
        const creds = await getUserCredentials(accountId);
        if (!creds) {
          // The user was deleted (its session row goes with it): nothing to run.
          await ctx.end({ actual: "stopped", note: "The user was deleted" });
          return { kind: "ended" };
        }
        nick = creds.nick;
        // Stopped or let go (decision 0028) while the credentials were read — after a partition
        // heals, that read may answer long after the next holder logged in: never log in then.
        if (ctx.signal.aborted) return { kind: "aborted" };
        return runConnection(ctx, creds, t);
      },
    );
  } finally {
    sightingsRecorder().observe(accountId, null);
  }
}

/** One socket connection, from open to close. Resolves how it ended. */
async function runConnection(ctx: SessionContext, creds: UserCredentials, t: StalkerTimings): Promise<Outcome> {
  const { accountId, signal } = ctx;
  const recorder = sightingsRecorder();
  const conn = createGalaxyConnection({
    credentials: { id: creds.accountId, password: creds.password, nick: creds.nick, recoveryCode: creds.recoveryCode },
    sek: creds.sek,
    headers: creds.headers,
    planet: null,
    // Reconnects are the supervisor's (2 × 2 s, then backoff), not the connection's.
    retries: 0,
    keepaliveMs: t.keepaliveMs,
  });
  const writes = serial();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };
  let active = false;
  let joinFailures = 0;
  let present = new Map<string, PlanetUser>();
  let planetName: string | null = null;
  const leaving = new Map<string, "leave" | "sleep">();

  let finish!: (o: Outcome) => void;
  const ended = new Promise<Outcome>((resolve) => (finish = resolve));
  let settled = false;
  const end = (o: Outcome) => {
    if (settled) return;
    settled = true;
    finish(o);
  };

  const onAbort = () => end({ kind: "aborted" });
  signal.addEventListener("abort", onAbort, { once: true });
  // A stop that landed while the supervisor was still writing "connecting" or reading the
  // credentials aborted the signal before this listener existed: it would never fire, and the
  // host does not abort twice, so the stalker would log in and ignore the stop for good.
  if (signal.aborted) onAbort();

  const rejoin = () => {
    if (settled || conn.state !== "connected") return;
    conn.joinPlanet(null).catch(() => {}); // failures arrive as "error" events (471/403 handled there)
  };

  conn.on("error", (err: GalaxyError) => {
    if (err.code === "another_device") end({ kind: "refused", code: "another_device", message: err.message });
    else if (err.code === "join" && (err.numeric === "471" || err.numeric === "403")) {
      joinFailures++;
      if (joinFailures <= t.joinRetries) {
        later(t.joinRetryMinMs + Math.random() * (t.joinRetryMaxMs - t.joinRetryMinMs), rejoin);
      } else if (joinFailures === t.joinRetries + 1) {
        later(t.joinRetryMinMs, rejoin); // the fallback: a bare JOIN (our target is the home planet already)
      } else {
        later(t.joinIdleRetryMs, rejoin);
      }
      writes(() => ctx.report({ error: `${err.message} (${err.numeric})` }));
    }
  });

  conn.on("planet", (planet) => {
    planetName = planet?.name ?? null;
    recorder.observe(accountId, planetName);
    present = new Map();
    if (!planet) {
      writes(() => ctx.report({ planet: null }));
      return;
    }
    joinFailures = 0;
    active = true;
    const name = planet.name;
    writes(() => ctx.report({ actual: "active", planet: name, error: null }));
    if (/^prison/i.test(name)) void ctx.log("info", `Stalker ${creds.nick} is in prison (${name}); staying there`, { planet: name });
  });

  conn.on("users", (list, change) => {
    const planet = planetName;
    if (planet && change && present.size > 0) {
      // One arrival or departure on a complete list: O(1), not a comparison of whole lists
      // (every stalker on a planet of hundreds sees each arrival; a failover brings hundreds).
      if (change.arrived && !present.has(change.arrived.id)) {
        present.set(change.arrived.id, change.arrived);
        recorder.arrived(accountId, planet, [{ id: change.arrived.id, nick: change.arrived.nick }]);
      }
      if (change.left && present.delete(change.left)) {
        recorder.left(planet, change.left, leaving.get(change.left) ?? "leave");
        leaving.delete(change.left);
      }
      return;
    }
    const next = new Map(list.map((u) => [u.id, u]));
    if (!planet) {
      present = next;
      return;
    }
    const arrived = list.filter((u) => !present.has(u.id));
    const left = [...present.keys()].filter((id) => !next.has(id));
    const firstList = present.size === 0;
    present = next;
    // A new planet's 366 list is everyone there; later lists bring arrivals and departures.
    recorder.arrived(
      accountId,
      planet,
      (firstList ? list : arrived).map((u) => ({ id: u.id, nick: u.nick })),
    );
    for (const id of left) {
      recorder.left(planet, id, leaving.get(id) ?? "leave");
      leaving.delete(id);
    }
  });

  // A 451 with stored credentials falls back to the stored recovery code (the connection does
  // it), which hands out a new password: keep it, or the next login fails again.
  conn.on("loggedIn", (info) => {
    if (info.password !== creds.password) writes(() => updateUserPassword(accountId, info.password));
  });
  conn.on("line", (line: GalaxyLine) => onLine(line));
  const onLine = (line: GalaxyLine) => {
    switch (line.command) {
      case "SLEEP":
        if (line.params[0]) leaving.set(line.params[0], "sleep");
        return;
      case "PART":
        if (line.params[0]) leaving.set(line.params[0], "leave");
        return;
      case "KICK":
        if (line.params[0] === accountId) {
          const text = line.trailing ?? "";
          void ctx.log("info", `Stalker ${creds.nick} was kicked${text ? `: ${text}` : ""}; joining again in ${Math.round(t.kickRejoinMs / 1000)} s`, {
            planet: planetName,
          });
          later(t.kickRejoinMs, rejoin);
        } else if (line.params[0]) leaving.set(line.params[0], "leave");
        return;
      case "PRISON": {
        const { by, reason } = readPrison(line);
        void ctx.log("info", `Stalker ${creds.nick} was imprisoned${by ? ` by ${by}` : ""}${reason ? `: ${reason}` : ""}; staying there`, {
          by,
          reason,
        });
        return;
      }
      case "PRIVMSG": {
        // `PRIVMSG <senderId> <x> <target> :<text>`, x is 1 when addressed (docs/galaxy-protocol.md)
        const [from, , target] = line.params;
        if (target !== accountId || line.trailing === null) return;
        const sender = present.get(from ?? "")?.nick ?? from ?? "unknown";
        void ctx.log("info", `Stalker ${creds.nick}: message from ${sender} (${from}): ${line.trailing}`, { from, planet: planetName, kind: "PRIVMSG" });
        return;
      }
      case "NOTE": {
        const text = line.trailing ?? line.params.slice(1).join(" ");
        void ctx.log("info", `Stalker ${creds.nick}: note${line.params[0] ? ` from ${line.params[0]}` : ""}: ${text}`, { kind: "NOTE", planet: planetName });
        return;
      }
    }
  };

  conn.on("closed", (info) => {
    if (info.expected && conn.lastError?.code === "another_device") {
      end({ kind: "refused", code: "another_device", message: M.anotherDevice });
      return;
    }
    end({ kind: "dropped", wasOnline: active, why: info.expected ? info.reason : M.connectionLost });
  });

  // Everyone present is re-confirmed now and then (status freshness is 5 min); the recorder
  // writes it once per planet whichever stalker asks first.
  const refresh = setInterval(() => {
    const planet = planetName;
    if (!planet || !present.size) return;
    recorder.confirm(
      planet,
      [...present.values()].map((u) => ({ id: u.id, nick: u.nick })),
    );
  }, t.sightingRefreshMs);

  try {
    try {
      await Promise.race([conn.connect(), ended]);
    } catch (err) {
      const e = err instanceof GalaxyError ? err : new GalaxyError(errorText(err), "login");
      if (signal.aborted) end({ kind: "aborted" });
      else if (e.code === "invalid_credentials" || e.code === "online_or_banned" || e.code === "another_device") {
        end({ kind: "refused", code: e.code, message: e.message });
      } else end({ kind: "dropped", wasOnline: false, why: e.code === "connection" ? M.connectionFailed : e.message });
    }
    return await ended;
  } finally {
    signal.removeEventListener("abort", onAbort);
    clearInterval(refresh);
    for (const timer of timers) clearTimeout(timer);
    conn.removeAllListeners("closed");
    recorder.observe(accountId, null);
    // QUIT :ds on a stop (and on every other end: the socket must not linger).
    await conn.close().catch(() => {});
    await writes.idle();
  }
}

/** Runs async writes one after another (state changes must land in order). */
function serial() {
  let chain: Promise<void> = Promise.resolve();
  const run = (fn: () => Promise<unknown>) => {
    chain = chain.then(fn).then(
      () => {},
      (err: unknown) => console.warn(`[stalker] could not store session state: ${errorText(err)}`),
    );
  };
  run.idle = () => chain.catch(() => {});
  return run;
}
