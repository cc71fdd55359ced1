/**
 * Alerts (issue 31 item 2): `GET/PUT /api/alerts`, `POST /api/alerts/test`, and the engine —
 * a failed session reaches a local webhook receiver (real HTTP, HMAC-signed) and the Discord
 * simulator's webhook, once per incident, with one "back to normal", retried with backoff, each
 * alert on System Logs. Real PostgreSQL, Redis (this file's prefix), HTTP servers, a BullMQ worker.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Worker } from "bullmq";
import { desc, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ALERT_TEXTS, SIGNATURE_HEADER, type AlertPayload } from "#api/alerts";
import { processAlertJob } from "#jobs/processors/alerts";
import { getQueue } from "~/queue/queues.server";
import { createWorkerConnection, producerConnection, queuePrefix } from "~/queue/redis.server";
import { deleteKeys, waitFor } from "#jobs/test-helpers";
import { startDiscordSimulator, type DiscordSimulator } from "#sim/discord/server";
import { SEED } from "#sim/discord/state";
import { errorBody } from "#tests/kit/api";
import { createTestApiToken, createTestOperator } from "#tests/kit/auth";
import { getDb } from "~/db/client.server";
import { appSettings, logs, sessions, users } from "~/db/schema";
import { checkWorkerAlerts, raiseAlert } from "~/models/alert.server";
import { claimSession, endSession, reportSession, startSession } from "~/models/session.server";
import { getEnv } from "~/utils/env.server";
import { ADMIN_ONLY } from "~/utils/roles";
import { encryptSecret } from "~/utils/secrets.server";
import { action as testAction } from "./api.alerts.[test]";
import { action, loader } from "./api.alerts";

type Received = { headers: http.IncomingHttpHeaders; body: string };

/** A local webhook receiver: records every POST; answers `status()` (200 unless a test says otherwise). */
function receiver() {
  const got: Received[] = [];
  let answer = () => 200;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.writeHead(answer(), { "Content-Type": "application/json" }).end('{"ok":true}');
    });
  });
  return {
    got,
    server,
    answerWith: (fn: () => number) => (answer = fn),
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
  };
}

const hook = receiver();
let discord: DiscordSimulator;
let adminToken = "";
let viewerToken = "";
let worker: Worker | undefined;
const A = "72000001";

beforeAll(async () => {
  await new Promise<void>((r) => hook.server.listen(0, "127.0.0.1", r));
  discord = await startDiscordSimulator();
  process.env.DISCORD_API_URL = discord.apiBase;
  const admin = await createTestOperator({ name: "alerts-admin", role: "admin" });
  const viewer = await createTestOperator({ name: "alerts-operator", role: "operator" });
  adminToken = await createTestApiToken(admin.id, "alerts");
  viewerToken = await createTestApiToken(viewer.id, "alerts");
});
afterAll(async () => {
  await worker?.close();
  await new Promise((r) => hook.server.close(r));
  await discord.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});
beforeEach(async () => {
  const db = await getDb();
  await db.delete(appSettings);
  await db.delete(sessions);
  await db.delete(users);
  await db.delete(logs);
  await getQueue("alerts").obliterate({ force: true });
  const redis = producerConnection();
  const keys = await redis.keys(`${queuePrefix()}:alerts:*`);
  if (keys.length) await redis.del(...keys);
  hook.got.length = 0;
  hook.answerWith(() => 200);
});

function req(method: string, path: string, body?: unknown, token = adminToken) {
  return new Request(`http://localhost${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}
async function call(fn: typeof loader | typeof action, request: Request) {
  const res = await fn({ request, params: {}, context: {} });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const put = (body: unknown, token?: string) => call(action, req("PUT", "/api/alerts", body, token));
const get = (token?: string) => call(loader, req("GET", "/api/alerts", undefined, token));
const sendTest = (token?: string) => call(testAction, req("POST", "/api/alerts/test", undefined, token));

async function discordWebhookUrl(): Promise<string> {
  const res = await fetch(`${discord.url}/__discord/webhooks`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ channelId: SEED.guilds[0].channels[0].id, name: "Alerts" }),
  });
  return ((await res.json()) as { url: string }).url;
}
async function discordSent(): Promise<{ content: string; kind: string; channelId: string }[]> {
  const res = await fetch(`${discord.url}/__discord/sent`);
  const body = (await res.json()) as { sent: { content: string; kind: string; channelId: string }[] };
  return body.sent;
}
function startAlertWorker() {
  worker ??= new Worker("alerts", processAlertJob, { connection: createWorkerConnection(), prefix: queuePrefix(), concurrency: 5 });
  worker.on("error", () => {});
}
const payloads = () => hook.got.map((g) => JSON.parse(g.body) as AlertPayload);

describe("GET/PUT /api/alerts (issue 31 item 2 'On /settings an admin chooses where alerts go')", () => {
  it("stores the destinations; a webhook's secret is encrypted at rest and answered only as 'set'", async () => {
    const discordHook = await discordWebhookUrl();
    const saved = await put({
      destinations: [
        { kind: "webhook", url: hook.url(), secret: "s3cret-hmac-key" },
        { kind: "discord-webhook", url: discordHook },
        { kind: "discord-channel", channel_id: SEED.guilds[0].channels[1].id },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      destinations: [
        { id: expect.any(String), kind: "webhook", url: hook.url(), secret: "set" },
        { id: expect.any(String), kind: "discord-webhook", url: discordHook },
        { id: expect.any(String), kind: "discord-channel", channel_id: SEED.guilds[0].channels[1].id },
      ],
    });
    expect(await get()).toEqual(saved);
    const [row] = await (await getDb()).select().from(appSettings);
    expect(JSON.stringify(row!.value)).not.toContain("s3cret-hmac-key");
    // Saved again without `secret`: the stored one stays; `""` removes it.
    expect((await put({ destinations: [{ kind: "webhook", url: hook.url() }] })).body).toEqual({
      destinations: [{ id: expect.any(String), kind: "webhook", url: hook.url(), secret: "set" }],
    });
    expect((await put({ destinations: [{ kind: "webhook", url: hook.url(), secret: "" }] })).body).toEqual({
      destinations: [{ id: expect.any(String), kind: "webhook", url: hook.url() }],
    });
  });

  it.each([
    ["a URL that is not http(s)", { destinations: [{ kind: "webhook", url: "ftp://example.com/x" }] }, ALERT_TEXTS.badUrl],
    [
      "a Discord webhook URL that is not one",
      { destinations: [{ kind: "discord-webhook", url: "https://example.com/hook" }] },
      ALERT_TEXTS.badDiscordWebhookUrl,
    ],
    ["a channel id that is not a snowflake", { destinations: [{ kind: "discord-channel", channel_id: "general" }] }, ALERT_TEXTS.badChannel],
    ["an unknown kind", { destinations: [{ kind: "email", url: "https://example.com" }] }, null],
    ["a secret too long", { destinations: [{ kind: "webhook", url: "https://example.com/h", secret: "x".repeat(257) }] }, ALERT_TEXTS.badSecret],
    [
      "the same destination twice",
      {
        destinations: [
          { kind: "discord-channel", channel_id: "1180000000000000101" },
          { kind: "discord-channel", channel_id: "1180000000000000101" },
        ],
      },
      ALERT_TEXTS.duplicate,
    ],
    ["too many", { destinations: Array.from({ length: 11 }, (_, i) => ({ kind: "webhook", url: `https://example.com/${i}` })) }, ALERT_TEXTS.tooMany],
  ])("400 for %s, and nothing changes", async (_label, body, text) => {
    await put({ destinations: [{ kind: "webhook", url: hook.url() }] });
    const res = await put(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(res.body.message);
    if (text) expect(res.body.error).toContain(text.replace(/^\w+: /, ""));
    expect((await get()).body).toEqual({ destinations: [{ id: expect.any(String), kind: "webhook", url: hook.url() }] });
  });

  it("admins only: an operator gets 403 {error, message} and changes nothing", async () => {
    expect(await get(viewerToken)).toEqual({ status: 403, body: errorBody(ADMIN_ONLY) });
    expect(await put({ destinations: [{ kind: "webhook", url: hook.url() }] }, viewerToken)).toEqual({ status: 403, body: errorBody(ADMIN_ONLY) });
    expect(await sendTest(viewerToken)).toEqual({ status: 403, body: errorBody(ADMIN_ONLY) });
    expect((await get()).body).toEqual({ destinations: [] });
  });
});

describe("POST /api/alerts/test ('a Send a test alert button … answers what each returned')", () => {
  it("sends to each destination now: a signed webhook, the Discord simulator's webhook, and says the bot is not running", async () => {
    const discordHook = await discordWebhookUrl();
    await put({
      destinations: [
        { kind: "webhook", url: hook.url(), secret: "s3cret-hmac-key" },
        { kind: "discord-webhook", url: discordHook },
        { kind: "discord-channel", channel_id: SEED.guilds[0].channels[1].id },
      ],
    });
    const res = await sendTest();
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { id: expect.any(String), kind: "webhook", target: `webhook ${hook.url()}`, ok: true, status: 200, message: "Delivered (HTTP 200)" },
      {
        id: expect.any(String),
        kind: "discord-webhook",
        target: expect.stringMatching(/^Discord webhook http:\/\/127\.0\.0\.1:\d+\/api\/webhooks\/\d+\/…$/),
        ok: true,
        status: 204,
        message: "Delivered (HTTP 204)",
      },
      {
        id: expect.any(String),
        kind: "discord-channel",
        target: `Discord channel ${SEED.guilds[0].channels[1].id}`,
        ok: false,
        status: null,
        message: expect.any(String),
      },
    ]);
    // The bot's message names why: no token here, or not running.
    expect([ALERT_TEXTS.noDiscordToken, ALERT_TEXTS.botNotRunning]).toContain((res.body.results as { message: string }[])[2]!.message);

    // The webhook: the JSON body of the contract, signed with HMAC-SHA256 of the exact body.
    expect(hook.got).toHaveLength(1);
    const { headers, body } = hook.got[0]!;
    expect(headers["content-type"]).toBe("application/json");
    expect(headers[SIGNATURE_HEADER.toLowerCase()]).toBe(`sha256=${crypto.createHmac("sha256", "s3cret-hmac-key").update(body).digest("hex")}`);
    expect(JSON.parse(body)).toEqual({
      event: "test",
      severity: "info",
      message: `${ALERT_TEXTS.testMessage} (sent by alerts-admin)`,
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      url: expect.stringMatching(/\/settings$/),
    });
    // Discord: a message in the webhook's channel.
    const sent = await discordSent();
    expect(sent).toEqual([
      expect.objectContaining({ kind: "webhook", channelId: SEED.guilds[0].channels[0].id, content: expect.stringContaining(ALERT_TEXTS.testMessage) }),
    ]);
    // On System Logs.
    const [entry] = await (await getDb()).select().from(logs).where(like(logs.message, "Test alert sent by alerts-admin%"));
    expect(entry?.type).toBe("error"); // one destination failed
  });

  it("the Discord channel through the GalaCord bot's token when the bot runs", async () => {
    process.env.DISCORD_TOKEN = discord.token;
    const { resetEnv } = await import("~/utils/env.server");
    resetEnv();
    try {
      await (await getDb()).insert(sessions).values({ purpose: "relay", key: "bot", desired: "run", actual: "active" });
      await put({ destinations: [{ kind: "discord-channel", channel_id: SEED.guilds[0].channels[1].id }] });
      const res = await sendTest();
      expect(res.body.results).toEqual([expect.objectContaining({ ok: true, status: 200 })]);
      expect(await discordSent()).toContainEqual(
        expect.objectContaining({ channelId: SEED.guilds[0].channels[1].id, content: expect.stringContaining("Test alert") }),
      );
    } finally {
      delete process.env.DISCORD_TOKEN;
      resetEnv();
    }
  });

  it("a secret stored under another key is sent unsigned rather than not at all; a refusal is answered with its status", async () => {
    await (
      await getDb()
    )
      .insert(appSettings)
      .values({ key: "alerts", value: { destinations: [{ id: "dx", kind: "webhook", url: hook.url(), secret: encryptSecret("k") }] } });
    hook.answerWith(() => 503);
    const res = await sendTest();
    expect(res.body.results).toEqual([expect.objectContaining({ ok: false, status: 503, message: "HTTP 503" })]);
  });

  it("400 with no destination", async () => {
    expect(await sendTest()).toEqual({ status: 400, body: errorBody(ALERT_TEXTS.none) });
  });
});

describe("the engine: a failed session alerts once, says 'back to normal' once, retries, logs", () => {
  it("451 ends a session failed → one signed alert with the account, nick and the platform's words; active again → one 'back to normal'", async () => {
    startAlertWorker();
    await put({ destinations: [{ kind: "webhook", url: hook.url(), secret: "k2" }] });
    await (await getDb()).insert(users).values({ accountId: A, nick: "Alerty", password: encryptSecret("pw") });
    await startSession("stalker", A);
    await claimSession("stalker", A, "w1");
    await endSession("stalker", A, "w1", { actual: "failed", error: "Login failed: Invalid credentials" });

    await waitFor("1 alerts at the receiver", () => hook.got.length >= 1, 10_000);
    expect(payloads()[0]).toEqual({
      event: "session.failed",
      severity: "critical",
      account_id: A,
      nick: "Alerty",
      purpose: "stalker",
      message: `Stalker session of Alerty (${A}) failed: Login failed: Invalid credentials`,
      since: expect.any(String),
      url: expect.stringMatching(new RegExp(`/logs\\?account=${A}$`)),
    });
    expect(hook.got[0]!.headers[SIGNATURE_HEADER.toLowerCase()]).toBe(`sha256=${crypto.createHmac("sha256", "k2").update(hook.got[0]!.body).digest("hex")}`);

    // The same incident again (started, failed again before it was ever up): no second alert.
    await startSession("stalker", A);
    await claimSession("stalker", A, "w1");
    await endSession("stalker", A, "w1", { actual: "failed", error: "Login failed: Invalid credentials" });
    // Up again: one "back to normal", and only one however often it reports active.
    await startSession("stalker", A);
    await claimSession("stalker", A, "w1");
    await reportSession("stalker", A, "w1", { actual: "active" });
    await reportSession("stalker", A, "w1", { actual: "active" });
    await waitFor("2 alerts at the receiver", () => hook.got.length >= 2, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      payloads()
        .map((p) => [p.event, p.severity, p.message])
        .sort(),
    ).toEqual([
      ["session.failed", "critical", `Stalker session of Alerty (${A}) failed: Login failed: Invalid credentials`],
      ["session.failed", "resolved", `Back to normal: Stalker session of Alerty (${A}) is active again`],
    ]);
    // Each alert on System Logs, with the account (its /logs?account= link finds them).
    const entries = await (await getDb()).select().from(logs).where(like(logs.message, "Alert: %")).orderBy(desc(logs.timestamp));
    expect(entries.map((e) => e.message).sort()).toEqual([
      `Alert: Back to normal: Stalker session of Alerty (${A}) is active again`,
      `Alert: Stalker session of Alerty (${A}) failed: Login failed: Invalid credentials`,
    ]);
    expect(entries[0]!.details).toMatchObject({ accountId: A, purpose: "stalker" });
  });

  it("a destination that fails is retried with backoff until it answers", async () => {
    startAlertWorker();
    await put({ destinations: [{ kind: "webhook", url: hook.url() }] });
    let calls = 0;
    hook.answerWith(() => (++calls === 1 ? 500 : 200));
    expect(
      await raiseAlert({ incident: "backup", event: "backup.failed", severity: "critical", message: "Daily backup failed: disk full", path: "/settings" }),
    ).toBe("sent");
    await waitFor("2 alerts at the receiver", () => hook.got.length >= 2, 15_000);
    expect(payloads().map((p) => p.message)).toEqual(["Daily backup failed: disk full", "Daily backup failed: disk full"]);
  });

  it("rate-limited: beyond 20 a minute, alerts are only on System Logs", async () => {
    await put({ destinations: [{ kind: "webhook", url: hook.url() }] });
    const outcomes: string[] = [];
    for (let i = 0; i < 22; i++)
      outcomes.push(await raiseAlert({ incident: `rate-${i}`, event: "backup.failed", severity: "critical", message: `failure ${i}`, path: "/settings" }));
    const sent = outcomes.filter((o) => o === "sent").length;
    // The minute may turn during the loop: at most 20 in each.
    expect(sent).toBeGreaterThanOrEqual(20);
    expect(outcomes).toContain("rate-limited");
    // Those sent were queued (and written "Alert: …"); the others only logged.
    expect((await (await getDb()).select().from(logs).where(like(logs.message, "Alert: failure %"))).length).toBe(22);
    const [entry] = await (await getDb()).select().from(logs).where(like(logs.message, "%(not sent: more than 20 alerts this minute)"));
    expect(entry).toBeDefined();
  });

  it("alerts are off without a destination: nothing queued, nothing logged", async () => {
    expect(await raiseAlert({ incident: "backup", event: "backup.failed", severity: "critical", message: "x", path: "/settings" })).toBe("off");
    expect(await getQueue("alerts").count()).toBe(0);
    expect(await (await getDb()).select().from(logs)).toEqual([]);
  });

  it("a worker lost: one alert; back to normal once no session waits for a worker. No worker for over a minute: one alert; back when one beats", async () => {
    startAlertWorker();
    await put({ destinations: [{ kind: "webhook", url: hook.url() }] });
    await checkWorkerAlerts({ lost: ["host-1:42"], waiting: async () => 3, alive: 1, redisUp: true });
    await checkWorkerAlerts({ lost: [], waiting: async () => 3, alive: 1, redisUp: true });
    await checkWorkerAlerts({ lost: [], waiting: async () => 0, alive: 1, redisUp: true });
    // No worker: nothing in the first minute…
    await checkWorkerAlerts({ lost: [], waiting: async () => 0, alive: 0, redisUp: true });
    await producerConnection().set(`${queuePrefix()}:alerts:no-worker-since`, String(Date.now() - 61_000));
    await checkWorkerAlerts({ lost: [], waiting: async () => 0, alive: 0, redisUp: true });
    await checkWorkerAlerts({ lost: [], waiting: async () => 0, alive: 0, redisUp: true });
    await checkWorkerAlerts({ lost: [], waiting: async () => 0, alive: 1, redisUp: true });
    await waitFor("4 alerts at the receiver", () => hook.got.length >= 4, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      payloads()
        .map((p) => [p.event, p.severity, p.message])
        .sort((a, b) => a.join().localeCompare(b.join())),
    ).toEqual([
      ["worker.lost", "resolved", "Back to normal: the sessions of worker host-1:42 run on other workers"],
      ["worker.lost", "warning", "Worker host-1:42 lost (its heartbeat expired): 3 sessions wait for a worker"],
      ["worker.none", "critical", "No worker is running: sessions, refreshes and Auto cycles wait"],
      ["worker.none", "resolved", "Back to normal: a worker is running again"],
    ]);
  });
});
