/**
 * The GalaCord /api contract (spec 2 §7 "Relay bot", §8 "Relay bot" defaults, §5 Connect
 * rules) through the real route modules, with a real worker holding the relay session and
 * both simulators. Bad input of every kind → 4xx `{error, message}`, nothing changed.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteKeys, waitFor } from "#jobs/test-helpers";
import { closeQueues } from "~/queue/queues.server";
import { startWorkers, type WorkerPool } from "#jobs/worker";
import { startDiscordSimulator, type DiscordSimulator } from "#sim/discord/server";
import { SEED } from "#sim/discord/state";
import { startSimulator, type Simulator } from "#sim/server";
import { apiArgs, errorBody } from "#tests/kit/api";
import { getDb } from "~/db/client.server";
import { galacordAccounts, sessions } from "~/db/schema";
import { getEnv, resetEnv } from "~/utils/env.server";
import { loader as channelsLoader } from "./api.bot.channels";
import { action as connectAction } from "./api.bot.connect";
import { action as connectNewAction } from "./api.bot.connect-new";
import { action as deleteAction } from "./api.bot.connection.$accountId";
import { loader as connectionsLoader } from "./api.bot.connections";
import { action as planetAction } from "./api.bot.planet.$accountId";
import { action as startAction } from "./api.bot.start";
import { loader as statusLoader } from "./api.bot.status";
import { action as stopAction } from "./api.bot.stop";
import { action as stopConnectionAction } from "./api.bot.stop-connection.$accountId";
import { action as updateChannelAction } from "./api.bot.update-channel.$accountId";
import { loader as accountsLoader } from "./api.gala-cord-accounts";

let galaxy: Simulator;
let discord: DiscordSimulator;
let pool: WorkerPool;
const RELAY: string = SEED.guilds[0].channels[1].id;
const CHAT: string = SEED.guilds[1].channels[0].id;
const U = "http://localhost";

beforeAll(async () => {
  galaxy = await startSimulator({ port: 0, pingIntervalMs: 0 });
  discord = await startDiscordSimulator({ port: 0, heartbeatIntervalMs: 1000 });
  Object.assign(process.env, {
    GALAXY_WS_URL: galaxy.wsUrl,
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiBase,
    RELAY_FAST_IDENTIFY: "1",
    RELAY_JOIN_MIN_DELAY_MS: "100",
    SESSION_POLL_MS: "300",
    SESSION_RECONCILE_MS: "1000",
  });
  resetEnv();
  pool = startWorkers({ mode: "in-process" });
  await Promise.all(pool.workers.map((w) => w.waitUntilReady()));
});
afterAll(async () => {
  await stopAction(await apiArgs(raw("/api/bot/stop"))).catch(() => {});
  await pool?.close(5_000);
  await closeQueues();
  await galaxy?.close();
  await discord?.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

function post(path: string, body?: unknown, raw?: string) {
  return new Request(`${U}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
}
async function json(res: Response) {
  return { status: res.status, body: await res.json() };
}
const get = (path: string) => new Request(`${U}${path}`);
/** A POST exactly as given: no Content-Type when `type` is undefined, no body when `body` is undefined. */
function raw(path: string, body?: string, type?: string) {
  return new Request(`${U}${path}`, { method: "POST", headers: type ? { "content-type": type } : {}, body });
}
/** The bot's session row (purpose relay, key "bot"; docs/sessions.md). */
const botRowNow = async () =>
  (
    await (
      await getDb()
    )
      .select()
      .from(sessions)
      .where(and(eq(sessions.purpose, "relay"), eq(sessions.key, "bot")))
  )[0] ?? null;
const rowCount = async () => (await (await getDb()).select().from(galacordAccounts)).length;

describe("spec 2 §7 Relay bot /api", () => {
  it("start (no body) → 200, status Running with the connection count; channels by server; connect-new → 200 saved (no code in any answer); connections; planet; channel; stop-connection; delete; stop", async () => {
    const started = await json(await startAction(await apiArgs(raw("/api/bot/start"))));
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      success: true,
      isRunning: false,
      connectedChannels: 0,
      error: null,
      status: { state: expect.stringMatching(/^(waiting|starting)$/) },
    });
    await waitFor("running", async () => (await (await statusLoader(await apiArgs(get("/api/bot/status")))).json()).isRunning);
    const channels = await json(await channelsLoader(await apiArgs(get("/api/bot/channels"))));
    expect(channels.body.channels).toHaveLength(5);
    expect(channels.body.channels[0]).toEqual({ id: SEED.guilds[0].channels[0].id, name: "general", guildId: SEED.guilds[0].id, guildName: "Galaxy Fans" });

    const acc = galaxy.world.accounts.filter((a) => a.kind === "plain")[3];
    const created = await json(await connectNewAction(await apiArgs(post("/api/bot/connect-new", { channelId: RELAY, recoveryCode: acc.recoveryCode }))));
    expect(created.status).toBe(200);
    expect(created.body.account).toMatchObject({ accountId: acc.id, nick: acc.nick, channelId: RELAY, channelName: "relay", guildName: "Galaxy Fans" });
    expect(JSON.stringify(created.body)).not.toContain(acc.recoveryCode);
    const [row] = await (await getDb()).select().from(galacordAccounts);
    expect(row.recoveryCode).not.toContain(acc.recoveryCode); // encrypted at rest

    await waitFor("connected", async () => {
      const list = (await (await accountsLoader(await apiArgs(get("/api/gala-cord-accounts")))).json()) as { isConnected: boolean }[];
      return list[0]?.isConnected;
    });
    const accounts = await json(await accountsLoader(await apiArgs(get("/api/gala-cord-accounts"))));
    expect(Object.keys(accounts.body[0]).sort()).toEqual([
      "accountId",
      "channelId",
      "channelName",
      "desired",
      "error",
      "guildId",
      "guildName",
      "isConnected",
      "nick",
      "options",
      "planet",
      "session",
      "state",
    ]);
    // Issue 22 B.5: the relay options, the defaults until saved.
    expect(accounts.body[0].options).toEqual({ discordName: "{nick}", galaxyName: "{nick}", ignoreNicks: [], ignoreMessages: "" });
    expect(accounts.body[0].session).toMatchObject({ purpose: "relay-link", key: acc.id, desired: "run", actual: "active" });
    const status = await json(await statusLoader(await apiArgs(get("/api/bot/status"))));
    expect(status.body).toMatchObject({ isRunning: true, error: null, connectedChannels: 1, state: "running", session: { actual: "active" } });
    const conns = await json(await connectionsLoader(await apiArgs(get("/api/bot/connections"))));
    expect(conns.body.connections).toEqual([{ accountId: acc.id, nick: acc.nick, planet: accounts.body[0].planet, channelName: "relay", isConnected: true }]);

    const p = await json(await planetAction(await apiArgs(post(`/api/bot/planet/${acc.id}`, { planet: "Pegasus" }), { accountId: acc.id })));
    expect(p).toEqual({ status: 200, body: { success: true, message: "Planet changed", planet: "Pegasus" } });
    const refused = await json(await planetAction(await apiArgs(post(`/api/bot/planet/${acc.id}`, { planet: "Tiny" }), { accountId: acc.id })));
    expect(refused).toEqual({ status: 409, body: errorBody("This Planet is full!") });

    const moved = await json(await updateChannelAction(await apiArgs(post(`/api/bot/update-channel/${acc.id}`, { channelId: CHAT }), { accountId: acc.id })));
    expect(moved.body.account).toMatchObject({ channelId: CHAT, channelName: "chat", guildName: "Test Server" });

    const off = await json(await stopConnectionAction(await apiArgs(post(`/api/bot/stop-connection/${acc.id}`), { accountId: acc.id })));
    expect(off.body.account).toMatchObject({ isConnected: false, desired: "disconnected", state: "offline" });
    const offline = await json(await planetAction(await apiArgs(post(`/api/bot/planet/${acc.id}`, { planet: "Orion" }), { accountId: acc.id })));
    expect(offline).toEqual({ status: 409, body: errorBody("Not connected to Galaxy") });
    const again = await json(await connectAction(await apiArgs(post("/api/bot/connect", { accountId: acc.id, channelId: RELAY }))));
    expect(again.body.account).toMatchObject({ desired: "connected", channelId: RELAY });

    const del = await deleteAction(await apiArgs(new Request(`${U}/api/bot/connection/${acc.id}`, { method: "DELETE" }), { accountId: acc.id }));
    expect(del.status).toBe(200);
    expect(await rowCount()).toBe(0);
    await waitFor("logged out of Galaxy", () => galaxy.sockets.sessions(acc.id).length === 0);

    const stopped = await json(await stopAction(await apiArgs(raw("/api/bot/stop"))));
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ success: true, isRunning: false, connectedChannels: 0, status: { isRunning: false, connectedChannels: 0 } });
  });

  it('spec 2 §7 "POST /api/bot/start and POST /api/bot/stop (response status)": no body, a blank body or {} under any Content-Type → 200 with the status', async () => {
    const accepted: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      [undefined, "application/json"],
      ["", "application/json"],
      ["", "application/x-www-form-urlencoded"],
      ["  \n", "text/plain;charset=UTF-8"],
      ["{}", "application/json"],
      ["{}", "text/plain;charset=UTF-8"],
      ["{}", undefined],
    ];
    // An empty FormData, as `fetch(url, { method: "POST", body: new FormData() })` sends it.
    const empty = new Request(`${U}/`, { method: "POST", body: new FormData() });
    accepted.push([await empty.text(), empty.headers.get("content-type")!]);
    expect(accepted.at(-1)![1]).toMatch(/^multipart\/form-data; boundary=/);
    for (const [body, type] of accepted) {
      const start = await json(await startAction(await apiArgs(raw("/api/bot/start", body, type))));
      expect([start.status, start.body.success, typeof start.body.isRunning, start.body.status?.state]).toEqual([
        200,
        true,
        "boolean",
        expect.stringMatching(/^(waiting|starting|running)$/), // waiting: until a worker takes it (issue 29)
      ]);
      expect((await botRowNow())?.desired).toBe("run");
      const stop = await json(await stopAction(await apiArgs(raw("/api/bot/stop", body, type))));
      expect([stop.status, stop.body.success, stop.body.isRunning, stop.body.status?.state]).toEqual([200, true, false, "stopped"]);
      expect((await botRowNow())?.desired).toBe("stop");
    }
  });

  it("POST /api/bot/start|stop with a body that is there but bad (malformed JSON, another JSON value, fields, a form, oversized) → 4xx {error, message}, the bot row unchanged", async () => {
    // What the web side writes (the holder may still be writing `worker`/`updatedAt` as it lets go).
    const wanted = async () => {
      const row = await botRowNow();
      return row && { desired: row.desired, actual: row.actual, error: row.error };
    };
    const before = await wanted();
    const cases: [string, string | undefined, number, string][] = [
      ["{", "application/json", 400, "Malformed JSON body"],
      ["{}x", undefined, 400, "Malformed JSON body"],
      ["null", "application/json", 400, "The body must be empty or an empty JSON object: {}"],
      ["[]", "application/json", 400, "The body must be empty or an empty JSON object: {}"],
      ['"start"', "application/json", 400, "The body must be empty or an empty JSON object: {}"],
      ['{"force":true}', "application/json", 400, "The body must be empty or an empty JSON object: {}"],
      ["run=1", "application/x-www-form-urlencoded", 400, "The body must be empty or an empty JSON object: {}"],
      ["<start/>", "application/xml", 415, "Content-Type must be application/json"],
      [`{"pad":"${"x".repeat(5000)}"}`, "application/json", 413, "Request body too large (limit 4096 bytes)"],
    ];
    for (const action of [startAction, stopAction]) {
      for (const [body, type, status, text] of cases) {
        const res = await json(await action(await apiArgs(raw(action === startAction ? "/api/bot/start" : "/api/bot/stop", body, type))));
        expect({ body, status: res.status, answer: res.body }).toEqual({ body, status, answer: errorBody(text) });
      }
    }
    expect(await wanted()).toEqual(before);
  });

  it("bad input → 4xx {error, message}, nothing saved (spec 2 §5: Connect needs channel and code; Change Planet needs a planet)", async () => {
    const before = await rowCount();
    const cases: [Response, number, string?][] = [
      [await connectNewAction(await apiArgs(post("/api/bot/connect-new", undefined, "{not json"))), 400, "Malformed JSON body"],
      [await connectNewAction(await apiArgs(post("/api/bot/connect-new", { channelId: RELAY }))), 400, "recoveryCode: Please enter a recovery code"],
      [await connectNewAction(await apiArgs(post("/api/bot/connect-new", { channelId: "", recoveryCode: "x" }))), 400, "channelId: Please choose a channel"],
      [await connectNewAction(await apiArgs(post("/api/bot/connect-new", { channelId: 5, recoveryCode: "x" }))), 400],
      [await connectNewAction(await apiArgs(post("/api/bot/connect-new", { channelId: "42", recoveryCode: "x" }))), 404],
      // Unknown fields are ignored (as every other /api body): the answer is about the channel.
      [await connectNewAction(await apiArgs(post("/api/bot/connect-new", { channelId: "42", recoveryCode: "x", guildName: "x" }))), 404],
      [await connectNewAction(await apiArgs(post("/api/bot/connect-new", { channelId: RELAY, recoveryCode: ["x"] }))), 400],
      [await connectNewAction(await apiArgs(post("/api/bot/connect-new", { channelId: RELAY, recoveryCode: "x".repeat(3 * 1024 * 1024) }))), 413],
      [await connectNewAction(await apiArgs(raw("/api/bot/connect-new", "channelId=1&recoveryCode=x", "application/x-www-form-urlencoded"))), 415],
      [await connectAction(await apiArgs(post("/api/bot/connect", { accountId: 123, channelId: RELAY }))), 404, "Account not found"],
      [await connectAction(await apiArgs(post("/api/bot/connect", { accountId: true, channelId: RELAY }))), 400],
      [await connectAction(await apiArgs(post("/api/bot/connect", { accountId: "123" }))), 400, "channelId: Please choose a channel"],
      [await planetAction(await apiArgs(post("/api/bot/planet/123", { planet: 50 }), { accountId: "123" })), 400, "planet: Please choose a planet"],
      [await planetAction(await apiArgs(post("/api/bot/planet/123", { planet: "two words" }), { accountId: "123" })), 400],
      [await stopConnectionAction(await apiArgs(post("/api/bot/stop-connection/123"), { accountId: "123" })), 404, "Account not found"],
      [await updateChannelAction(await apiArgs(post("/api/bot/update-channel/123", { channelId: RELAY }), { accountId: "123" })), 404, "Account not found"],
      [await connectAction(await apiArgs(post("/api/bot/connect", { accountId: "123", channelId: RELAY }))), 404, "Account not found"],
      [await planetAction(await apiArgs(post("/api/bot/planet/123", { planet: "" }), { accountId: "123" })), 400, "planet: Please choose a planet"],
      // Spec 2 §4 "Changing planet when not connected gives "Not connected to Galaxy"": an account we do not hold is not connected.
      [await planetAction(await apiArgs(post("/api/bot/planet/123", { planet: "Orion" }), { accountId: "123" })), 409, "Not connected to Galaxy"],
      [await planetAction(await apiArgs(post("/api/bot/planet/abc", { planet: "Orion" }), { accountId: "abc" })), 409, "Not connected to Galaxy"],
      [await updateChannelAction(await apiArgs(post("/api/bot/update-channel/123", {}), { accountId: "123" })), 400, "channelId: Please choose a channel"],
      [await deleteAction(await apiArgs(new Request(`${U}/api/bot/connection/123`, { method: "DELETE" }), { accountId: "123" })), 404, "Account not found"],
      [await deleteAction(await apiArgs(post("/api/bot/connection/123"), { accountId: "123" })), 405],
      [await startAction(await apiArgs(raw("/api/bot/start", "x", "text/plain"))), 400, "Malformed JSON body"],
      [await startAction(await apiArgs(raw("/api/bot/start", "a=b", "application/x-www-form-urlencoded"))), 400],
      [await stopAction(await apiArgs(post("/api/bot/stop", { now: true }))), 400, "The body must be empty or an empty JSON object: {}"],
    ];
    for (const [res, status, text] of cases) {
      expect(res.status).toBe(status);
      const body = await res.json();
      expect(body.error).toBe(body.message);
      if (text) expect(body.error).toBe(text);
    }
    expect(await rowCount()).toBe(before);
  });
});
