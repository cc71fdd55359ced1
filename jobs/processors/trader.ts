/**
 * The trading run (issue 11 "The trading run"; galaxy-runtime.md §2.3, our design recorded in
 * docs/trading-planets.md "The trading run"): a session on the session host
 * (jobs/session-host.server.ts) for one character of type trading, job `trader-<id>`.
 *
 * - Signs in like the stalker (USER with the stored id and password, 5 fields with sek; the
 *   stored recovery code is the connection's 451 fallback) and sends no JOIN of its own.
 * - Walks the active sequences in list order; each step expands into planet names (the
 *   catalogue in api/planets.ts plus custom english planets, minus blacklisted custom planets
 *   compared case-insensitively, shuffled when the step says so).
 * - Each planet: waits until ≥ 4 s passed since its last JOIN, flies, reads the head-count
 *   (the 353 roster after the JOIN, itself not counted), leaves at once when it is below the
 *   sequence's openPlanetsLevel or above its closedPlanetsLevel; otherwise posts the next
 *   active ad (`PRIVMSG 0 0 :<line>`, one PRIVMSG per line, lines ≤ 200 characters, 1.5 s
 *   apart) and stays `seconds`. While on a planet it answers users who address it
 *   (`PRIVMSG <sid> 0 <selfId>` or "<selfNick>, …") with the next active msg, once per sender
 *   per visit: `PRIVMSG 0 <sid> :<senderNick>, <msg>`.
 * - Fly-rate: a KICK aimed at it or an 850 notice about flying too often while it waits for
 *   a JOIN → waits the seconds the text names (else 10 s) and tries that planet again, twice;
 *   then the planet is skipped.
 * - Join failures (403, 471, 473, 474, 475, no answer) are logged (error, source bot) and
 *   skipped. PRISON → logged, state error, the run pauses 60 s and goes on.
 * - Its position (sequence, step, planets as expanded, planet index, whether the visit posted,
 *   the visit's reply memory, the ad and msg rotation) is stored after every move, so a worker
 *   that takes the session over (SIGTERM handover, SIGKILL failover) resumes there.
 * - Changes to sequences, ads and custom planets are read at every step boundary (ads and
 *   msgs at every visit).
 */
import { planetEntries } from "#api/planets";
import type { Ad, CustomPlanet, PlanetSequence, TraderCounts, TraderPosition, TraderState } from "#api/trading";
import { GalaxyError, type GalaxyConnection } from "~/galaxy/connection.server";
import { createGalaxyConnection } from "~/platform/connection-deps.server";
import { GALAXY_MESSAGES as M } from "~/galaxy/messages";
import { readPrison, type GalaxyLine, type Notice } from "~/galaxy/protocol";
import { listAds } from "~/models/ad.server";
import { listCustomPlanets } from "~/models/custom-planet.server";
import { listSequences } from "~/models/planet-sequence.server";
import { getTraderPosition, getTraderStatus, saveTraderRun } from "~/models/trader.server";
import { getUserCredentials, updateUserPassword, type UserCredentials } from "~/models/user.server";
import { errorText } from "~/utils/errors";
import type { SessionContext } from "../session-host.server";
import { pause } from "~/utils/pause";
import { reconnectDelay, superviseConnection, type ConnectionOutcome } from "./supervise";

/** Every pause, in ms. `TRADER_TIME_SCALE` (tests, benches) multiplies them all. */
export function traderTimings() {
  const raw = Number(process.env.TRADER_TIME_SCALE ?? "1");
  const k = Number.isFinite(raw) && raw > 0 ? raw : 1;
  return {
    /** At least this long between two JOINs (web client joinMinDelay; galaxy-runtime.md §2.1(c)). */
    joinGapMs: 4_000 * k,
    /** A JOIN with no 900/366 nor failure numeric after this long is a failure. */
    joinTimeoutMs: Math.max(500, 10_000 * k),
    /** One second of a sequence's `seconds`. */
    secondMs: 1_000 * k,
    /** Between the lines of one ad. */
    lineGapMs: 1_500 * k,
    /** Fly-rate refusal without a number in its text: wait this long. */
    flyWaitMs: 10_000 * k,
    flyRetries: 2,
    /** Nothing to run (no active sequence with planets): look again this often. */
    idleMs: 30_000 * k,
    /** PRISON: the run pauses this long. */
    prisonPauseMs: 60_000 * k,
    dropRetryMs: 2_000 * k,
    dropRetries: 2,
    backoffMaxMs: 300_000 * k,
    busyRetryMs: 12_000 * k,
    busyRetries: 3,
    keepaliveMs: 25_000 * k,
  };
}
export type TraderTimings = ReturnType<typeof traderTimings>;

const LINE_MAX = 200;

/**
 * The lines one ad is posted as: its text split at line breaks (empty lines dropped), each
 * line cut into pieces of at most 200 characters (code points, as the form counts them),
 * preferring to cut after a space. Nothing else changes: the pieces joined give the line back.
 */
export function adLines(text: string, max = LINE_MAX): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    let rest = [...line];
    while (rest.length > max) {
      let cut = max;
      const space = rest.lastIndexOf(" ", max - 1);
      if (space >= max / 2) cut = space + 1;
      out.push(rest.slice(0, cut).join(""));
      rest = rest.slice(cut);
    }
    const last = rest.join("");
    if (last.trim()) out.push(last);
  }
  return out.filter((l) => l.trim() !== "");
}

/** The planets of one step: catalogue + custom english, minus blacklisted (case-insensitive), shuffled when asked. */
export function expandStep(step: { planetType: string; shuffle: boolean }, custom: readonly CustomPlanet[], random: () => number = Math.random): string[] {
  const banned = new Set(custom.filter((p) => p.type === "blacklisted").map((p) => p.name.toLowerCase()));
  const names = planetEntries(step.planetType, custom).filter((n) => !banned.has(n.toLowerCase()));
  if (step.shuffle) {
    for (let i = names.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [names[i], names[j]] = [names[j]!, names[i]!];
    }
  }
  return names;
}

/** The next item of `list` after the one with id `lastId` (round-robin; the first when unknown). */
export function nextInRotation<T extends { _id: string }>(list: readonly T[], lastId: string | null): T | null {
  if (!list.length) return null;
  const i = lastId ? list.findIndex((x) => x._id === lastId) : -1;
  return list[(i + 1) % list.length]!;
}

/**
 * Where the run goes from `pos`: the same step while its planets last, else the next step
 * with planets of the next active sequence in list order (wrapping round to the first).
 * `fresh` = the step has to be expanded anew. Null when no active sequence has any planet.
 */
export function resolvePosition(
  pos: TraderPosition | null,
  sequences: readonly PlanetSequence[],
  custom: readonly CustomPlanet[],
  random: () => number = Math.random,
): { pos: TraderPosition; sequence: PlanetSequence; wrapped: boolean; skippedSteps: string[] } | null {
  const carry = { lastAdId: pos?.lastAdId ?? null, lastMsgId: pos?.lastMsgId ?? null };
  const skippedSteps: string[] = [];
  if (pos) {
    const seq = sequences.find((s) => s._id === pos.sequenceId && s.isActive);
    const stepIndex = seq?.sequence.findIndex((st) => st.id === pos.stepId) ?? -1;
    if (seq && stepIndex >= 0 && pos.planetIndex < pos.planets.length) {
      return { pos: { ...pos, sequenceIndex: sequences.indexOf(seq), stepIndex }, sequence: seq, wrapped: false, skippedSteps };
    }
  }
  // Start of the next step: after the saved one, by list position (a deleted or deactivated
  // sequence leaves its index behind, so the run goes on with whatever is next).
  let seqIndex = 0;
  let stepIndex = 0;
  if (pos) {
    const seq = sequences.findIndex((s) => s._id === pos.sequenceId);
    if (seq >= 0) {
      seqIndex = seq;
      const st = sequences[seq]!.sequence.findIndex((x) => x.id === pos.stepId);
      stepIndex = (st >= 0 ? st : pos.stepIndex) + 1;
    } else {
      seqIndex = pos.sequenceIndex;
      stepIndex = 0;
    }
  }
  if (!sequences.some((s) => s.isActive && s.sequence.length)) return null;
  let wrapped = false;
  // Every sequence is looked at once, the one we came from twice (its earlier steps after the wrap).
  for (let scanned = 0; scanned <= sequences.length; scanned++) {
    if (seqIndex >= sequences.length) {
      seqIndex = 0;
      stepIndex = 0;
      wrapped = true;
    }
    const seq = sequences[seqIndex]!;
    if (seq.isActive) {
      for (; stepIndex < seq.sequence.length; stepIndex++) {
        const step = seq.sequence[stepIndex]!;
        const planets = expandStep(step, custom, random);
        if (planets.length) {
          return {
            pos: { sequenceId: seq._id, sequenceIndex: seqIndex, stepId: step.id, stepIndex, planets, planetIndex: 0, posted: false, repliedTo: [], ...carry },
            sequence: seq,
            wrapped: wrapped && pos !== null,
            skippedSteps,
          };
        }
        skippedSteps.push(`${seq.name} step ${stepIndex + 1} (${step.planetType})`);
      }
    }
    seqIndex++;
    stepIndex = 0;
  }
  return null;
}

/** Seconds named by a fly-rate text ("Please wait 7 seconds", "once in 3 s"), else null. */
export function flyWaitSeconds(text: string): number | null {
  const m = /(\d+)\s*(?:s\b|sec|seconds|секунд)/i.exec(text);
  return m ? Number(m[1]) : null;
}
const FLY_TEXT = /frequent|fly|flight|полет|полёт|перелет/i;

type Outcome = ConnectionOutcome;

export { reconnectDelay };

export async function runTrader(ctx: SessionContext): Promise<void> {
  const { accountId } = ctx;
  const t = traderTimings();
  let nick = accountId;
  await superviseConnection(
    ctx.supervised(() => `Trader ${nick}`, { logDrops: true }),
    { ...t, firstConnect: "persist", busyOnFirst: "retry" },
    async () => {
      const creds = await getUserCredentials(accountId);
      if (!creds) {
        await ctx.end({ actual: "stopped", note: "The user was deleted" });
        return { kind: "ended" };
      }
      nick = creds.nick;
      return runConnection(ctx, creds, t);
    },
  );
}

/** One socket connection: log in, then walk the run until the connection ends or the session stops. */
async function runConnection(ctx: SessionContext, creds: UserCredentials, t: TraderTimings): Promise<Outcome> {
  const { accountId, signal } = ctx;
  const conn = createGalaxyConnection({
    credentials: { id: creds.accountId, password: creds.password, nick: creds.nick, recoveryCode: creds.recoveryCode },
    sek: creds.sek,
    headers: creds.headers,
    joinOnConnect: false,
    retries: 0,
    joinTimeoutMs: t.joinTimeoutMs,
    keepaliveMs: t.keepaliveMs,
  });
  // Ends with the session or the connection: every wait of the walk listens to it.
  const local = new AbortController();
  let outcome: Outcome | null = null;
  const end = (o: Outcome) => {
    outcome ??= o;
    local.abort();
  };
  const onAbort = () => {
    end({ kind: "aborted" });
    // Let go (decision 0028): the socket closes now, not after a walk step that may be waiting
    // on a database the worker is cut off from too.
    if (ctx.reason() === "lock-lost") void conn.close().catch(() => {});
  };
  signal.addEventListener("abort", onAbort, { once: true });
  let online = false;
  conn.on("error", (err: GalaxyError) => {
    if (err.code === "another_device") end({ kind: "refused", code: "another_device", message: err.message });
  });
  conn.on("loggedIn", (info) => {
    if (info.password !== creds.password) void updateUserPassword(accountId, info.password).catch(() => {});
  });
  conn.on("closed", (info) => {
    if (info.expected && conn.lastError?.code === "another_device") end({ kind: "refused", code: "another_device", message: M.anotherDevice });
    else end({ kind: "dropped", wasOnline: online, why: info.expected ? info.reason : M.connectionLost });
  });

  try {
    // A stop that landed before the listener above existed (while the supervisor wrote
    // "connecting") would never fire it, and the host does not abort twice: end without logging in.
    if (signal.aborted) return { kind: "aborted" };
    try {
      await Promise.race([
        conn.connect(),
        new Promise((_, reject) => local.signal.addEventListener("abort", () => reject(new Error("ended")), { once: true })),
      ]);
      online = true;
    } catch (err) {
      const e = err instanceof GalaxyError ? err : new GalaxyError(errorText(err), "login");
      if (signal.aborted) end({ kind: "aborted" });
      else if (e.code === "invalid_credentials" || e.code === "online_or_banned" || e.code === "another_device")
        end({ kind: "refused", code: e.code, message: e.message });
      else end({ kind: "dropped", wasOnline: false, why: e.code === "connection" ? M.connectionFailed : e.message });
      return outcome!;
    }
    await new Walker(ctx, conn, creds, t, local.signal).run();
    return outcome ?? { kind: "aborted" };
  } catch (err) {
    // A storage failure mid-run: drop the connection and start again (with backoff).
    if (!outcome) end({ kind: "dropped", wasOnline: online, why: `Trader run failed: ${errorText(err)}` });
    return outcome!;
  } finally {
    signal.removeEventListener("abort", onAbort);
    conn.removeAllListeners("closed");
    await conn.close().catch(() => {});
  }
}

type JoinResult = { ok: true } | { ok: false; error: GalaxyError } | { ok: false; flyRate: string };

/** The walk over the sequences on one connection. */
class Walker {
  #lastJoinAt = 0;
  #pos: TraderPosition | null = null;
  /** What the visit in progress listens to (msg replies, fly-rate refusals, kicks). */
  #visit: { planet: string; msgs: Ad[]; onKick: () => void } | null = null;
  #joinWatch: ((text: string) => void) | null = null;
  #writes: Promise<void> = Promise.resolve();
  #idleLogged = false;
  /** A PRISON line arrived: the run pauses before its next flight. */
  #imprisoned: string | null = null;

  constructor(
    readonly ctx: SessionContext,
    readonly conn: GalaxyConnection,
    readonly creds: UserCredentials,
    readonly t: TraderTimings,
    readonly signal: AbortSignal,
  ) {
    conn.on("line", (line) => this.#onLine(line));
    conn.on("notice", (n: Notice) => {
      const text = n.html.replace(/<[^>]*>/g, " ");
      if (this.#joinWatch && FLY_TEXT.test(text)) this.#joinWatch(text);
    });
  }

  get #nick() {
    return this.conn.nick ?? this.creds.nick;
  }

  /** The run's step on its session (active), then its position and counts; a stop meanwhile ends the walk. */
  async #report(update: RunUpdate): Promise<void> {
    await this.#writes;
    const ok = await this.ctx.report({
      actual: "active",
      info: { step: update.state },
      ...(update.planet !== undefined ? { planet: update.planet } : {}),
      ...(update.error !== undefined ? { error: update.error } : {}),
    });
    if (ok && (update.position !== undefined || update.add)) await saveTraderRun(this.ctx.accountId, { position: update.position, add: update.add });
    if (!ok && !this.signal.aborted) throw new StoppedError();
  }

  async run(): Promise<void> {
    this.#pos = await getTraderPosition(this.ctx.accountId);
    // A visit that posted already (taken over, or the connection dropped during its stay) is done.
    if (this.#pos?.posted) this.#pos = { ...this.#pos, planetIndex: this.#pos.planetIndex + 1, posted: false, repliedTo: [] };
    try {
      while (!this.signal.aborted) await this.#step();
    } catch (err) {
      if (err instanceof StoppedError || this.signal.aborted) return;
      throw err;
    }
  }

  async #step() {
    if (this.#imprisoned) {
      const why = this.#imprisoned;
      this.#imprisoned = null;
      await this.#report({ state: "error", error: `In prison: ${why}` });
      await this.ctx.log("error", `Trader ${this.#nick} was imprisoned (${why}); the run pauses ${Math.round(this.t.prisonPauseMs / 1000)} s`, {});
      await pause(this.t.prisonPauseMs, this.signal);
      if (this.signal.aborted) return;
    }
    const [sequences, custom] = await Promise.all([listSequences(), listCustomPlanets()]);
    if (this.signal.aborted) return;
    const next = resolvePosition(this.#pos, sequences, custom);
    if (!next) {
      await this.#report({ state: "idle", planet: null, error: null });
      if (!this.#idleLogged) {
        this.#idleLogged = true;
        await this.ctx.log("debug", `Trader ${this.#nick}: nothing to run (no active sequence with planets)`, {});
      }
      await pause(this.t.idleMs, this.signal);
      return;
    }
    this.#idleLogged = false;
    for (const s of next.skippedSteps) await this.ctx.log("debug", `Trader ${this.#nick}: skipped ${s}: no planets`, {});
    if (next.wrapped) {
      await this.#report({ state: "flying", add: { rounds: 1 } });
      const c = (await getTraderStatus(this.ctx.accountId))?.counts;
      const summary = c
        ? ` (${c.rounds} rounds, ${c.visits} visits, ${c.posts} posts, ${c.replies} replies, ${c.skipped} skipped, ${c.failures} failures since the start)`
        : "";
      await this.ctx.log("info", `Trader ${this.#nick} finished a round of the active sequences${summary}; starting over`, { counts: c ?? null });
    }
    this.#pos = next.pos;
    await this.#visitPlanet(next.sequence);
  }

  async #visitPlanet(seq: PlanetSequence) {
    const pos = this.#pos!;
    const planet = pos.planets[pos.planetIndex]!;
    await this.#report({ state: "flying", planet, error: null, position: pos });
    const result = await this.#fly(planet);
    if (this.signal.aborted) return;
    if (!result.ok) {
      const why = "error" in result ? `${result.error.message}${result.error.numeric ? ` (${result.error.numeric})` : ""}` : `fly-rate: ${result.flyRate}`;
      await this.ctx.log("error", `Trader ${this.#nick}: could not join ${planet}: ${why}; skipped`, {
        planet,
        code: "error" in result ? result.error.numeric : "fly-rate",
        sequence: seq.name,
      });
      await this.#advance({ failures: 1, skipped: 1 }, { state: "flying", planet: null });
      return;
    }
    const here = this.conn.planet?.name ?? planet;
    if (/^prison/i.test(here)) {
      await this.#prison(here);
      return;
    }
    const count = this.conn.users.filter((u) => u.id !== this.ctx.accountId).length;
    const [ads, msgs] = splitAds(await listAds());
    this.#visit = { planet: here, msgs, onKick: () => {} };
    try {
      await this.#report({ state: "on_planet", planet: here, add: { visits: 1 } });
      if (count < seq.openPlanetsLevel || count > seq.closedPlanetsLevel) {
        const rule =
          count < seq.openPlanetsLevel ? `fewer than the open level ${seq.openPlanetsLevel}` : `more than the closed level ${seq.closedPlanetsLevel}`;
        await this.ctx.log("info", `Trader ${this.#nick}: ${here} has ${count} users, ${rule}; not posting`, { planet: here, count, sequence: seq.name });
        await this.#advance({ skipped: 1 }, { state: "on_planet" });
        return;
      }
      const kicked = new Promise<void>((resolve) => (this.#visit!.onKick = resolve));
      const ad = nextInRotation(ads, pos.lastAdId);
      if (ad) {
        await this.#report({ state: "posting" });
        const lines = adLines(ad.adsMessage);
        for (let i = 0; i < lines.length && !this.signal.aborted; i++) {
          if (i > 0) await pause(this.t.lineGapMs, this.signal);
          if (this.signal.aborted) return;
          this.conn.send("PRIVMSG", [0, 0], lines[i]!);
        }
        this.#pos = { ...this.#pos!, posted: true, lastAdId: ad._id };
        await this.#report({ state: "on_planet", position: this.#pos, add: { posts: 1 } });
        await this.ctx.log("info", `Trader ${this.#nick} posted an ad on ${here} (${count} users)`, {
          planet: here,
          count,
          adId: ad._id,
          lines: lines.length,
          sequence: seq.name,
        });
      } else {
        await this.ctx.log("debug", `Trader ${this.#nick}: no active ad to post on ${here}`, { planet: here });
      }
      const stay = new AbortController();
      const stop = () => stay.abort();
      this.signal.addEventListener("abort", stop, { once: true });
      void kicked.then(stop);
      await pause(seq.seconds * this.t.secondMs, stay.signal);
      this.signal.removeEventListener("abort", stop);
      if (this.signal.aborted) return;
      await this.#advance({}, { state: "on_planet" });
    } finally {
      this.#visit = null;
    }
  }

  /** Next planet: position saved (with counts) before anything else happens. */
  async #advance(add: Partial<TraderCounts>, update: { state: TraderState; planet?: string | null }) {
    await this.#writes;
    this.#pos = { ...this.#pos!, planetIndex: this.#pos!.planetIndex + 1, posted: false, repliedTo: [] };
    await this.#report({ ...update, position: this.#pos, add });
  }

  async #prison(here: string) {
    await this.#report({ state: "error", planet: here, error: `In prison on ${here}` });
    await this.ctx.log("error", `Trader ${this.#nick} is in prison (${here}); the run pauses ${Math.round(this.t.prisonPauseMs / 1000)} s`, { planet: here });
    await pause(this.t.prisonPauseMs, this.signal);
    if (this.signal.aborted) return;
    await this.#advance({ failures: 1, skipped: 1 }, { state: "flying", planet: null });
  }

  /** JOIN with the gap and the fly-rate rules. */
  async #fly(planet: string): Promise<JoinResult> {
    let last: JoinResult = { ok: false, flyRate: "" };
    for (let attempt = 0; attempt <= this.t.flyRetries; attempt++) {
      await pause(this.#lastJoinAt + this.t.joinGapMs - Date.now(), this.signal);
      if (this.signal.aborted) return last;
      this.#lastJoinAt = Date.now();
      last = await this.#joinOnce(planet);
      if (last.ok || !("flyRate" in last)) return last;
      const seconds = flyWaitSeconds(last.flyRate);
      // The server's seconds are real seconds (never scaled): it is the platform's clock.
      const wait = seconds !== null ? Math.max(seconds * 1000, this.t.joinGapMs) : this.t.flyWaitMs;
      await this.ctx.log("info", `Trader ${this.#nick}: refused flight to ${planet} (${last.flyRate}); waiting ${Math.round(wait / 1000)} s`, {
        planet,
        attempt: attempt + 1,
      });
      // The next JOIN waits for the gap after this refusal plus what the server asked for.
      this.#lastJoinAt = Date.now() + wait - this.t.joinGapMs;
    }
    return last;
  }

  #joinOnce(planet: string): Promise<JoinResult> {
    return new Promise<JoinResult>((resolve) => {
      let done = false;
      const finish = (r: JoinResult) => {
        if (done) return;
        done = true;
        this.#joinWatch = null;
        this.signal.removeEventListener("abort", onAbort);
        resolve(r);
      };
      const onAbort = () => finish({ ok: false, error: new GalaxyError(M.closedByUser, "closed") });
      this.signal.addEventListener("abort", onAbort, { once: true });
      this.#joinWatch = (text) => finish({ ok: false, flyRate: text.trim() || "too frequent" });
      this.conn.joinPlanet(planet).then(
        () => finish({ ok: true }),
        (err: unknown) => finish({ ok: false, error: err instanceof GalaxyError ? err : new GalaxyError(errorText(err), "join") }),
      );
    });
  }

  #onLine(line: GalaxyLine) {
    if (line.command === "KICK" && line.params[0] === this.ctx.accountId) {
      const text = line.trailing ?? "";
      if (this.#joinWatch) this.#joinWatch(text || "kicked");
      else if (this.#visit) {
        void this.ctx.log("info", `Trader ${this.#nick} was kicked from ${this.#visit.planet}${text ? `: ${text}` : ""}`, { planet: this.#visit.planet });
        this.#visit.onKick();
      }
      return;
    }
    // `:<nick> PRISON <actorGender> :<reason>` goes only to the one imprisoned: it is always us.
    if (line.command === "PRISON") {
      this.#imprisoned = readPrison(line).reason || "PRISON";
      this.#visit?.onKick();
      return;
    }
    if (line.command === "PRIVMSG") this.#onPrivmsg(line);
  }

  /** `PRIVMSG <senderId> 0 <targetId> :<text>` addressed to us: one reply per sender per visit. */
  #onPrivmsg(line: GalaxyLine) {
    const visit = this.#visit;
    const pos = this.#pos;
    if (!visit || !pos || line.trailing === null) return;
    const [from, , target] = line.params;
    if (!from || from === this.ctx.accountId || from === "0") return;
    const nick = this.#nick;
    const text = line.trailing;
    const addressed =
      target === this.ctx.accountId || text.toLowerCase().startsWith(`${nick.toLowerCase()},`) || text.toLowerCase().startsWith(`${nick.toLowerCase()}:`);
    if (!addressed || pos.repliedTo.includes(from)) return;
    const msg = nextInRotation(visit.msgs, pos.lastMsgId);
    if (!msg) return;
    const sender = this.conn.users.find((u) => u.id === from)?.nick ?? from;
    const lines = adLines(`${sender}, ${msg.adsMessage}`);
    this.#pos = { ...pos, repliedTo: [...pos.repliedTo, from], lastMsgId: msg._id };
    try {
      for (const l of lines) this.conn.send("PRIVMSG", [0, from], l);
    } catch {
      return; // closing
    }
    const saved = this.#pos;
    this.#writes = this.#writes
      .then(async () => {
        await saveTraderRun(this.ctx.accountId, { position: saved, add: { replies: 1 } });
        await this.ctx.log("info", `Trader ${nick} answered ${sender} on ${visit.planet}`, { planet: visit.planet, to: from, msgId: msg._id });
      })
      .catch((err: unknown) => console.warn(`[trader] could not store a reply: ${errorText(err)}`));
  }
}

class StoppedError extends Error {}

type RunUpdate = {
  state: TraderState;
  planet?: string | null;
  error?: string | null;
  position?: TraderPosition | null;
  /** Added to the run's counts. */
  add?: Partial<TraderCounts>;
};

function splitAds(all: Ad[]): [Ad[], Ad[]] {
  const active = all.filter((a) => a.isActive);
  return [active.filter((a) => a.category === "ads"), active.filter((a) => a.category === "msg")];
}
