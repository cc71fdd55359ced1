/**
 * One Galaxy account, one holder (issue 18 item 4; docs/sessions.md): before any purpose logs
 * an account in — the stalker, a trading run, Collections, GalaCord, create-creds — the app
 * checks who holds it. Refused: a clear message naming the holder, and the platform never sees
 * the login (no USER, so no "another device" for the holder). Taken over: the other session
 * is stopped cleanly (QUIT, a note on its screen) before this one logs in. Real worker (in
 * process), real sockets to the simulator, real routes.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deleteKeys, waitFor } from "#jobs/test-helpers";
import { startWorkers, type WorkerPool } from "#jobs/worker";
import { startSimulator, type Simulator } from "#sim/server";
import { apiArgs } from "#tests/kit/api";
import { callRoute, createTestOperator, makeRequest, toastOf } from "#tests/kit";
import { getDb } from "~/db/client.server";
import { galacordAccounts, galacordBot, logs, sessions, users } from "~/db/schema";
import { resetGalaxyServices } from "~/platform/galaxy-services.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { action as createCredsAction } from "~/routes/_app+/_characters+/api.create-creds";
import { action as charactersAction, loader as charactersLoader } from "~/routes/_app+/_characters+/characters";
import { action as collectionsAction } from "~/routes/_app+/_collections+/collections";
import { action as connectNewAction } from "~/routes/_app+/_galacord+/api.bot.connect-new";
import { getSession, startSession } from "./session.server";
import { getStalkerStatus, startStalker, stopStalker } from "./stalker.server";
import { upsertUser } from "./user.server";

let sim: Simulator;
let pool: WorkerPool;
let cookie: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  Object.assign(process.env, {
    GALAXY_WS_URL: sim.wsUrl,
    GALAXY_SERVICES_URL: sim.servicesUrl,
    STALKER_TIME_SCALE: "0.1",
    COLLECTIONS_TIME_SCALE: "0.01",
    SESSION_POLL_MS: "300",
    SESSION_START_WAIT_MS: "3000",
  });
  resetEnv();
  resetGalaxyServices();
  pool = startWorkers({ mode: "in-process" });
  await Promise.all(pool.workers.map((w) => w.waitUntilReady()));
  cookie = (await createTestOperator({ name: "holder-tests" })).cookie;
});
afterAll(async () => {
  await pool?.close(5_000);
  await sim?.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});
beforeEach(async () => {
  const db = await getDb();
  for (const s of await db.select().from(sessions).where(eq(sessions.desired, "run"))) {
    if (s.purpose === "stalker") await stopStalker(s.key).catch(() => {});
  }
  await waitFor("no session held", async () => (await db.select().from(sessions)).every((s) => !s.holder), 10_000);
  await db.delete(sessions);
  await db.delete(galacordAccounts);
  await db.delete(logs);
});

const stalkers = () => sim.world.accounts.filter((a) => a.kind === "stalker");
let n = 0;
async function runningStalker() {
  const acc = stalkers()[n++]!;
  await upsertUser({ accountId: acc.id, nick: acc.nick, password: acc.password, type: "stalker" });
  await startStalker(acc.id);
  await waitFor("stalker active", async () => ((await getStalkerStatus(acc.id))?.state === "active" ? true : false));
  expect(sim.sockets.sessions(acc.id)).toHaveLength(1);
  return acc;
}
/** Did anything but the stalker itself send USER for the account (a login that would kick it)? */
const usersSentFor = (id: string) => sim.sockets.closed.filter((c) => c.accountId === id && c.received.some((l) => l.startsWith("USER"))).length;
const json = (url: string, body: unknown) =>
  new Request(`http://localhost${url}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("create-creds on an account the stalker holds", () => {
  it("is refused before USER (409 naming the holder, nothing stored, the stalker untouched); with takeover the stalker is stopped first, with a note", async () => {
    const acc = await runningStalker();
    const closedUsers = usersSentFor(acc.id);
    const refused = (await createCredsAction(await apiArgs(json("/api/create-creds", { rc: acc.recoveryCode, type: "trading" })))) as Response;
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body).toMatchObject({
      error: `Account ${acc.nick} (${acc.id}) is in use by the stalker. Take it over to use it here.`,
      message: `Account ${acc.nick} (${acc.id}) is in use by the stalker. Take it over to use it here.`,
      holder: { purpose: "stalker", key: acc.id, accountId: acc.id, actual: "active" },
    });
    // Never logged in: no USER after RECOVER/REGISTER, the stalker never heard "another device".
    expect(usersSentFor(acc.id)).toBe(closedUsers);
    expect(sim.sockets.sessions(acc.id)).toHaveLength(1);
    expect(await getStalkerStatus(acc.id)).toMatchObject({ state: "active", actual: "active" });
    const [user] = await (await getDb()).select().from(users).where(eq(users.accountId, acc.id));
    expect(user!.type).toBe("stalker");

    const took = (await createCredsAction(await apiArgs(json("/api/create-creds", { rc: acc.recoveryCode, type: "trading", takeover: true })))) as Response;
    expect(took.status).toBe(200);
    expect(await getStalkerStatus(acc.id)).toMatchObject({
      desired: "stop",
      actual: "stopped",
      state: "inactive",
      note: "Taken over by a sign-in to add the user",
      holder: null,
    });
    // The stalker left with QUIT :ds before the sign-in's login: no 950 anywhere.
    expect(sim.sockets.closed.some((c) => c.accountId === acc.id && c.quit === "ds")).toBe(true);
    const disconnects = await (await getDb()).select().from(logs).where(eq(logs.type, "disconnect"));
    expect(disconnects.map((l) => l.message).join("\n")).not.toMatch(/another device/);
  });
});

describe("All Characters: Start on an account Collections holds", () => {
  it("no-JS and JS alike: back to the page with the take-over question; Take over starts it and says so on both screens", async () => {
    const acc = stalkers()[n++]!;
    await upsertUser({ accountId: acc.id, nick: acc.nick, password: acc.password, type: "stalker" });
    // Collections wants the account (a row only: no profile to log in with in this test).
    await startSession("collections", acc.id, { hosted: false });
    const post = (form: Record<string, string>) => callRoute(charactersAction, makeRequest("/characters", { cookie, form }));
    const refused = await post({ intent: "start-stalker", accountId: acc.id });
    expect(refused.status).toBe(302);
    const to = refused.headers.get("Location")!;
    expect(to).toMatch(/^\/characters\?takeover=/);
    // The question says it on the page (issue 30 A7: not a second time in a toast).
    expect(toastOf(refused)).toBeUndefined();
    expect(await getStalkerStatus(acc.id)).toBeNull();

    const page = await callRoute<{ takeover: { intent: string; fields: Record<string, string>; holder: { purpose: string }; message: string } | null }>(
      charactersLoader,
      makeRequest(to, { cookie }),
    );
    expect(page.data.takeover).toMatchObject({
      intent: "start-stalker",
      fields: { accountId: acc.id },
      holder: { purpose: "collections" },
      message: `Account ${acc.nick} (${acc.id}) is in use by Collections. Take it over to use it here.`,
    });

    const took = await post({ intent: "start-stalker", accountId: acc.id, takeover: "1", redirectTo: "/characters" });
    expect(took.status).toBe(302);
    expect(toastOf(took)?.message).toBe(`Stalker started successfully · Took account ${acc.id} over from Collections`);
    expect(await getSession("collections", acc.id)).toMatchObject({ desired: "stop", actual: "stopped", note: "Taken over by the stalker" });
    expect(await getStalkerStatus(acc.id)).toMatchObject({ state: "active" });
    await stopStalker(acc.id);
  });
});

describe("Collections recovery-code login on an account a trading run holds", () => {
  it("refused with the holder named (the code never goes in a URL: the form's take-over box); ticked, the run is stopped and Collections logs in", async () => {
    const acc = sim.world.accounts.filter((a) => a.kind === "trader")[0]!;
    await upsertUser({ accountId: acc.id, nick: acc.nick, password: acc.password, type: "trading" });
    await startSession("trader", acc.id);
    const post = (form: Record<string, string>) =>
      callRoute<{ ok: boolean; message: string }>(collectionsAction, makeRequest("/collections", { cookie, form }));
    const refused = await post({ intent: "login", rc: acc.recoveryCode });
    expect(refused.status).toBe(409);
    expect(refused.data.message).toBe(`Account ${acc.nick} (${acc.id}) is in use by the trading run. Take it over to use it here.`);
    expect(usersSentFor(acc.id)).toBe(0);

    const ok = await post({ intent: "login", rc: acc.recoveryCode, takeover: "1" });
    expect(ok.data).toMatchObject({ ok: true, message: `Logged in as ${acc.nick}` });
    expect(await getSession("trader", acc.id)).toMatchObject({ desired: "stop", note: "Taken over by Collections" });
    expect(await getSession("collections", acc.id)).toMatchObject({ desired: "run" });
    await post({ intent: "logout" });
  });
});

describe("GalaCord connect-new", () => {
  const channel = { id: "900000000000000001", name: "relay", guildId: "900000000000000000", guildName: "Fans" };
  beforeEach(async () => {
    await (
      await getDb()
    )
      .insert(galacordBot)
      .values({ id: 1, channels: [channel] })
      .onConflictDoUpdate({ target: galacordBot.id, set: { channels: [channel] } });
  });

  it("an account Collections holds: 409 with the holder; an account saved already: 409, never silently moved", async () => {
    const acc = sim.world.accounts.filter((a) => a.kind === "plain")[0]!;
    await startSession("collections", acc.id, { hosted: false });
    const held = (await connectNewAction(await apiArgs(json("/api/bot/connect-new", { channelId: channel.id, recoveryCode: acc.recoveryCode })))) as Response;
    expect(held.status).toBe(409);
    expect((await held.json()).holder).toMatchObject({ purpose: "collections", key: acc.id });
    expect(await (await getDb()).select().from(galacordAccounts)).toEqual([]);

    const other = sim.world.accounts.filter((a) => a.kind === "plain")[1]!;
    const first = (await connectNewAction(
      await apiArgs(json("/api/bot/connect-new", { channelId: channel.id, recoveryCode: other.recoveryCode })),
    )) as Response;
    expect(first.status).toBe(200);
    const again = (await connectNewAction(
      await apiArgs(json("/api/bot/connect-new", { channelId: channel.id, recoveryCode: other.recoveryCode })),
    )) as Response;
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(`Account ${other.nick} (${other.id}) is already saved, relaying to #relay: use Change Channel to move it`);
    // Stopped while the bot does not run, and said why.
    expect(await getSession("relay-link", other.id)).toMatchObject({
      desired: "run",
      actual: "stopped",
      note: "The GalaCord bot is stopped: Start it to connect",
    });
    const [row] = await (
      await getDb()
    )
      .select()
      .from(sessions)
      .where(and(eq(sessions.purpose, "relay-link"), eq(sessions.key, other.id)));
    expect(row!.accountId).toBe(other.id);
  });
});
