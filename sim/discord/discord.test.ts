/**
 * The Discord simulator spoken to by an UNMODIFIED discord.js 14 Client (issue 13 "The Discord
 * simulator"; reference discord-local-simulator.md §1-§2): login, cache, send, receive, webhooks,
 * 429 retry, resume after close 4000, fatal 4004.
 */
import { ChannelType, Client, Events, GatewayIntentBits, Routes, type Message, type TextChannel } from "discord.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startDiscordSimulator, type DiscordSimulator } from "./server";
import { SEED } from "./state";

let sim: DiscordSimulator;
const clients: Client[] = [];
const GENERAL = SEED.guilds[0].channels[0].id;
const RELAY = SEED.guilds[0].channels[1].id;

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0, heartbeatIntervalMs: 1000 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await post("reset", {});
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.destroy();
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${sim.controlUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
async function get<T = Record<string, unknown>>(path: string) {
  const res = await fetch(`${sim.controlUrl}${path}`);
  return (await res.json()) as T;
}

/** A stock discord.js Client pointed at the simulator: only `rest.api` (the gateway URL comes from GET /gateway/bot). */
function newClient() {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
    rest: { api: sim.apiBase },
    // Test speed only: no 5 s spacing between identifies on reconnect.
    ws: { buildIdentifyThrottler: () => ({ waitForIdentify: async () => {} }) },
  });
  clients.push(client);
  return client;
}
async function loggedIn() {
  const client = newClient();
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(sim.token);
  await ready;
  return client;
}
function nextMessage(client: Client, match: (m: Message) => boolean) {
  return new Promise<Message>((resolve) => {
    const on = (m: Message) => {
      if (!match(m)) return;
      client.off(Events.MessageCreate, on);
      resolve(m);
    };
    client.on(Events.MessageCreate, on);
  });
}
type Sent = { kind: string; channelId: string; content: string; username: string; webhookId: string | null };

describe("Discord simulator with a real discord.js Client", () => {
  it("login → clientReady with the seeded guilds and text channels cached; REST users/@me, channels and guild channels", async () => {
    const client = await loggedIn();
    expect(client.user?.id).toBe(SEED.botId);
    expect(client.user?.bot).toBe(true);
    expect([...client.guilds.cache.keys()].sort()).toEqual(SEED.guilds.map((g) => g.id).sort());
    const fans = client.guilds.cache.get(SEED.guilds[0].id)!;
    expect(fans.name).toBe("Galaxy Fans");
    expect(fans.channels.cache.filter((c) => c.type === ChannelType.GuildText).map((c) => c.name)).toEqual(["general", "relay", "off-topic"]);
    const relay = client.channels.cache.get(RELAY) as TextChannel;
    expect(relay.guild.id).toBe(fans.id);
    // The bot's member and role permissions arrive, so permission checks work.
    expect(relay.permissionsFor(client.user!)?.has("ManageWebhooks")).toBe(true);

    const me = (await client.rest.get(Routes.user())) as { id: string; bot: boolean };
    expect(me).toEqual(expect.objectContaining({ id: SEED.botId, bot: true }));
    // Routes.user("@me") sends "%40me": decoded like Discord does.
    expect(((await client.rest.get(Routes.user("@me"))) as { id: string }).id).toBe(SEED.botId);
    const fetched = await client.channels.fetch(GENERAL, { force: true });
    expect((fetched as TextChannel).name).toBe("general");
    const listed = await fans.channels.fetch();
    expect(listed.size).toBe(3);
  });

  it("channel.send reaches the simulator's record and comes back as the bot's own messageCreate", async () => {
    const client = await loggedIn();
    const relay = client.channels.cache.get(RELAY) as TextChannel;
    const own = nextMessage(client, (m) => m.content === "hello from the bot");
    const sent = await relay.send({ content: "hello from the bot", allowedMentions: { parse: [] } });
    expect(sent.id).toMatch(/^\d{17,20}$/);
    expect(sent.createdTimestamp).toBeGreaterThan(Date.now() - 60_000);
    expect((await own).author.id).toBe(SEED.botId);
    const { sent: record } = await get<{ sent: (Sent & { allowedMentions: unknown })[] }>(`sent?channelId=${RELAY}`);
    expect(record).toEqual([
      expect.objectContaining({ kind: "message", channelId: RELAY, content: "hello from the bot", username: "GalaCord", webhookId: null }),
    ]);
    expect(record[0].allowedMentions).toEqual({ parse: [] });
  });

  it("a control-posted user message arrives as messageCreate with author and content", async () => {
    const client = await loggedIn();
    const got = nextMessage(client, (m) => !m.author.bot);
    const posted = await post("messages", { channelId: GENERAL, username: "bob", content: "hi <@1180000000000001001>" });
    expect(posted.status).toBe(200);
    const m = await got;
    expect(m.author.username).toBe("bob");
    expect(m.content).toBe("hi <@1180000000000001001>");
    expect(m.channel.id).toBe(GENERAL);
    expect(m.guild?.id).toBe(SEED.guilds[0].id);
    expect(m.id).toBe(posted.body.id);
  });

  it("webhook create + send with a username: recorded with that username, messageCreate carries webhookId", async () => {
    const client = await loggedIn();
    const relay = client.channels.cache.get(RELAY) as TextChannel;
    const hook = await relay.createWebhook({ name: "GalaCord relay" });
    expect(hook.token).toHaveLength(68);
    expect((await relay.fetchWebhooks()).map((w) => w.id)).toEqual([hook.id]);
    const arrived = nextMessage(client, (m) => m.webhookId === hook.id);
    const msg = await hook.send({ content: "from the planet", username: "StarNick", allowedMentions: { parse: [] } });
    expect(msg.author.username).toBe("StarNick");
    expect((await arrived).content).toBe("from the planet");
    const { sent } = await get<{ sent: Sent[] }>(`sent?channelId=${RELAY}`);
    expect(sent).toEqual([expect.objectContaining({ kind: "webhook", content: "from the planet", username: "StarNick", webhookId: hook.id })]);
  });

  it("a 429 with Retry-After is waited out and retried by discord.js: the message lands once", async () => {
    const client = await loggedIn();
    const relay = client.channels.cache.get(RELAY) as TextChannel;
    await post("faults", { rest429: { count: 2, retryAfterMs: 300 } });
    const t0 = Date.now();
    await relay.send("after the limit");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    const { faults } = await get<{ faults: { rest429: { count: number } } }>("faults");
    expect(faults.rest429.count).toBe(0);
    const { sent } = await get<{ sent: Sent[] }>("sent");
    expect(sent.map((s) => s.content)).toEqual(["after the limit"]);
  });

  it("discord.js paces a burst by the X-RateLimit headers: six sends on a 2-per-second bucket, no 429 answered, order kept", async () => {
    const client = await loggedIn();
    const relay = client.channels.cache.get(RELAY) as TextChannel;
    await post("ratelimits", { buckets: { "POST /channels/:channel/messages": { limit: 2, windowMs: 1000 } } });
    const t0 = Date.now();
    const texts = Array.from({ length: 6 }, (_, i) => `burst ${i}`);
    await Promise.all(texts.map((t) => relay.send(t)));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
    const { sent } = await get<{ sent: Sent[] }>(`sent?channelId=${RELAY}`);
    expect(sent.map((s) => s.content)).toEqual(texts);
    expect((await get<{ hits: unknown[] }>("ratelimits")).hits).toEqual([]);
  });

  it("gateway closed with 4000 → discord.js resumes (op 6 → RESUMED) and missed events are replayed", async () => {
    const client = await loggedIn();
    const resumed = new Promise<void>((resolve) => client.once(Events.ShardResume, () => resolve()));
    expect((await post("gateway", { action: "close", code: 4000 })).body.sockets).toBe(1);
    // Said while the bot is away: replayed on resume.
    await post("messages", { channelId: GENERAL, username: "alice", content: "while you were away" });
    const replayed = nextMessage(client, (m) => m.content === "while you were away");
    await resumed;
    await replayed;
    const gw = await get<{ events: { kind: string }[] }>("gateway");
    expect(gw.events.filter((e) => e.kind === "identify")).toHaveLength(1);
    expect(gw.events.filter((e) => e.kind === "resume")).toHaveLength(1);
    // Still live after the resume.
    const after = nextMessage(client, (m) => m.content === "after resume");
    await post("messages", { channelId: GENERAL, username: "carol", content: "after resume" });
    expect((await after).author.username).toBe("carol");
  });

  it("op 7 Reconnect → discord.js resumes on resume_gateway_url; close 1000 → it identifies anew", async () => {
    const client = await loggedIn();
    const resumed = new Promise<void>((resolve) => client.once(Events.ShardResume, () => resolve()));
    expect((await post("gateway", { action: "reconnect" })).body.sockets).toBe(1);
    await resumed;
    let gw = await get<{ events: { kind: string; path?: string }[] }>("gateway");
    expect(gw.events.filter((e) => e.kind === "open").map((e) => e.path)).toEqual(["/gateway", "/gateway-resume"]);
    await post("gateway", { action: "close", code: 1000 });
    // A fresh identify gets a READY for a new session (discord.js does not emit clientReady twice).
    await new Promise<void>((resolve, reject) => {
      const t = setInterval(async () => {
        gw = await get("gateway");
        if (gw.events.filter((e) => e.kind === "identify").length === 2) {
          clearInterval(t);
          resolve();
        }
      }, 50);
      setTimeout(() => {
        clearInterval(t);
        reject(new Error("no second identify"));
      }, 5000);
    });
    const after = nextMessage(client, (m) => m.content === "after re-identify");
    await post("messages", { channelId: GENERAL, username: "alice", content: "after re-identify" });
    await after;
  });

  it("without the MessageContent intent a user's message arrives with empty content (as Discord does)", async () => {
    const client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages], rest: { api: sim.apiBase } });
    clients.push(client);
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(sim.token);
    await ready;
    const got = nextMessage(client, (m) => m.author.username === "alice");
    await post("messages", { channelId: GENERAL, username: "alice", content: "secret words" });
    expect((await got).content).toBe("");
  });

  it("a send with a file (multipart payload_json) is recorded; a webhook with a wrong token is refused", async () => {
    const client = await loggedIn();
    const relay = client.channels.cache.get(RELAY) as TextChannel;
    await relay.send({ content: "with a file", files: [{ attachment: Buffer.from("hello"), name: "a.txt" }] });
    const { sent } = await get<{ sent: Sent[] }>("sent");
    expect(sent.map((s) => s.content)).toEqual(["with a file"]);
    const hook = await relay.createWebhook({ name: "hook" });
    const bad = await fetch(`${sim.restUrl}/webhooks/${hook.id}/${"x".repeat(68)}?wait=true`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: "nope", username: "Mallory" }),
    });
    expect(bad.status).toBe(401);
    expect((await get<{ sent: Sent[] }>("sent")).sent).toHaveLength(1);
  });

  it("edits and deletes both ways: bot edit/delete over REST recorded; a user's edit/delete arrives as messageUpdate/messageDelete", async () => {
    const client = await loggedIn();
    const relay = client.channels.cache.get(RELAY) as TextChannel;
    const mine = await relay.send("first");
    const edited = await mine.edit("first (fixed)");
    expect(edited.content).toBe("first (fixed)");
    expect(edited.editedTimestamp).not.toBeNull();
    await mine.delete();
    const rec = await get<{ edits: { id: string; content: string }[]; deletes: { id: string }[] }>(`sent?channelId=${RELAY}`);
    expect(rec.edits).toEqual([expect.objectContaining({ id: mine.id, content: "first (fixed)" })]);
    expect(rec.deletes).toEqual([expect.objectContaining({ id: mine.id })]);

    const got = nextMessage(client, (m) => m.content === "typo");
    const posted = await post("messages", { channelId: RELAY, username: "alice", content: "typo" });
    await got;
    const updated = new Promise<string>((resolve) => client.once(Events.MessageUpdate, (_old, m) => resolve(m.content ?? "")));
    expect((await post("messages/edit", { channelId: RELAY, messageId: posted.body.id, content: "no typo" })).status).toBe(200);
    expect(await updated).toBe("no typo");
    const deleted = new Promise<string>((resolve) => client.once(Events.MessageDelete, (m) => resolve(m.id)));
    await post("messages/delete", { channelId: RELAY, messageId: posted.body.id });
    expect(await deleted).toBe(posted.body.id);
    // Someone else's message cannot be edited by the bot.
    const other = await post("messages", { channelId: RELAY, username: "bob", content: "mine" });
    await expect(client.rest.patch(Routes.channelMessage(RELAY, String(other.body.id)), { body: { content: "hijack" } })).rejects.toThrow(/another user/);
  });

  it("a forgotten session: the resume is refused (op 9) and discord.js identifies anew; a destroyed client ends its session", async () => {
    const client = await loggedIn();
    await post("gateway", { action: "close", code: 4000, forget: true });
    const gwAfter = async () => get<{ events: { kind: string }[]; sessions: unknown[] }>("gateway");
    for (let i = 0; i < 100; i++) {
      const gw = await gwAfter();
      if (gw.events.filter((e) => e.kind === "identify").length === 2) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const gw = await gwAfter();
    const count = (kind: string) => gw.events.filter((e) => e.kind === kind).length;
    expect([count("identify"), count("resume-refused"), count("resume")]).toEqual([2, 1, 0]);
    const after = nextMessage(client, (m) => m.content === "new session");
    await post("messages", { channelId: GENERAL, username: "bob", content: "new session" });
    await after;
    expect(gw.sessions).toHaveLength(1);
    await client.destroy();
    for (let i = 0; i < 40 && (await gwAfter()).sessions.length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await gwAfter()).sessions).toEqual([]);
  });

  it("a 429 on a webhook execution is retried too, and the line is recorded once with its username", async () => {
    const client = await loggedIn();
    const relay = client.channels.cache.get(RELAY) as TextChannel;
    const hook = await relay.createWebhook({ name: "GalaCord relay" });
    await post("faults", { rest429: { count: 1, retryAfterMs: 200 } });
    await hook.send({ content: "limited", username: "Nick" });
    const { sent } = await get<{ sent: Sent[] }>("sent");
    expect(sent.map((s) => [s.kind, s.username, s.content])).toEqual([["webhook", "Nick", "limited"]]);
  });

  it("heartbeats are acknowledged (no zombie-connection reconnects)", async () => {
    const client = await loggedIn();
    await new Promise((r) => setTimeout(r, 2500));
    const gw = await get<{ events: { kind: string }[] }>("gateway");
    expect(gw.events.filter((e) => e.kind === "heartbeat").length).toBeGreaterThanOrEqual(2);
    expect(gw.events.filter((e) => e.kind === "close")).toHaveLength(0);
    expect(client.ws.ping).toBeGreaterThanOrEqual(0);
  });

  it("token refused on Identify (close 4004) → login rejects", async () => {
    await post("faults", { identifyCloseCode: 4004 });
    const client = newClient();
    await expect(client.login(sim.token)).rejects.toThrow(/Authentication failed/);
  });

  it("a wrong token → GET /gateway/bot 401 → login rejects with TokenInvalid", async () => {
    const client = newClient();
    await expect(client.login("not-the-token")).rejects.toThrow(/invalid token/i);
  });

  it("a dead gateway accepts the socket and never says Hello", async () => {
    await post("faults", { deadGateway: true });
    const ws = new WebSocket(`${sim.gatewayUrl}?v=10&encoding=json`);
    const frames: string[] = [];
    ws.on("message", (d) => frames.push(String(d)));
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    await new Promise((r) => setTimeout(r, 600));
    expect(frames).toEqual([]);
    ws.terminate();
    await post("faults", { deadGateway: false });
    const live = new WebSocket(`${sim.gatewayUrl}?v=10&encoding=json`);
    const hello = await new Promise<string>((resolve) => live.once("message", (d) => resolve(String(d))));
    expect(JSON.parse(hello)).toEqual(expect.objectContaining({ op: 10, d: { heartbeat_interval: 1000 } }));
    live.terminate();
  });

  it("REST speaks Discord's errors: 401 without the token, 404 unknown channel, JSON {message, code}", async () => {
    const noAuth = await fetch(`${sim.restUrl}/channels/${GENERAL}`);
    expect(noAuth.status).toBe(401);
    expect(await noAuth.json()).toEqual({ message: "401: Unauthorized", code: 0 });
    const unknown = await fetch(`${sim.restUrl}/channels/1180000000000009999`, { headers: { authorization: `Bot ${sim.token}` } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "Unknown Channel", code: 10003 });
    const gw = await fetch(`${sim.restUrl}/gateway/bot`, { headers: { authorization: `Bot ${sim.token}` } });
    expect(await gw.json()).toEqual(expect.objectContaining({ url: sim.gatewayUrl, shards: 1 }));
  });

  it("control endpoint rejects bad input with 400 {error, message} and unknown channels with 404", async () => {
    expect((await post("messages", { channelId: GENERAL })).status).toBe(400);
    expect((await post("messages", { channelId: "1", content: "x" })).status).toBe(404);
    expect((await post("faults", { identifyCloseCode: 1234 })).status).toBe(400);
    expect((await post("gateway", { action: "explode" })).body).toEqual(expect.objectContaining({ error: "bad_request" }));
  });
});
