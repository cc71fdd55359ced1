/**
 * GalaCord relay through BOTH simulators (issue 13 "Proof"; spec 2 §4 "Relay bot", §4
 * "Galaxy client connection"; galaxy-runtime.md §5.3 [D]; docs/galacord.md): real PostgreSQL,
 * real Redis (this file's prefix), a real in-process BullMQ worker holding the `relay-bot`
 * session, an unmodified discord.js Client against the Discord simulator, and real Galaxy
 * sockets against the Galaxy simulator. A second Galaxy client (the "listener") stands on the
 * relay account's planet: it says lines there and sees what the relay says.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDiscordSimulator, type DiscordSimulator } from "#sim/discord/server";
import { SEED } from "#sim/discord/state";
import { startSimulator, type Simulator } from "#sim/server";
import type { SimAccount } from "#sim/world";
import { getDb } from "~/db/client.server";
import { galacordAccounts, galacordBot, sessionCommands, sessions } from "~/db/schema";
import { GalaxyConnection } from "~/galaxy/connection.server";
import type { GalaxyLine } from "~/galaxy/protocol";
import {
  changePlanet,
  connectAccount,
  listConnections,
  getBotStatus,
  getSavedAccount,
  listChannels,
  startBot,
  stopBot,
  stopConnection,
  updateChannel,
} from "~/models/galacord.server";
import { connectNew } from "~/platform/galacord-connect.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { closeQueues } from "../../app/queue/queues.server";
import { deleteKeys, waitFor } from "../test-helpers";
import { startWorkers, type WorkerPool } from "../worker";
import { AppError } from "~/utils/app-error";

let galaxy: Simulator;
let discord: DiscordSimulator;
let pool: WorkerPool;
const RELAY: string = SEED.guilds[0].channels[1].id; // Galaxy Fans #relay
const GENERAL: string = SEED.guilds[0].channels[0].id; // Galaxy Fans #general
const CHAT: string = SEED.guilds[1].channels[0].id; // Test Server #chat

beforeAll(async () => {
  galaxy = await startSimulator({ port: 0, pingIntervalMs: 0 });
  discord = await startDiscordSimulator({ port: 0, heartbeatIntervalMs: 1000 });
  Object.assign(process.env, {
    GALAXY_WS_URL: galaxy.wsUrl,
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiBase,
    RELAY_FAST_IDENTIFY: "1",
    RELAY_LOGIN_TIMEOUT_MS: "3000",
    RELAY_BACKOFF_MS: "300",
    RELAY_BACKOFF_MAX_MS: "1000",
    RELAY_JOIN_MIN_DELAY_MS: "100",
    RELAY_LINE_INTERVAL_MS: "20",
    RELAY_LINE_BURST: "5",
    RELAY_GALAXY_RETRY_MS: "200",
    SESSION_POLL_MS: "300",
    SESSION_RECONCILE_MS: "1000",
  });
  resetEnv();
  const db = await getDb();
  await db.delete(sessionCommands);
  await db.delete(sessions);
  await db.delete(galacordAccounts);
  await db.delete(galacordBot);
  pool = startWorkers({ mode: "in-process" });
  await Promise.all(pool.workers.map((w) => w.waitUntilReady()));
});
afterAll(async () => {
  await stopBot().catch(() => {});
  await pool?.close(5_000);
  await closeQueues();
  for (const l of listeners.splice(0)) await l.close().catch(() => {});
  await galaxy?.close();
  await discord?.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

const listeners: GalaxyConnection[] = [];
let next = 0;
const plain = () => galaxy.world.accounts.filter((a) => a.kind === "plain");
function freshAccount(): SimAccount {
  return plain()[next++];
}

async function running() {
  await startBot();
  return waitFor(`bot running: ${JSON.stringify(await getBotStatus())}`, async () => ((await getBotStatus()).isRunning ? getBotStatus() : false), 20_000);
}

async function connected(accountId: string) {
  return waitFor(
    `account ${accountId} connected: ${JSON.stringify(await getSavedAccount(accountId))}`,
    async () => {
      const a = await getSavedAccount(accountId);
      return a?.state === "connected" && a.planet ? a : false;
    },
    20_000,
  );
}

/** A relay account connected to `channelId`, and a listener standing on its planet. */
async function relayPair(channelId = RELAY) {
  const acc = freshAccount();
  const saved = await connectNew({ channelId, recoveryCode: acc.recoveryCode });
  expect(saved).toMatchObject({ accountId: acc.id, nick: acc.nick, channelId });
  const live = await connected(acc.id);
  const listener = await listen(live.planet!);
  return { acc, planet: live.planet!, listener };
}

type Listener = { conn: GalaxyConnection; account: SimAccount; lines: GalaxyLine[]; say(text: string): void };
async function listen(planet: string): Promise<Listener> {
  const account = freshAccount();
  const conn = new GalaxyConnection({ url: galaxy.wsUrl, credentials: { recoveryCode: account.recoveryCode }, planet });
  listeners.push(conn);
  const lines: GalaxyLine[] = [];
  conn.on("line", (l) => {
    if (l.command === "PRIVMSG") lines.push(l);
  });
  conn.on("error", () => {});
  await conn.connect();
  await waitFor("listener on the planet", () => conn.planet?.name === planet);
  return { conn, account, lines, say: (text) => conn.send("PRIVMSG", [0, 0], text) };
}

function sent(channelId?: string) {
  return discord.state.sent.filter((s) => !channelId || s.channelId === channelId);
}
async function discordSays(channelId: string, username: string, content: string) {
  const res = await fetch(`${discord.controlUrl}messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ channelId, username, content }),
  });
  expect(res.status).toBe(200);
}
async function control(path: string, body: unknown) {
  const res = await fetch(`${discord.controlUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return res.json();
}
async function heard(l: Listener, fromId: string, text: string) {
  try {
    return await waitFor(`"${text}" from ${fromId} on Galaxy`, () => l.lines.find((x) => x.params[0] === fromId && x.trailing === text));
  } catch (err) {
    throw new Error(`${(err as Error).message}; heard: ${l.lines.map((x) => x.trailing).join(" | ")}`);
  }
}
async function posted(channelId: string, match: (s: ReturnType<typeof sent>[number]) => boolean, what: string) {
  return waitFor(`${what} in Discord ${channelId}; sent: ${JSON.stringify(sent(channelId).map((s) => [s.username, s.content]))}`, () =>
    sent(channelId).find(match),
  );
}

beforeEach(async () => {
  for (const l of listeners.splice(0)) await l.close().catch(() => {});
});

describe("GalaCord relay through the Galaxy and Discord simulators (spec 2 §4 Relay bot)", () => {
  it("Start: new Client logs in, status Running, channels grouped by server listed (spec 2 §3 Channel)", async () => {
    const status = await running();
    expect(status).toMatchObject({ isRunning: true, error: null, state: "running" });
    const channels = await listChannels();
    expect(channels.map((c) => [c.guildName, c.name])).toEqual([
      ["Galaxy Fans", "general"],
      ["Galaxy Fans", "relay"],
      ["Galaxy Fans", "off-topic"],
      ["Test Server", "chat"],
      ["Test Server", "bots"],
    ]);
    expect(channels[1]).toEqual({ id: RELAY, name: "relay", guildId: SEED.guilds[0].id, guildName: "Galaxy Fans" });
  });

  it("planet chat → the channel as the sender's nick (webhook username) and text; entities decoded; no pings allowed", async () => {
    await running();
    const { acc, listener } = await relayPair();
    const status = await getBotStatus();
    expect(status.connectedChannels).toBeGreaterThanOrEqual(1);
    listener.say("hi all &amp; @everyone &lt;3");
    const msg = await posted(RELAY, (s) => s.content.includes("hi all"), "the planet line");
    expect(msg).toMatchObject({ kind: "webhook", username: listener.account.nick, content: "hi all & @everyone <3" });
    expect(msg.allowedMentions).toEqual({ parse: [] });
    // The webhook is the relay's own, created once for the channel.
    expect(discord.state.webhooks.filter((w) => w.channelId === RELAY)).toHaveLength(1);
    await stopConnection(acc.id);
  });

  it("channel → the planet as `author: text`; mentions and custom emoji turned into text; long text split ≤ 200 a line", async () => {
    await running();
    const { acc, listener } = await relayPair();
    await discordSays(
      RELAY,
      "alice",
      "hello <@1180000000000000001> and <@&999999999999999999> <#1180000000000000101> <:party:1234567890123> <a:wave:1234567890124>",
    );
    await heard(listener, acc.id, "Alice: hello @GalaCord and @role #general :party: :wave:");

    const long = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" "); // ~ 410 characters
    await discordSays(RELAY, "bob", `line one\nline two ${long}`);
    const lines = await waitFor("three pieces", () => {
      const got = listener.lines.filter((l) => l.params[0] === acc.id && l.trailing?.startsWith("Bob: "));
      return got.length >= 3 ? got : false;
    });
    for (const l of lines) expect(l.trailing!.length).toBeLessThanOrEqual(200);
    expect(lines.map((l) => l.trailing!.slice(5)).join(" ")).toBe(`line one line two ${long}`);
    await stopConnection(acc.id);
  });

  it("issue 31: each relay connection's counters on its session — relayed each way, dropped, queued, the last line's time — as /api/sessions shows them", async () => {
    await running();
    const { acc, listener } = await relayPair();
    listener.say("from the planet");
    await posted(RELAY, (s) => s.content === "from the planet", "the planet line");
    await discordSays(RELAY, "carol", "from discord");
    await heard(listener, acc.id, "carol: from discord");
    const { listSessions } = await import("~/models/sessions-list.server");
    const row = await waitFor("the counters written", async () => {
      const item = (await listSessions({ purpose: "relay-link", q: acc.id, page: 1 })).sessions[0];
      return item?.relay && item.relay.to_galaxy === 1 && item.relay.to_discord === 1 ? item : undefined;
    });
    expect(row.nick).toBe(acc.nick);
    expect(row.relay).toMatchObject({ to_galaxy: 1, to_discord: 1, dropped: 0, queued: 0 });
    expect(Date.parse(row.relay!.last_message_at!)).toBeGreaterThan(Date.now() - 30_000);
    await stopConnection(acc.id);
  });

  it("loop prevention: our webhook's and our bot's own messages are never relayed back to the planet", async () => {
    await running();
    const { acc, listener } = await relayPair();
    listener.say("echo test one");
    await posted(RELAY, (s) => s.content === "echo test one", "the webhook post");
    // Bot-message mode: the channel already has 15 webhooks (Discord's limit), so ours cannot be made.
    for (let i = 0; i < 15; i++) {
      const r = await fetch(`${discord.restUrl}/channels/${CHAT}/webhooks`, {
        method: "POST",
        headers: { authorization: `Bot ${discord.token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: `other-${i}` }),
      });
      expect(r.status).toBe(200);
    }
    const { acc: acc2, listener: l2 } = await relayPair(CHAT);
    l2.say("echo test two");
    const botMsg = await posted(CHAT, (s) => s.content.endsWith("echo test two"), "the bot message");
    expect(botMsg).toMatchObject({ kind: "message", content: `**${l2.account.nick.replace(/([\\*_~`|>])/g, "\\$1")}**: echo test two` });
    expect(botMsg.allowedMentions).toEqual({ parse: [] });
    // A marker after both: once it arrived, an echo would have arrived before it.
    await discordSays(RELAY, "carol", "marker one");
    await discordSays(CHAT, "carol", "marker two");
    await heard(listener, acc.id, "carol: marker one");
    await heard(l2, acc2.id, "carol: marker two");
    const relayed = [...listener.lines, ...l2.lines].filter((l) => l.params[0] === acc.id || l.params[0] === acc2.id).map((l) => l.trailing);
    expect(relayed).toContain("carol: marker one");
    expect(relayed.filter((t) => t?.includes("echo test"))).toEqual([]);
    await stopConnection(acc.id);
    await stopConnection(acc2.id);
  });

  it("Change Channel: a connected account is disconnected and reconnected; lines then go to the new channel only", async () => {
    await running();
    const { acc, listener } = await relayPair();
    const loginsBefore = galaxy.sockets.total;
    const updated = await updateChannel(acc.id, GENERAL);
    expect(updated).toMatchObject({ channelId: GENERAL, channelName: "general", guildName: "Galaxy Fans" });
    await waitFor("a new login for the account", () => galaxy.sockets.total > loginsBefore);
    const live = await connected(acc.id);
    const l2 = live.planet === listener.conn.planet?.name ? listener : await listen(live.planet!);
    l2.say("after the move");
    await posted(GENERAL, (s) => s.content === "after the move", "the line in #general");
    await discordSays(RELAY, "alice", "old channel text");
    await discordSays(GENERAL, "alice", "new channel text");
    await heard(l2, acc.id, "Alice: new channel text");
    expect(l2.lines.some((l) => l.trailing === "Alice: old channel text")).toBe(false);
    expect(sent(RELAY).some((s) => s.content === "after the move")).toBe(false);
    await stopConnection(acc.id);
  });

  it("Change Planet: JOIN on the live connection, saved; a refused planet gives the platform's reason; offline → Not connected to Galaxy", async () => {
    await running();
    const { acc } = await relayPair();
    const target = ["Orion", "Nebula"].find((p) => p !== galaxy.world.whereIs(acc.id).planet)!;
    await expect(changePlanet(acc.id, target)).resolves.toBe(target);
    expect(galaxy.world.whereIs(acc.id).planet).toBe(target);
    expect((await getSavedAccount(acc.id))!.planet).toBe(target);
    const listener = await listen(target);
    listener.say("on the new planet");
    await posted(RELAY, (s) => s.content === "on the new planet", "a line from the new planet");

    await expect(changePlanet(acc.id, "NoSuchPlanetHere")).rejects.toMatchObject({ status: 409, message: "Planet with such name doesn't exist!" });
    await expect(changePlanet(acc.id, "Vault")).rejects.toMatchObject({ status: 409, message: "This Planet is locked!" });
    expect(galaxy.world.whereIs(acc.id).planet).toBe(target);

    await stopConnection(acc.id);
    const err = await changePlanet(acc.id, "Orion").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 409, message: "Not connected to Galaxy" });
  });

  it("429s from Discord are absorbed: every line arrives once, in order", async () => {
    await running();
    const { acc, listener } = await relayPair();
    await control("faults", { rest429: { count: 4, retryAfterMs: 200 } });
    const texts = Array.from({ length: 6 }, (_, i) => `burst ${i}`);
    for (const t of texts) listener.say(t);
    await waitFor("all six posted", () => sent(RELAY).filter((s) => s.content.startsWith("burst ")).length >= 6);
    expect(
      sent(RELAY)
        .filter((s) => s.content.startsWith("burst "))
        .map((s) => s.content),
    ).toEqual(texts);
    expect(discord.state.faults.rest429.count).toBe(0);
    await stopConnection(acc.id);
  });

  it("gateway close 4000 (resumable): the bot resumes and keeps relaying; close 4004 (fatal) → Bot Error, stopped, connections offline", async () => {
    await running();
    const { acc, listener } = await relayPair();
    await control("gateway", { action: "close", code: 4000 });
    await waitFor("resumed", () => discord.gateway.events.some((e) => e.kind === "resume"));
    await discordSays(RELAY, "alice", "after resume");
    await heard(listener, acc.id, "Alice: after resume");
    expect((await getBotStatus()).isRunning).toBe(true);

    await control("gateway", { action: "close", code: 4004 });
    const failed = await waitFor("Bot Error", async () => ((await getBotStatus()).state === "error" ? getBotStatus() : false));
    expect(failed).toMatchObject({ isRunning: false, error: "Discord closed the gateway: Authentication failed (4004)", connectedChannels: 0 });
    await waitFor("accounts offline", async () => (await getSavedAccount(acc.id))?.state === "offline");
    await waitFor("Galaxy session closed", () => galaxy.sockets.sessions(acc.id).length === 0);
    // Start again clears the error (a new Client).
    expect((await running()).error).toBeNull();
    await connected(acc.id);
    await stopConnection(acc.id);
  });

  it("a refused token on Identify (4004) at start → Bot Error with discord.js's reason; a dead gateway → our login timeout and backoff, then running", async () => {
    await stopBot();
    await control("faults", { identifyCloseCode: 4004 });
    await startBot();
    const failed = await waitFor("Bot Error", async () => ((await getBotStatus()).state === "error" ? getBotStatus() : false));
    await control("faults", { identifyCloseCode: null });
    expect(failed.error).toMatch(/Authentication failed/);

    await control("faults", { deadGateway: true });
    await startBot();
    const retrying = await waitFor("login timed out, retrying", async () => {
      const s = await getBotStatus();
      return s.state === "starting" && s.session.error === "Discord login timed out" ? s.session : false;
    });
    // The truth while it retries: the reason, the attempt, when the next try is.
    expect(retrying).toMatchObject({ desired: "run", actual: "reconnecting", attempt: 1 });
    expect(retrying.nextRetryAt).not.toBeNull();
    await control("faults", { deadGateway: false });
    await waitFor("running after the gateway came back", async () => (await getBotStatus()).isRunning, 20_000);
  });

  it('spec 2 §4 "Galaxy client connection": a dropped connection (not a login failure) is shown connecting, reconnects with backoff and never gives up; queued lines survive; 950 → error, not retried until Connect', async () => {
    await running();
    const { acc, listener } = await relayPair();
    const sim = (path: string, body: unknown) =>
      fetch(`${galaxy.controlUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const loginsBefore = galaxy.sockets.total;
    const refusedBefore = galaxy.sockets.refused;
    // The platform goes away for a while: the account's socket drops and new sockets are refused.
    expect((await sim("faults", { refuseConnections: true })).status).toBe(200);
    try {
      expect((await (await sim("drop", { accountId: acc.id })).json()).dropped).toBeGreaterThanOrEqual(1);
      const away = await waitFor("shown connecting", async () => {
        const a = await getSavedAccount(acc.id);
        return a?.state === "connecting" ? a : false;
      });
      expect(away).toMatchObject({ desired: "connected", isConnected: false });
      expect((await listConnections()).find((c) => c.accountId === acc.id)).toMatchObject({ isConnected: false });
      // Lines from Discord wait for the connection (RELAY_QUEUE_MAX).
      await discordSays(RELAY, "alice", "said while Galaxy was away");
      // More than the connect helper's 2 retries: the relay keeps trying (2 × the retry delay,
      // then doubling up to RELAY_BACKOFF_MAX_MS) and stays "connecting", never "error".
      await waitFor("four refused reconnects", () => galaxy.sockets.refused - refusedBefore >= 4);
      const trying = await getSavedAccount(acc.id);
      expect(trying).toMatchObject({ state: "connecting", desired: "connected", session: { actual: "reconnecting", error: expect.stringMatching(/Galaxy/) } });
      expect(trying!.session.attempt).toBeGreaterThanOrEqual(3);
    } finally {
      await sim("faults", { refuseConnections: false });
    }
    const back = await connected(acc.id);
    expect(back).toMatchObject({ isConnected: true, error: null });
    expect(galaxy.sockets.total).toBeGreaterThan(loginsBefore);
    const l2 = back.planet === listener.conn.planet?.name ? listener : await listen(back.planet!);
    if (l2 !== listener) await discordSays(RELAY, "alice", "said while Galaxy was away");
    await heard(l2, acc.id, "Alice: said while Galaxy was away");

    // 950 "You login from another device" is a login failure: shown in error, not retried.
    const totalBefore = galaxy.sockets.total;
    expect((await sim("another-device", { accountId: acc.id })).status).toBe(200);
    const failed = await waitFor("error", async () => {
      const a = await getSavedAccount(acc.id);
      return a?.state === "error" ? a : false;
    });
    // It ended by itself: desired stop, failed with the platform's words; the saved planet is kept.
    expect(failed).toMatchObject({ error: "You login from another device", isConnected: false, desired: "disconnected", planet: back.planet });
    // Several poll rounds and retry delays later (SESSION_POLL_MS 300, RELAY_GALAXY_RETRY_MS 200) nothing tried again.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(galaxy.sockets.total).toBe(totalBefore);
    expect((await getSavedAccount(acc.id))!.state).toBe("error");
    // Connect (the operator's button) clears it and logs in again.
    await connectAccount(acc.id, RELAY);
    await connected(acc.id);
    await stopConnection(acc.id);
  });

  it("Stop: the bot logs out, status Stopped, connections offline with QUIT :ds", async () => {
    await running();
    const { acc } = await relayPair();
    const status = await stopBot();
    expect(status).toMatchObject({ isRunning: false, connectedChannels: 0, state: "stopped" });
    await waitFor("QUIT :ds", () => galaxy.sockets.closed.some((c) => c.accountId === acc.id && c.quit === "ds"));
    expect((await getSavedAccount(acc.id))!.state).toBe("offline");
    // Saved and still wanted: connects again when the bot starts.
    await running();
    await connected(acc.id);
    await stopConnection(acc.id);
  });
});

describe("login refusals on connect-new answer the platform's text (spec 2 §8 Platform login codes)", () => {
  it("an unknown recovery code → 400 Login failed: Invalid credentials, nothing saved", async () => {
    await running();
    const before = (await (await getDb()).select().from(galacordAccounts)).length;
    await expect(connectNew({ channelId: RELAY, recoveryCode: "NOPE000000" })).rejects.toMatchObject({
      status: 400,
      message: "Login failed: Invalid credentials",
    });
    await expect(connectNew({ channelId: "1", recoveryCode: plain()[0].recoveryCode })).rejects.toMatchObject({ status: 404 });
    expect((await (await getDb()).select().from(galacordAccounts)).length).toBe(before);
  });
});
