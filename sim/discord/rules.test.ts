/**
 * Discord's rules that the simulator enforces, spoken to over raw WebSocket and HTTP (no client
 * library in between, so each rule is seen exactly as Discord states it). docs/discord-simulator.md
 * names the Discord developer docs section behind each one.
 */
import zlib from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startDiscordSimulator, type DiscordSimulator } from "./server";
import { SEED } from "./state";

let sim: DiscordSimulator;
const GENERAL = SEED.guilds[0].channels[0].id;
const RELAY = SEED.guilds[0].channels[1].id;
const INTENTS = 1 | 512 | 32768;

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0, heartbeatIntervalMs: 1000 });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await control("reset", {});
});

async function control(path: string, body: unknown) {
  const res = await fetch(`${sim.controlUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return (await res.json()) as Record<string, unknown>;
}

type Frame = { op: number; d: unknown; s: number | null; t: string | null };
/** A raw gateway socket: every frame it got, a wait for the next matching one, and how it closed. */
function raw(url: string) {
  const ws = new WebSocket(url);
  const frames: Frame[] = [];
  const waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  ws.on("message", (data) => {
    const f = JSON.parse(String(data)) as Frame;
    frames.push(f);
    for (const w of [...waiters]) {
      if (w.match(f)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(f);
      }
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  ws.on("error", () => undefined);
  const next = (match: (f: Frame) => boolean) =>
    new Promise<Frame>((resolve) => {
      const seen = frames.find(match);
      if (seen) return resolve(seen);
      waiters.push({ match, resolve });
    });
  /** Resolves once `n` frames match (counting those already received). */
  const nth = async (match: (f: Frame) => boolean, n: number) => {
    for (let i = 0; i < 200 && frames.filter(match).length < n; i++) await new Promise((r) => setTimeout(r, 25));
    return frames.filter(match)[n - 1];
  };
  const send = (op: number, d: unknown) => ws.send(JSON.stringify({ op, d }));
  return { ws, frames, next, nth, closed, send, hello: next((f) => f.op === 10) };
}
const gw = (query = "?v=10&encoding=json", path = "/gateway") => raw(`${sim.url.replace("http", "ws")}${path}${query}`);
const identify = (c: ReturnType<typeof raw>, extra: Record<string, unknown> = {}) =>
  c.send(2, { token: sim.token, intents: INTENTS, properties: { os: "linux", browser: "raw", device: "raw" }, ...extra });
async function ready(query?: string) {
  const c = gw(query);
  await c.hello;
  identify(c);
  const r = await c.next((f) => f.t === "READY");
  return { c, ready: r.d as { session_id: string; v: number; guilds: { id: string }[] } };
}

const api = (path: string, init: RequestInit & { auth?: boolean } = {}) =>
  fetch(`${sim.url}/api${path}`, {
    ...init,
    headers: {
      ...(init.auth === false ? {} : { authorization: `Bot ${sim.token}` }),
      ...(init.body ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
  });
const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

describe("gateway rules", () => {
  it("the gateway answers with and without a trailing slash; v=9 and v=10 are spoken, any other version is closed 4012", async () => {
    for (const path of ["/gateway", "/gateway/", "/gateway-resume/"]) {
      const c = gw("?v=10&encoding=json", path);
      expect((await c.hello).d).toEqual({ heartbeat_interval: 1000 });
      c.ws.terminate();
    }
    const v9 = await ready("?v=9&encoding=json");
    expect(v9.ready.v).toBe(9);
    v9.c.ws.close(1000);
    for (const query of ["?v=8&encoding=json", "?v=11&encoding=json", "?encoding=json"]) {
      expect((await gw(query).closed).code).toBe(4012);
    }
    expect((await gw("?v=10&encoding=etf").closed).code).toBe(4002);
  });

  it("compress=zlib-stream: binary frames from one zlib context, each ending in the Z_SYNC_FLUSH suffix; zstd-stream is refused", async () => {
    const ws = new WebSocket(`${sim.gatewayUrl}?v=10&encoding=json&compress=zlib-stream`);
    const chunks: Buffer[] = [];
    const texts: string[] = [];
    let inflated = 0;
    ws.on("message", (data, isBinary) => {
      expect(isBinary).toBe(true);
      const buf = data as Buffer;
      expect([...buf.subarray(-4)]).toEqual([0x00, 0x00, 0xff, 0xff]);
      chunks.push(buf);
      // The whole stream so far, inflated with a sync flush; the new tail is this frame's payload.
      const all = zlib.inflateSync(Buffer.concat(chunks), { finishFlush: zlib.constants.Z_SYNC_FLUSH });
      texts.push(all.subarray(inflated).toString("utf8"));
      inflated = all.length;
    });
    await new Promise((r) => ws.once("open", r));
    for (let i = 0; i < 100 && texts.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(texts[0])).toEqual({ op: 10, d: { heartbeat_interval: 1000 }, s: null, t: null });
    ws.send(JSON.stringify({ op: 2, d: { token: sim.token, intents: INTENTS, properties: {} } }));
    for (let i = 0; i < 100 && texts.length < 4; i++) await new Promise((r) => setTimeout(r, 20));
    expect(texts.slice(1).map((t) => (JSON.parse(t) as Frame).t)).toEqual(["READY", "GUILD_CREATE", "GUILD_CREATE"]);
    ws.close(1000);
    expect((await gw("?v=10&encoding=json&compress=zstd-stream").closed).code).toBe(4000);
  });

  it("4001 unknown opcode, 4002 undecodable or over 4096 bytes, 4003 before identifying, 4005 a second identify", async () => {
    const unknown = gw();
    await unknown.hello;
    unknown.send(5, null);
    expect((await unknown.closed).code).toBe(4001);

    const received = gw();
    await received.hello;
    received.send(11, null); // a receive-only opcode sent by the client
    expect((await received.closed).code).toBe(4001);

    const garbage = gw();
    await garbage.hello;
    garbage.ws.send("{not json");
    expect((await garbage.closed).code).toBe(4002);

    const big = gw();
    await big.hello;
    big.send(3, { since: null, activities: [{ name: "x".repeat(5000), type: 0 }], status: "online", afk: false });
    expect((await big.closed).code).toBe(4002);

    const early = gw();
    await early.hello;
    early.send(3, { since: null, activities: [], status: "online", afk: false });
    expect((await early.closed).code).toBe(4003);

    const { c } = await ready();
    identify(c);
    expect((await c.closed).code).toBe(4005);
  });

  it("Identify: 4004 a wrong token, 4013 missing or unknown intent bits, 4014 a privileged intent the app has not enabled, 4010 an invalid shard", async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ token: "wrong" }, 4004],
      [{ intents: undefined }, 4013],
      [{ intents: 1 << 30 }, 4013],
      [{ shard: [1, 1] }, 4010],
      [{ shard: [0, 0] }, 4010],
    ];
    for (const [extra, code] of cases) {
      const c = gw();
      await c.hello;
      identify(c, extra);
      expect((await c.closed).code, JSON.stringify(extra)).toBe(code);
    }
    await control("application", { privilegedIntents: { messageContent: false } });
    const c = gw();
    await c.hello;
    identify(c);
    expect((await c.closed).code).toBe(4014);
    // Without the privileged intent it identifies fine, and READY's application flags say which are enabled.
    const ok = gw();
    await ok.hello;
    identify(ok, { intents: 1 | 512 });
    const r = (await ok.next((f) => f.t === "READY")).d as { application: { flags: number } };
    expect(r.application.flags & (1 << 19)).toBe(0);
    expect(r.application.flags & (1 << 15)).toBe(1 << 15);
    ok.ws.close(1000);
  });

  it("4008 over 120 events a minute (heartbeats not counted)", async () => {
    const { c } = await ready();
    for (let i = 0; i < 121; i++) c.send(3, { since: null, activities: [], status: "online", afk: false });
    expect((await c.closed).code).toBe(4008);
  });

  it("heartbeats are acknowledged; a socket that misses them is closed 4009 and its session stays resumable", async () => {
    const fast = await startDiscordSimulator({ port: 0, heartbeatIntervalMs: 200, heartbeatTimeoutMs: 400 });
    try {
      const c = raw(`${fast.gatewayUrl}?v=10&encoding=json`);
      await c.hello;
      c.send(2, { token: fast.token, intents: INTENTS, properties: {} });
      const r = (await c.next((f) => f.t === "READY")).d as { session_id: string };
      c.send(1, 1);
      expect(await c.next((f) => f.op === 11)).toEqual({ op: 11, d: null, s: null, t: null });
      // No more heartbeats: closed with "Session timed out".
      expect((await c.closed).code).toBe(4009);
      const again = raw(`${fast.url.replace("http", "ws")}/gateway-resume?v=10&encoding=json`);
      await again.hello;
      again.send(6, { token: fast.token, session_id: r.session_id, seq: 1 });
      expect((await again.next((f) => f.t === "RESUMED")).op).toBe(0);
      again.ws.close(1000);
    } finally {
      await fast.close();
    }
  });

  it("Resume: missed events replayed then RESUMED; a seq the session never reached is 4007; an expired or unknown session gets op 9 false", async () => {
    const short = await startDiscordSimulator({ port: 0, heartbeatIntervalMs: 1000, sessionTimeoutMs: 300 });
    try {
      const url = `${short.url.replace("http", "ws")}/gateway?v=10&encoding=json`;
      const c = raw(url);
      await c.hello;
      c.send(2, { token: short.token, intents: INTENTS, properties: {} });
      const r = (await c.next((f) => f.t === "READY")).d as { session_id: string };
      const last = (await c.next((f) => f.t === "GUILD_CREATE" && (f.d as { id: string }).id === SEED.guilds[1].id)).s!;
      c.ws.terminate();
      await c.closed;
      await fetch(`${short.controlUrl}messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ channelId: GENERAL, username: "alice", content: "missed" }),
      });

      const beyond = raw(url);
      await beyond.hello;
      beyond.send(6, { token: short.token, session_id: r.session_id, seq: last + 5 });
      expect((await beyond.closed).code).toBe(4007);

      const back = raw(url);
      await back.hello;
      back.send(6, { token: short.token, session_id: r.session_id, seq: last });
      const replayed = await back.next((f) => f.t === "MESSAGE_CREATE");
      expect(replayed.s).toBe(last + 1);
      expect((replayed.d as { content: string }).content).toBe("missed");
      expect((await back.next((f) => f.t === "RESUMED")).s).toBe(last + 2);
      back.ws.terminate();
      await back.closed;

      // The session expires 300 ms after its socket is gone.
      await new Promise((res) => setTimeout(res, 600));
      const late = raw(url);
      await late.hello;
      late.send(6, { token: short.token, session_id: r.session_id, seq: last + 2 });
      expect((await late.next((f) => f.op === 9)).d).toBe(false);
      late.send(6, { token: short.token, session_id: "nope", seq: 0 });
      late.ws.close(1000);
    } finally {
      await short.close();
    }
  });

  it("op 9 from the gateway carries whether the session can be resumed; op 1 asks for a heartbeat", async () => {
    const { c, ready: r } = await ready();
    await control("gateway", { action: "heartbeat" });
    expect((await c.next((f) => f.op === 1)).d).toBeNull();
    await control("gateway", { action: "invalidate", resumable: true });
    expect((await c.next((f) => f.op === 9)).d).toBe(true);
    // The socket is no longer authenticated: a Resume on it works.
    c.send(6, { token: sim.token, session_id: r.session_id, seq: 3 });
    await c.next((f) => f.t === "RESUMED");
    await control("gateway", { action: "invalidate", resumable: false });
    expect((await c.nth((f) => f.op === 9, 2)).d).toBe(false);
    // Not resumable: the session is gone, a Resume is refused.
    c.send(6, { token: sim.token, session_id: r.session_id, seq: 3 });
    expect((await c.nth((f) => f.op === 9, 3)).d).toBe(false);
    c.ws.close(1000);
  });

  it("shards: each guild goes to shard (guild_id >> 22) % num_shards, its messages too", async () => {
    const shards = await Promise.all(
      [0, 1].map(async (id) => {
        const c = gw();
        await c.hello;
        identify(c, { shard: [id, 2] });
        const r = (await c.next((f) => f.t === "READY")).d as { guilds: { id: string }[]; shard: number[] };
        return { c, id, guilds: r.guilds.map((g) => g.id), shard: r.shard };
      }),
    );
    const expected = (id: number) => SEED.guilds.filter((g) => Number((BigInt(g.id) >> 22n) % 2n) === id).map((g) => g.id);
    for (const s of shards) {
      expect(s.guilds).toEqual(expected(s.id));
      expect(s.shard).toEqual([s.id, 2]);
    }
    const home = shards.find((s) => s.guilds.includes(SEED.guilds[0].id))!;
    const other = shards.find((s) => s !== home)!;
    await control("messages", { channelId: GENERAL, username: "bob", content: "sharded" });
    await home.c.next((f) => f.t === "MESSAGE_CREATE");
    await new Promise((r) => setTimeout(r, 100));
    expect(other.c.frames.filter((f) => f.t === "MESSAGE_CREATE")).toEqual([]);
    for (const s of shards) s.c.ws.close(1000);
  });

  it("Request Guild Members (op 8) answers a GUILD_MEMBERS_CHUNK with the nonce", async () => {
    const { c } = await ready();
    c.send(8, { guild_id: SEED.guilds[0].id, query: "al", limit: 10, nonce: "n1" });
    const chunk = (await c.next((f) => f.t === "GUILD_MEMBERS_CHUNK")).d as { members: { user: { username: string } }[]; nonce: string };
    expect(chunk.members.map((m) => m.user.username)).toEqual(["alice"]);
    expect(chunk.nonce).toBe("n1");
    c.ws.close(1000);
  });

  it("without MESSAGE_CONTENT others' content is empty unless the bot is mentioned; the bot's own is kept", async () => {
    const c = gw();
    await c.hello;
    identify(c, { intents: 1 | 512 });
    await c.next((f) => f.t === "READY");
    await control("messages", { channelId: GENERAL, username: "bob", content: "secret" });
    await control("messages", { channelId: GENERAL, username: "bob", content: `hey <@${SEED.botId}>` });
    await api(`/v10/channels/${GENERAL}/messages`, { method: "POST", body: JSON.stringify({ content: "mine" }) });
    await c.next((f) => f.t === "MESSAGE_CREATE" && (f.d as { author: { id: string } }).author.id === SEED.botId);
    const contents = c.frames.filter((f) => f.t === "MESSAGE_CREATE").map((f) => (f.d as { content: string }).content);
    expect(contents).toEqual(["", `hey <@${SEED.botId}>`, "mine"]);
    c.ws.close(1000);
  });
});

describe("REST rules", () => {
  it("GET /gateway needs no authorization; /gateway/bot does; session_start_limit counts identifies", async () => {
    const open = await api("/v10/gateway", { auth: false });
    expect(open.status).toBe(200);
    expect(await json(open)).toEqual({ url: sim.gatewayUrl });
    expect((await api("/v10/gateway/bot", { auth: false })).status).toBe(401);
    const before = (await json(await api("/v10/gateway/bot"))).session_start_limit as { remaining: number; total: number };
    const { c } = await ready();
    c.ws.close(1000);
    const after = (await json(await api("/v10/gateway/bot"))).session_start_limit as { remaining: number; total: number };
    expect(after.remaining).toBe(before.remaining - 1);
    expect(after.total).toBe(1000);
  });

  it("v9 and v10 are spoken; other versions and no version are 400 Invalid API version (50041); unknown routes 404; a wrong method 405", async () => {
    for (const v of ["v9", "v10"]) expect(((await json(await api(`/${v}/users/@me`))) as { id: string }).id).toBe(SEED.botId);
    for (const path of ["/v8/users/@me", "/v11/users/@me", "/v5/users/@me", "/users/@me"]) {
      const res = await api(path);
      expect(res.status, path).toBe(400);
      expect(await json(res)).toEqual({ message: "Invalid API version", code: 50041 });
    }
    const missing = await api("/v10/nothing/here");
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ message: "404: Not Found", code: 0 });
    for (const [method, path] of [
      ["DELETE", "/v10/gateway"],
      ["PUT", `/v10/channels/${RELAY}/messages`],
      ["POST", "/v10/users/@me"],
    ]) {
      const res = await api(path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(await json(res)).toEqual({ message: "405: Method Not Allowed", code: 0 });
    }
  });

  it("50035 Invalid Form Body carries an errors tree; invalid JSON is 50109; a wrong Content-Type 50035", async () => {
    const long = await api(`/v10/channels/${RELAY}/messages`, { method: "POST", body: JSON.stringify({ content: "x".repeat(2001) }) });
    expect(long.status).toBe(400);
    expect(await json(long)).toEqual({
      code: 50035,
      message: "Invalid Form Body",
      errors: { content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 2000 or fewer in length." }] } },
    });
    const notSnowflake = await api("/v10/channels/general/messages", { method: "POST", body: JSON.stringify({ content: "x" }) });
    expect(await json(notSnowflake)).toEqual({
      code: 50035,
      message: "Invalid Form Body",
      errors: { channel_id: { _errors: [{ code: "NUMBER_TYPE_COERCE", message: 'Value "general" is not snowflake.' }] } },
    });
    const badJson = await api(`/v10/channels/${RELAY}/messages`, { method: "POST", body: "{oops" });
    expect(await json(badJson)).toEqual({ message: "The request body contains invalid JSON.", code: 50109 });
    const text = await api(`/v10/channels/${RELAY}/messages`, { method: "POST", body: "hello", headers: { "content-type": "text/plain" } });
    expect(text.status).toBe(400);
    expect(((await json(text)).errors as { _errors: { code: string }[] })._errors[0].code).toBe("CONTENT_TYPE_INVALID");
    const empty = await api(`/v10/channels/${RELAY}/messages`, { method: "POST", body: JSON.stringify({ content: "" }) });
    expect(await json(empty)).toEqual({ message: "Cannot send an empty message", code: 50006 });
  });

  it("webhooks: an unknown webhook is 404 Unknown Webhook (10015), a wrong token 401 50027, a username with 'discord' 50035", async () => {
    const hook = (await json(await api(`/v10/channels/${RELAY}/webhooks`, { method: "POST", body: JSON.stringify({ name: "relay" }) }))) as {
      id: string;
      token: string;
    };
    const unknown = await api(`/v10/webhooks/1180000000000009999/${"x".repeat(68)}?wait=true`, {
      method: "POST",
      auth: false,
      body: JSON.stringify({ content: "x" }),
    });
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({ message: "Unknown Webhook", code: 10015 });
    expect((await api("/v10/webhooks/1180000000000009999")).status).toBe(404);
    const wrong = await api(`/v10/webhooks/${hook.id}/${"y".repeat(68)}`, { method: "POST", auth: false, body: JSON.stringify({ content: "x" }) });
    expect(wrong.status).toBe(401);
    expect(await json(wrong)).toEqual({ message: "Invalid Webhook Token", code: 50027 });
    const named = await api(`/v10/webhooks/${hook.id}/${hook.token}?wait=true`, {
      method: "POST",
      auth: false,
      body: JSON.stringify({ content: "x", username: "Discord fan" }),
    });
    expect(named.status).toBe(400);
    expect(((await json(named)).errors as Record<string, unknown>).username).toBeDefined();
    const fine = await api(`/v10/webhooks/${hook.id}/${hook.token}?wait=True`, {
      method: "POST",
      auth: false,
      body: JSON.stringify({ content: "x", username: "Nick" }),
    });
    expect(((await json(fine)).author as { username: string }).username).toBe("Nick");
    expect((await api(`/v10/webhooks/${hook.id}/${hook.token}`, { method: "POST", auth: false, body: JSON.stringify({ content: "no wait" }) })).status).toBe(
      204,
    );
  });

  it("every answer carries X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket; buckets are per top-level resource", async () => {
    const send = (channel: string) => api(`/v10/channels/${channel}/messages`, { method: "POST", body: JSON.stringify({ content: "hi" }) });
    const a = await send(RELAY);
    const b = await send(RELAY);
    const other = await send(GENERAL);
    for (const res of [a, b, other]) {
      for (const h of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "x-ratelimit-reset-after", "x-ratelimit-bucket"])
        expect(res.headers.get(h), h).not.toBeNull();
    }
    expect(a.headers.get("x-ratelimit-limit")).toBe("5");
    expect([a, b].map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["4", "3"]);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("4");
    expect(other.headers.get("x-ratelimit-bucket")).toBe(a.headers.get("x-ratelimit-bucket"));
    expect(Number(a.headers.get("x-ratelimit-reset"))).toBeCloseTo(Date.now() / 1000 + Number(a.headers.get("x-ratelimit-reset-after")), 0);
    const gateway = await api("/v10/gateway", { auth: false });
    expect(gateway.headers.get("x-ratelimit-bucket")).not.toBe(a.headers.get("x-ratelimit-bucket"));
    // A refused request is counted and told too.
    const refused = await api("/v10/users/@me", { auth: false });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-ratelimit-remaining")).not.toBeNull();
  });

  it("a full bucket answers 429 with Retry-After, X-RateLimit-Scope and {message, retry_after, global}; the global limit says so", async () => {
    await control("ratelimits", { buckets: { "POST /channels/:channel/messages": { limit: 1, windowMs: 2000 } } });
    const send = () => api(`/v10/channels/${RELAY}/messages`, { method: "POST", body: JSON.stringify({ content: "hi" }) });
    expect((await send()).status).toBe(200);
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("x-ratelimit-scope")).toBe("user");
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("retry-after")).toBe("2");
    const body = await json(limited);
    expect(body).toEqual({ message: "You are being rate limited.", retry_after: expect.any(Number), global: false });
    expect(body.retry_after as number).toBeGreaterThan(1);
    expect((await fetch(`${sim.controlUrl}sent`).then((r) => r.json())).sent).toHaveLength(1);

    await control("reset", {}); // empty windows: the global one counts the sends above too
    await control("ratelimits", { globalPerSecond: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await api("/v10/users/@me"));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    const g = statuses[3];
    expect(g.headers.get("x-ratelimit-global")).toBe("true");
    expect(g.headers.get("x-ratelimit-scope")).toBe("global");
    expect(await json(g)).toEqual({ message: "You are being rate limited.", retry_after: expect.any(Number), global: true });

    await control("reset", {});
    await control("faults", { rest429: { count: 1, retryAfterMs: 1500, scope: "shared" } });
    const shared = await send();
    expect(shared.headers.get("x-ratelimit-scope")).toBe("shared");
    expect(shared.headers.get("retry-after")).toBe("2");
    expect(await json(shared)).toEqual({ message: "The resource is being rate limited.", retry_after: 1.5, global: false });
  });

  it("roles carry colors; guild, roles, member, user and application answer as Discord's do", async () => {
    const roles = (await json(await api(`/v10/guilds/${SEED.guilds[0].id}/roles`))) as unknown as { colors: unknown }[];
    expect(roles.map((r) => r.colors)).toEqual([
      { primary_color: 0, secondary_color: null, tertiary_color: null },
      { primary_color: 0, secondary_color: null, tertiary_color: null },
    ]);
    expect((await json(await api(`/v10/guilds/${SEED.guilds[0].id}/members/${SEED.users[0].id}`))).user).toEqual(
      expect.objectContaining({ username: "alice" }),
    );
    expect(await json(await api(`/v10/users/${SEED.users[1].id}`))).toEqual(expect.objectContaining({ username: "bob" }));
    expect((await api("/v10/users/1180000000000009999")).status).toBe(404);
    expect(await json(await api("/v10/applications/@me"))).toEqual(
      expect.objectContaining({ id: SEED.applicationId, flags: (1 << 13) | (1 << 15) | (1 << 19) }),
    );
    const guild = await json(await api(`/v10/guilds/${SEED.guilds[0].id}?with_counts=true`));
    expect(guild.approximate_member_count).toBe(4);
  });
});
