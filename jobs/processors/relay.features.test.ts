/**
 * GalaCord at matterbridge's level (issue 22 B; discord-local-simulator.md §4; docs/galacord.md
 * "Edits, deletes, replies, attachments", "Relay options", "Backlog") through BOTH simulators: real PostgreSQL,
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
import { connectNew } from "~/platform/galacord-connect.server";
import { getBotStatus, getSavedAccount, listSavedAccounts, saveRelayOptions, startBot, stopBot, stopConnection } from "~/models/galacord.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { closeQueues } from "../../app/queue/queues.server";
import { deleteKeys, waitFor } from "../test-helpers";
import { startWorkers, type WorkerPool } from "../worker";

let galaxy: Simulator;
let discord: DiscordSimulator;
let pool: WorkerPool;
const RELAY: string = SEED.guilds[0].channels[1].id; // Galaxy Fans #relay

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
    RELAY_DISCORD_QUEUE_MAX: "10",
    RELAY_BACKLOG_REPORT_MS: "100",
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
async function discordSays(channelId: string, username: string, content: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(`${discord.controlUrl}messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ channelId, username, content, ...extra }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
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

const escapeMd = (nick: string) => nick.replace(/([\\*_~`|>])/g, "\\$1");
const said = (l: Listener, fromId: string) => l.lines.filter((x) => x.params[0] === fromId).map((x) => x.trailing);
/** A marker through the relay: once it arrived, anything relayed before it had arrived too. */
async function marker(l: Listener, accId: string, text: string) {
  await discordSays(RELAY, "carol", text);
  await heard(l, accId, `carol: ${text}`);
}
async function galaxySim(path: string, body: unknown) {
  return fetch(`${galaxy.controlUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

describe("GalaCord at matterbridge's level (issue 22 B) through the Galaxy and Discord simulators", () => {
  it("B.1 edits: a Discord edit is relayed as a corrected line with (edited); a link preview (no edited_timestamp) is not an edit", async () => {
    await running();
    const { acc, listener } = await relayPair();
    const id = await discordSays(RELAY, "alice", "meet at Orion at 9");
    await heard(listener, acc.id, "Alice: meet at Orion at 9");
    await control("messages/edit", { channelId: RELAY, messageId: id, content: "meet at Nebula at 9" });
    await heard(listener, acc.id, "Alice: meet at Nebula at 9 (edited)");
    // Discord adds a link preview: MESSAGE_UPDATE with embeds, edited_timestamp still null.
    await control("messages/edit", { channelId: RELAY, messageId: id, embeds: [{ title: "Preview", url: "https://example.org/p" }] });
    await marker(listener, acc.id, "after the preview");
    expect(said(listener, acc.id).filter((t) => t?.startsWith("Alice: "))).toEqual(["Alice: meet at Orion at 9", "Alice: meet at Nebula at 9 (edited)"]);
    await stopConnection(acc.id);
  });

  it("B.2 deletes: a relayed message deleted within a minute is noted on Galaxy (it cannot withdraw a line); one still queued is withdrawn, never said", async () => {
    await running();
    const { acc, listener } = await relayPair();
    const id = await discordSays(RELAY, "alice", "oops wrong channel sorry everyone");
    await heard(listener, acc.id, "Alice: oops wrong channel sorry everyone");
    await control("messages/delete", { channelId: RELAY, messageId: id });
    await heard(listener, acc.id, 'Alice: (deleted) "oops wrong channel sorry…"');

    // Galaxy away: the line waits in the queue; deleted meanwhile, it is taken back and never said.
    expect((await galaxySim("faults", { refuseConnections: true })).status).toBe(200);
    try {
      await galaxySim("drop", { accountId: acc.id });
      await waitFor("shown connecting", async () => (await getSavedAccount(acc.id))?.state === "connecting");
      const queued = await discordSays(RELAY, "bob", "never said on Galaxy");
      await waitFor("queued", async () => (await getSavedAccount(acc.id))?.session.info.queued === 1);
      await control("messages/delete", { channelId: RELAY, messageId: queued });
      await waitFor("withdrawn", async () => (await getSavedAccount(acc.id))?.session.info.queued === 0);
    } finally {
      await galaxySim("faults", { refuseConnections: false });
    }
    const back = await connected(acc.id);
    const l2 = back.planet === listener.conn.planet?.name ? listener : await listen(back.planet!);
    await marker(l2, acc.id, "after the withdrawal");
    expect(said(l2, acc.id).filter((t) => t?.includes("never said") || t?.startsWith("Bob: "))).toEqual([]);
    await stopConnection(acc.id);
  });

  it('B.3 replies: a Discord reply shows its context (↪ @nick "first words…") and answers the Galaxy sender; a Galaxy line addressed to the relay is a Discord reply; to someone unknown, the text without a ping', async () => {
    await running();
    const { acc, listener } = await relayPair();
    const me = listener.account;
    listener.say("anyone selling rings on this planet today?");
    const post = await posted(RELAY, (s) => s.content === "anyone selling rings on this planet today?", "the Galaxy line");
    await discordSays(RELAY, "alice", "I am", { replyTo: post.id });
    const reply = await heard(listener, acc.id, `Alice: ↪ @${me.nick} "anyone selling rings on this…" I am`);
    // Addressed to the Galaxy sender (PRIVMSG 0 <sid>), as the platform's own replies are.
    expect(reply.params[2]).toBe(me.id);

    // A reply to a Discord message: the context names its Discord author.
    const q = await discordSays(RELAY, "bob", "who has the key?");
    await heard(listener, acc.id, "Bob: who has the key?");
    const c = await discordSays(RELAY, "carol", "me", { replyTo: q });
    const r2 = await heard(listener, acc.id, 'carol: ↪ @Bob "who has the key?" me');
    expect(r2.params[2]).toBe("0");
    // An edited reply keeps its context.
    await control("messages/edit", { channelId: RELAY, messageId: c, content: "me, tomorrow" });
    await heard(listener, acc.id, 'carol: ↪ @Bob "who has the key?" me, tomorrow (edited)');

    // Galaxy → Discord: "RelayNick, text" addressed to the relay account answers the Discord message it said last.
    listener.conn.send("PRIVMSG", [0, acc.id], `${acc.nick}, I do`);
    const answer = await posted(RELAY, (s) => s.content.endsWith("I do"), "the addressed line");
    expect(answer).toMatchObject({ kind: "message", content: `**${escapeMd(me.nick)}**: I do` });
    expect(discord.state.findMessage(RELAY, answer.id)?.message_reference?.message_id).toBe(c);
    expect(answer.allowedMentions).toEqual({ parse: [], replied_user: false });

    // Addressed to someone the relay knows nothing of: the text as it is, through the webhook, no ping.
    listener.conn.send("PRIVMSG", [0, "424242"], "Zed, @everyone look");
    const plainPost = await posted(RELAY, (s) => s.content === "Zed, @everyone look", "the unknown addressee line");
    expect(plainPost).toMatchObject({ kind: "webhook", username: me.nick });
    expect(plainPost.allowedMentions).toEqual({ parse: [] });
    await stopConnection(acc.id);
  });

  it("B.4 attachments and embeds reach Galaxy as their URLs (Galaxy is text only)", async () => {
    await running();
    const { acc, listener } = await relayPair();
    await discordSays(RELAY, "alice", "my ship", { attachments: [{ filename: "ship.png", contentType: "image/png" }] });
    const file = discord.state.messages.get(RELAY)!.at(-1)!.attachments![0].url;
    expect(file).toMatch(/^https:\/\/cdn\.discordapp\.com\/attachments\//);
    const alice = () =>
      said(listener, acc.id)
        .filter((t) => t?.startsWith("Alice: "))
        .map((t) => t!.slice("Alice: ".length))
        .join(" ");
    await waitFor(`the file's URL on Galaxy: ${alice()}`, () => alice().includes(file));
    expect(alice()).toBe(`my ship ${file}`);
    // A bot's embed without text: its URL; a URL already in the text is not repeated.
    await discordSays(RELAY, "bob", "", { embeds: [{ title: "Patch notes", url: "https://example.org/notes" }] });
    await heard(listener, acc.id, "Bob: https://example.org/notes");
    await discordSays(RELAY, "carol", "see https://example.org/a", { embeds: [{ title: "A", url: "https://example.org/a" }] });
    await heard(listener, acc.id, "carol: see https://example.org/a");
    await stopConnection(acc.id);
  });

  it("B.5 per-connection options: name templates both ways, ignored nicks and a regex filter; bad input is refused with the reason and nothing saved", async () => {
    await running();
    const { acc, planet, listener } = await relayPair();
    const me = listener.account;
    await expect(saveRelayOptions(acc.id, { discordName: "{nick}", galaxyName: "{nick}", ignoreNicks: [], ignoreMessages: "(unclosed" })).rejects.toMatchObject(
      {
        status: 400,
        message: expect.stringMatching(/^Ignore messages: not a valid regular expression \(/),
      },
    );
    await expect(saveRelayOptions(acc.id, { discordName: "{nick} {oops}", galaxyName: "{nick}", ignoreNicks: [], ignoreMessages: "" })).rejects.toMatchObject({
      status: 400,
      message: "A name template is 1 to 64 characters and may use {nick}, {planet} and {channel} only",
    });
    await expect(saveRelayOptions(acc.id, { discordName: "x".repeat(65), galaxyName: "{nick}", ignoreNicks: [], ignoreMessages: "" })).rejects.toMatchObject({
      status: 400,
    });
    expect((await getSavedAccount(acc.id))!.options).toEqual({ discordName: "{nick}", galaxyName: "{nick}", ignoreNicks: [], ignoreMessages: "" });

    const saved = await saveRelayOptions(acc.id, {
      discordName: "{nick} ({planet})",
      galaxyName: "[{channel}] {nick}",
      ignoreNicks: ["Bob", "nobody"],
      ignoreMessages: "^!",
    });
    expect(saved.options).toMatchObject({ discordName: "{nick} ({planet})", galaxyName: "[{channel}] {nick}", ignoreMessages: "^!" });
    // The holder applies them without a reconnect: probe until the new name shows.
    let i = 0;
    await waitFor("the Discord name template applied", async () => {
      listener.say(`probe ${i++}`);
      await new Promise((r) => setTimeout(r, 150));
      return sent(RELAY).some((s) => s.username === `${me.nick} (${planet})`);
    });
    await discordSays(RELAY, "bob", "ignored by nick");
    await discordSays(RELAY, "alice", "!ignored by the filter");
    await discordSays(RELAY, "alice", "relayed");
    await heard(listener, acc.id, "[relay] Alice: relayed");
    listener.say("!not relayed either");
    listener.say("relayed to Discord");
    await posted(RELAY, (s) => s.content === "relayed to Discord" && s.username === `${me.nick} (${planet})`, "the templated post");
    expect(said(listener, acc.id).filter((t) => t?.includes("ignored"))).toEqual([]);
    expect(sent(RELAY).filter((s) => s.content.includes("not relayed"))).toEqual([]);
    // Shown on the GalaCord screen's list.
    expect((await listSavedAccounts()).find((a) => a.accountId === acc.id)!.options.ignoreNicks).toEqual(["Bob", "nobody"]);
    await stopConnection(acc.id);
  });

  it("B.6 backlog: while Discord rate-limits, lines wait in a bounded queue whose length shows on the row; below the bound nothing is lost, above it the oldest go", async () => {
    await running();
    const { acc, listener } = await relayPair();
    listener.say("warm up");
    await posted(RELAY, (s) => s.content === "warm up", "the webhook exists");
    await control("ratelimits", { buckets: { "POST /webhooks/:webhook/:token": { limit: 1, windowMs: 400 } } });
    try {
      const texts = Array.from({ length: 8 }, (_, i) => `backlog ${i}`);
      for (const t of texts) listener.say(t);
      const seen = await waitFor("the backlog on the row", async () => {
        const q = (await getSavedAccount(acc.id))!.session.info.queued as number;
        return q >= 3 ? q : false;
      });
      expect(seen).toBeLessThanOrEqual(8);
      await waitFor("all eight posted", () => sent(RELAY).filter((s) => s.content.startsWith("backlog ")).length >= 8, 20_000);
      expect(
        sent(RELAY)
          .filter((s) => s.content.startsWith("backlog "))
          .map((s) => s.content),
      ).toEqual(texts);
      await waitFor("the backlog back to 0", async () => (await getSavedAccount(acc.id))!.session.info.queued === 0);
      expect((await getSavedAccount(acc.id))!.session.info.dropped).toBe(0);

      // Above the bound (RELAY_DISCORD_QUEUE_MAX = 10 here): the oldest waiting lines are dropped and counted; the newest arrive.
      const many = Array.from({ length: 16 }, (_, i) => `over ${i}`);
      for (const t of many) listener.say(t);
      await waitFor("the newest posted", () => sent(RELAY).some((s) => s.content === "over 15"), 20_000);
      const got = sent(RELAY)
        .filter((s) => s.content.startsWith("over "))
        .map((s) => s.content);
      const dropped = (
        await waitFor("dropped reported", async () => {
          const info = (await getSavedAccount(acc.id))!.session.info;
          return info.queued === 0 && (info.dropped as number) > 0 ? info : false;
        })
      ).dropped as number;
      expect(got.length + dropped).toBe(16);
      expect(got.length).toBeGreaterThanOrEqual(10);
      expect(got).toEqual([...got].sort((a, b) => Number(a.slice(5)) - Number(b.slice(5))));
    } finally {
      await control("ratelimits", { buckets: { "POST /webhooks/:webhook/:token": { limit: 5, windowMs: 2000 } } });
    }
    await stopConnection(acc.id);
  });
});
