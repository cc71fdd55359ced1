/**
 * The Discord simulator spoken to by a second, independent client library: oceanic.js (not built
 * on discord.js or @discordjs/*; its own REST client, rate-limit buckets and gateway shard). Its
 * configuration differs from a real bot's only in the URLs: `rest.baseURL` points at the simulator,
 * and the gateway URL comes from `GET /gateway/bot` as on Discord (issue 22 A "A faithful Discord peer").
 */
import { Client, type Message, type TextChannel } from "oceanic.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDiscordSimulator, type DiscordSimulator } from "./server";
import { SEED } from "./state";

let sim: DiscordSimulator;
const clients: Client[] = [];
const GENERAL = SEED.guilds[0].channels[0].id;
const RELAY = SEED.guilds[0].channels[1].id;
const FANS = SEED.guilds[0].id;

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0, heartbeatIntervalMs: 1000 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await control("reset", {});
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.disconnect(false);
  // The next test's records start empty only once these sockets are really gone.
  await until("sockets closed", () => sim.gateway.openCount() === 0);
});

async function control(path: string, body: unknown) {
  const res = await fetch(`${sim.controlUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
async function get<T = Record<string, unknown>>(path: string) {
  return (await (await fetch(`${sim.controlUrl}${path}`)).json()) as T;
}
type GatewayLog = { events: { kind: string; code?: number; path?: string }[]; sessions: { sessionId: string; connected: boolean }[] };
const gatewayLog = () => get<GatewayLog>("gateway");
async function until<T>(what: string, check: () => Promise<T | false | undefined> | T | false | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A stock oceanic.js Client; only the URL differs from a real bot's configuration. `errors` collects
 * what the library reports on its "error" event (it throws without a listener).
 */
function newClient(baseURL = sim.restUrl) {
  const client = new Client({
    auth: `Bot ${sim.token}`,
    rest: { baseURL },
    gateway: { intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"] },
  });
  const errors: unknown[] = [];
  client.on("error", (e) => errors.push(e));
  clients.push(client);
  return { client, errors };
}
async function connected(baseURL?: string) {
  const c = newClient(baseURL);
  const ready = new Promise<void>((resolve) => c.client.once("ready", () => resolve()));
  await c.client.connect();
  await ready;
  return c;
}
function nextMessage(client: Client, match: (m: Message) => boolean) {
  return new Promise<Message>((resolve) => {
    const on = (m: Message) => {
      if (!match(m)) return;
      client.off("messageCreate", on);
      resolve(m);
    };
    client.on("messageCreate", on);
  });
}

describe("Discord simulator with oceanic.js (only URLs changed)", () => {
  it("connects: READY and a GUILD_CREATE per guild build its cache (roles with colors, channels, members, permissions)", async () => {
    const { client, errors } = await connected();
    expect(client.user.id).toBe(SEED.botId);
    expect(client.user.bot).toBe(true);
    expect(client.guilds.map((g) => g.id).sort()).toEqual(SEED.guilds.map((g) => g.id).sort());
    const fans = client.guilds.get(FANS)!;
    expect(fans.name).toBe("Galaxy Fans");
    expect(fans.roles.size).toBe(2);
    expect(fans.channels.map((c) => c.name).sort()).toEqual(["general", "off-topic", "relay"]);
    const relay = client.getChannel<TextChannel>(RELAY)!;
    expect(relay.permissionsOf(SEED.botId).has("MANAGE_WEBHOOKS")).toBe(true);
    // It asked for the gateway as Discord's URL would be used: "/" appended before "?v=10&encoding=json".
    const gw = await gatewayLog();
    expect(gw.events.find((e) => e.kind === "open")?.path).toBe("/gateway/");
    expect(errors).toEqual([]);
  });

  it("sends, edits and deletes messages over REST; each comes back over the gateway", async () => {
    const { client, errors } = await connected();
    const own = nextMessage(client, (m) => m.content === "hello from oceanic");
    const sent = await client.rest.channels.createMessage(RELAY, {
      content: "hello from oceanic",
      allowedMentions: { everyone: false, roles: false, users: false },
    });
    expect(sent.id).toMatch(/^\d{17,20}$/);
    expect((await own).author.id).toBe(SEED.botId);

    const updated = new Promise<Message>((resolve) => client.once("messageUpdate", (m) => resolve(m)));
    const edited = await client.rest.channels.editMessage(RELAY, sent.id, { content: "hello (edited)" });
    expect(edited.content).toBe("hello (edited)");
    expect(edited.editedTimestamp).not.toBeNull();
    expect((await updated).content).toBe("hello (edited)");

    const deleted = new Promise<string>((resolve) => client.once("messageDelete", (m) => resolve(m.id)));
    await client.rest.channels.deleteMessage(RELAY, sent.id);
    expect(await deleted).toBe(sent.id);

    const rec = await get<{ sent: { content: string; kind: string }[]; edits: { id: string }[]; deletes: { id: string }[] }>(`sent?channelId=${RELAY}`);
    expect(rec.sent.map((s) => [s.kind, s.content])).toEqual([["message", "hello from oceanic"]]);
    expect(rec.edits.map((e) => e.id)).toEqual([sent.id]);
    expect(rec.deletes.map((e) => e.id)).toEqual([sent.id]);
    expect(errors).toEqual([]);
  });

  it("replies carry the referenced message; a bulk delete arrives as one event", async () => {
    const { client } = await connected();
    const first = await client.rest.channels.createMessage(RELAY, { content: "first" });
    const reply = await client.rest.channels.createMessage(RELAY, { content: "a reply", messageReference: { messageID: first.id } });
    expect(reply.referencedMessage?.id).toBe(first.id);
    expect(reply.messageReference?.messageID).toBe(first.id);
    await expect(client.rest.channels.createMessage(RELAY, { content: "x", messageReference: { messageID: "1180000000000009999" } })).rejects.toMatchObject({
      code: 50035,
    });
    const bulk = new Promise<string[]>((resolve) => client.once("messageDeleteBulk", (ms) => resolve(ms.map((m) => m.id))));
    await client.rest.channels.deleteMessages(RELAY, [first.id, reply.id]);
    expect((await bulk).sort()).toEqual([first.id, reply.id].sort());
  });

  it("receives a user's MESSAGE_CREATE with author, member and content", async () => {
    const { client } = await connected();
    const got = nextMessage(client, (m) => !m.author.bot);
    const posted = await control("messages", { channelId: GENERAL, username: "bob", content: "hi from bob" });
    const m = await got;
    expect(m.id).toBe(posted.body.id);
    expect(m.author.username).toBe("bob");
    expect(m.content).toBe("hi from bob");
    expect(m.guildID).toBe(FANS);
    expect(m.member?.id).toBe(SEED.users[1].id);
  });

  it("a user's reply with a file and a bot's embed arrive as Discord shapes them; a link preview is an update without edited_timestamp", async () => {
    const { client } = await connected();
    const first = await control("messages", { channelId: GENERAL, username: "alice", content: "look at this https://example.org/x" });
    const got = nextMessage(client, (m) => m.content === "my answer");
    await control("messages", {
      channelId: GENERAL,
      username: "bob",
      content: "my answer",
      replyTo: first.body.id,
      attachments: [{ filename: "cat pic.png" }],
    });
    const reply = await got;
    expect(reply.type).toBe(19);
    expect(reply.messageReference?.messageID).toBe(first.body.id);
    expect(reply.referencedMessage?.content).toBe("look at this https://example.org/x");
    expect(reply.attachments.size).toBe(1);
    const file = [...reply.attachments.values()][0];
    expect(file.filename).toBe("cat pic.png");
    expect(file.url).toMatch(
      new RegExp(`^https://cdn\\.discordapp\\.com/attachments/${GENERAL}/\\d{17,20}/cat%20pic\\.png\\?ex=[0-9a-f]+&is=[0-9a-f]+&hm=[0-9a-f]{64}&$`),
    );
    const embed = await client.rest.channels.createMessage(GENERAL, { embeds: [{ title: "Patch notes", url: "https://example.org/notes" }] });
    expect(embed.embeds).toEqual([expect.objectContaining({ title: "Patch notes", url: "https://example.org/notes", type: "rich" })]);

    const updated = new Promise<{ edited: Date | null; embeds: number }>((resolve) =>
      client.once("messageUpdate", (m) => resolve({ edited: m.editedTimestamp, embeds: m.embeds.length })),
    );
    await control("messages/edit", { channelId: GENERAL, messageId: first.body.id, embeds: [{ title: "Example", url: "https://example.org/x" }] });
    expect(await updated).toEqual({ edited: null, embeds: 1 });
    expect((await control("messages", { channelId: GENERAL, username: "bob", content: "" })).status).toBe(400);
  });
  it("executes a webhook with a custom username (wait=true), then edits and deletes the webhook's message", async () => {
    const { client, errors } = await connected();
    const hook = await client.rest.webhooks.create(RELAY, { name: "GalaCord relay" });
    expect(hook.token).toHaveLength(68);
    const arrived = nextMessage(client, (m) => m.webhookID === hook.id);
    const msg = await client.rest.webhooks.execute(hook.id, hook.token!, { content: "from the planet", username: "StarNick", wait: true });
    expect(msg.author.username).toBe("StarNick");
    expect((await arrived).content).toBe("from the planet");
    const edited = await client.rest.webhooks.editMessage(hook.id, hook.token!, msg.id, { content: "from the planet (fixed)" });
    expect(edited.content).toBe("from the planet (fixed)");
    await client.rest.webhooks.deleteMessage(hook.id, hook.token!, msg.id);
    const { sent } = await get<{ sent: { kind: string; username: string; content: string }[] }>(`sent?channelId=${RELAY}`);
    expect(sent.map((s) => [s.kind, s.username, s.content])).toEqual([["webhook", "StarNick", "from the planet"]]);
    // An unknown webhook is Discord's 404 "Unknown Webhook" (10015), surfaced by the library as such.
    await expect(client.rest.webhooks.execute("1180000000000009999", "x".repeat(68), { content: "nope", wait: true })).rejects.toMatchObject({
      code: 10015,
      status: 404,
    });
    expect(errors).toEqual([]);
  });

  it("heartbeats are acknowledged; a heartbeat request (op 1) is answered at once", async () => {
    const { client } = await connected();
    await until("two heartbeats", async () => (await gatewayLog()).events.filter((e) => e.kind === "heartbeat").length >= 2);
    expect(client.shards.get(0)!.latency).toBeLessThan(1000);
    const before = (await gatewayLog()).events.filter((e) => e.kind === "heartbeat").length;
    const t0 = Date.now();
    expect((await control("gateway", { action: "heartbeat" })).body.sockets).toBe(1);
    await until("a requested heartbeat", async () => (await gatewayLog()).events.filter((e) => e.kind === "heartbeat").length > before);
    expect(Date.now() - t0).toBeLessThan(900);
    expect((await gatewayLog()).events.filter((e) => e.kind === "close")).toEqual([]);
  });

  it("resumes after a resumable close (4000) with the missed events replayed, and after op 7 on resume_gateway_url", async () => {
    const { client } = await connected();
    const resumed = new Promise<void>((resolve) => client.once("shardResume", () => resolve()));
    await control("gateway", { action: "close", code: 4000 });
    await control("messages", { channelId: GENERAL, username: "alice", content: "while you were away" });
    const replayed = nextMessage(client, (m) => m.content === "while you were away");
    await resumed;
    await replayed;

    const again = new Promise<void>((resolve) => client.once("shardResume", () => resolve()));
    await control("gateway", { action: "reconnect" });
    await again;
    const gw = await gatewayLog();
    expect(gw.events.filter((e) => e.kind === "identify")).toHaveLength(1);
    expect(gw.events.filter((e) => e.kind === "resume")).toHaveLength(2);
    expect(gw.events.filter((e) => e.kind === "open").map((e) => e.path)).toEqual(["/gateway/", "/gateway-resume/", "/gateway-resume/"]);
    const after = nextMessage(client, (m) => m.content === "after resume");
    await control("messages", { channelId: GENERAL, username: "carol", content: "after resume" });
    expect((await after).author.username).toBe("carol");
  });

  it("a client that stops heartbeating is closed with 4009 and resumes its session", async () => {
    const { client } = await connected();
    const shard = client.shards.get(0)! as unknown as { _heartbeatInterval: NodeJS.Timeout | null };
    // A zombie client: its heartbeat timer stops (fault injection on the client side only).
    clearInterval(shard._heartbeatInterval!);
    const resumed = new Promise<void>((resolve) => client.once("shardResume", () => resolve()));
    await resumed;
    const gw = await gatewayLog();
    expect(gw.events.filter((e) => e.kind === "close").map((e) => e.code)).toEqual([4009]);
    expect(gw.events.filter((e) => e.kind === "heartbeat-timeout")).toHaveLength(1);
    expect(gw.events.filter((e) => e.kind === "resume")).toHaveLength(1);
  });

  it("re-identifies when the session is invalidated (op 9 false) and when a resume is refused; resumes on op 9 true", async () => {
    const { client } = await connected();
    const identifies = async (n: number) => (await gatewayLog()).events.filter((e) => e.kind === "identify").length === n;
    await control("gateway", { action: "invalidate", resumable: false });
    // oceanic identifies anew on the same socket (its shard stays "ready", so no new ready event).
    await until("a second identify", () => identifies(2));
    const first = nextMessage(client, (m) => m.content === "after op 9");
    await control("messages", { channelId: GENERAL, username: "bob", content: "after op 9" });
    await first;

    const resumed = new Promise<void>((resolve) => client.once("shardResume", () => resolve()));
    await control("gateway", { action: "invalidate", resumable: true });
    await resumed;
    expect((await gatewayLog()).events.filter((e) => e.kind === "resume")).toHaveLength(1);

    // The sessions are forgotten while the socket is down: the resume is refused, the library identifies anew.
    await control("gateway", { action: "close", code: 4000, forget: true });
    await until("a third identify", () => identifies(3));
    const gw = await gatewayLog();
    expect(gw.events.filter((e) => e.kind === "resume-refused")).toHaveLength(1);
    expect(gw.events.filter((e) => e.kind === "identify")).toHaveLength(3);
    const after = nextMessage(client, (m) => m.content === "new session");
    await control("messages", { channelId: GENERAL, username: "bob", content: "new session" });
    await after;
  });

  it("paces a burst by the X-RateLimit headers: six sends on a 2-per-second bucket, no 429 answered, order kept", async () => {
    const { client } = await connected();
    await control("ratelimits", { buckets: { "POST /channels/:channel/messages": { limit: 2, windowMs: 1000 } } });
    const t0 = Date.now();
    const texts = Array.from({ length: 6 }, (_, i) => `burst ${i}`);
    await Promise.all(texts.map((content) => client.rest.channels.createMessage(RELAY, { content })));
    // Three windows of two: at least two full windows waited.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
    const { sent } = await get<{ sent: { content: string }[] }>(`sent?channelId=${RELAY}`);
    expect(sent.map((s) => s.content)).toEqual(texts);
    expect((await get<{ hits: unknown[] }>("ratelimits")).hits).toEqual([]);
  });

  it("a 429 with Retry-After and X-RateLimit-Reset-After is waited out and retried: the message lands once", async () => {
    const { client } = await connected();
    await control("faults", { rest429: { count: 2, retryAfterMs: 300 } });
    const t0 = Date.now();
    await client.rest.channels.createMessage(RELAY, { content: "after the limit" });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(550);
    const { sent } = await get<{ sent: { content: string }[] }>("sent");
    expect(sent.map((s) => s.content)).toEqual(["after the limit"]);
  });

  it("with its zlib-stream transport compression switched on (node's zlib) it connects and receives as before", async () => {
    const client = new Client({
      auth: `Bot ${sim.token}`,
      rest: { baseURL: sim.restUrl },
      gateway: { intents: ["GUILDS", "GUILD_MESSAGES", "MESSAGE_CONTENT"], compress: "zlib-stream" },
    });
    const errors: unknown[] = [];
    client.on("error", (e) => errors.push(e));
    clients.push(client);
    const ready = new Promise<void>((resolve) => client.once("ready", () => resolve()));
    await client.connect();
    await ready;
    expect(client.guilds.size).toBe(2);
    const got = nextMessage(client, (m) => m.content === "compressed hello");
    await control("messages", { channelId: GENERAL, username: "alice", content: "compressed hello" });
    await got;
    expect(errors).toEqual([]);
    expect((await get<{ events: { kind: string; compress?: string }[] }>("gateway")).events.find((e) => e.kind === "open")?.compress).toBe("zlib-stream");
  });

  it("REST on API v9 works the same (only the base URL differs)", async () => {
    const { client } = await connected(`${sim.url}/api/v9`);
    const got = await client.rest.channels.createMessage(RELAY, { content: "on v9" });
    expect(got.content).toBe("on v9");
    expect((await client.rest.channels.get(RELAY)).id).toBe(RELAY);
  });

  it("a privileged intent the application has not enabled closes the gateway with 4014 and the library stops", async () => {
    await control("application", { privilegedIntents: { messageContent: false } });
    const { client, errors } = newClient();
    const stopped = new Promise<void>((resolve) => client.once("disconnect", () => resolve()));
    await client.connect();
    await stopped;
    expect(errors.map((e) => (e as { code?: number }).code)).toContain(4014);
    expect((await gatewayLog()).events.filter((e) => e.kind === "refused").map((e) => e.code)).toEqual([4014]);
  });
});
