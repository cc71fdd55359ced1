/**
 * The All Characters page (spec 2 §2 "All Characters screen", §4 "Stalker", §8 "Characters"):
 * loader data and every intent, against PostgreSQL, Redis and the simulator. No worker runs in
 * this file: a started stalker stays "connecting" and a refresh job waits in its queue.
 */
import { TYPE_SECRET_AGAIN } from "~/utils/kept-fields";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ACCOUNT_ERRORS, ACCOUNT_MESSAGES } from "#api/accounts";
import { getQueue } from "~/queue/queues.server";
import { beatAsWorker, deleteKeys } from "#jobs/test-helpers";
import { Theme } from "@radix-ui/themes";
import { createRemixStub } from "@remix-run/testing";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { CharacterRowView, type RowContext } from "./components/character-row";
import { startSimulator, type Simulator } from "#sim/server";
import { callRoute, createTestOperator, makeRequest, toastOf } from "#tests/kit";
import { getDb } from "~/db/client.server";
import { appSettings, categories, characterDetails, sessions, users } from "~/db/schema";
import { GALAXY_MESSAGES } from "~/galaxy/messages";
import { getSelectedCharacter, saveCharacterDetails } from "~/models/character-details.server";
import { selectCharacter, setRefreshProgress } from "~/models/character-refresh.server";
import { upsertUser } from "~/models/user.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { action, loader, REFRESH_STARTED, type ActionResult, type CharacterRow } from "./characters";

type Group = { group: string; title: string; rows: CharacterRow[] };
type PageData = {
  groups: Group[];
  categories: { _id: string; value: string }[];
  totals: { type: number; amount: number }[];
  giftFilter: number[];
  selected: string | null;
  stalker: { accountId: string; nick: string; state: string } | null;
  progress: { running: boolean; done: number; total: number } | null;
  notice: { type: string; message: string; description?: string } | null;
  refreshingNoJs: boolean;
  summary: unknown;
};

let sim: Simulator;
let cookie: string;
let operatorId: string;
const STALKER = "61234567";
const TRADER = "61234568";
const BOWLER = "61234569";
const SECRET = "s3cretPassw0rdThatMustNotLeak";

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  process.env.GALAXY_WS_URL = sim.wsUrl;
  process.env.SESSION_START_WAIT_MS = "0";
  resetEnv();
  const op = await createTestOperator({ name: "charops", password: "correct horse" });
  cookie = op.cookie;
  operatorId = op.id;
});
afterAll(async () => {
  await sim.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});
beforeEach(async () => {
  sim.world.reset();
  const db = await getDb();
  await db.delete(sessions);
  await db.delete(characterDetails);
  await db.delete(users);
  await db.delete(appSettings).where(like(appSettings.key, "characters.%"));
  await getQueue("stalker").obliterate({ force: true });
  await getQueue("bulk-refresh").obliterate({ force: true });
  await upsertUser({ accountId: STALKER, nick: "watcher", password: SECRET, type: "stalker", recoveryCode: "RCSECRET01" });
  await upsertUser({ accountId: TRADER, nick: "Seller One", password: SECRET, type: "trading", sek: "SEKSECRET" });
  await upsertUser({ accountId: BOWLER, nick: "bowler", password: SECRET, type: "bowling" });
});

const page = (query = "", withCookie = true) => callRoute<PageData>(loader, makeRequest(`/characters${query}`, { cookie: withCookie ? cookie : [] }));
const post = (fields: Record<string, string>) => callRoute<ActionResult>(action, makeRequest("/characters", { cookie, form: fields }));
const row = (d: PageData, id: string) => d.groups.flatMap((g) => g.rows).find((r) => r.account_id === id);

describe("/characters loader (spec 2 §2 All Characters screen)", () => {
  it("needs a logged-in operator", async () => {
    const res = await page("", false);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login/);
  });

  it("groups '{group} Characters' stalker, trading, bowling first then alphabetical, rows with initials, device and no secrets", async () => {
    await upsertUser({ accountId: "61234570", nick: "zed", password: SECRET, type: "suppliers" });
    await upsertUser({ accountId: "61234571", nick: "amy", password: SECRET, type: "recipients" });
    const { status, data } = await page();
    expect(status).toBe(200);
    expect(data.groups.map((g) => g.title)).toEqual([
      "stalker Characters",
      "trading Characters",
      "bowling Characters",
      "recipients Characters",
      "suppliers Characters",
    ]);
    expect(row(data, TRADER)).toMatchObject({ nick: "Seller One", initials: "SO", device: "android", isStalker: false, gifts: null, giftsFailed: false });
    expect(row(data, STALKER)).toMatchObject({ initials: "WA", device: "web", isStalker: true, active: false, stalkerState: "inactive" });
    const text = JSON.stringify(data);
    for (const secret of [SECRET, "RCSECRET01", "SEKSECRET"]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/"(password|recoveryCode|sek|iHeaders)"/);
    expect(data.stalker).toEqual({ accountId: STALKER, nick: "watcher", state: "inactive", session: null });
    expect(data.summary).toBeTruthy();
  });

  it("shows stored details: picture, online status with room, gifts, and 'Failed to load gifts' rows", async () => {
    await saveCharacterDetails(TRADER, {
      picUrl: "https://img.example/p.png",
      status: { isOnline: true, room: "Lobby", source: "service" },
      gifts: [
        { type: 11, name: "Clay", img: "c.png", amount: 3 },
        { type: 4, name: "Silver Ring", img: "r.png", amount: 1 },
      ],
    });
    await saveCharacterDetails(BOWLER, { status: { isOnline: false, room: null, source: "service" }, failed: { gifts: "Simulated service failure" } });
    const { data } = await page();
    expect(row(data, TRADER)).toMatchObject({ picUrl: "https://img.example/p.png", isOnline: true, room: "Lobby", giftsFailed: false });
    expect(row(data, TRADER)!.gifts).toHaveLength(2);
    expect(row(data, BOWLER)).toMatchObject({ isOnline: false, gifts: null, giftsFailed: true });
    expect(data.totals.map((t) => [t.type, t.amount])).toEqual([
      [11, 3],
      [4, 1],
    ]);
  });

  it("§4 gift filter from ?gift=: users with every selected type above zero first, then by amount", async () => {
    await upsertUser({ accountId: "61234572", nick: "aaa", password: SECRET, type: "bowling" });
    await saveCharacterDetails(BOWLER, { gifts: [{ type: 11, name: "Clay", img: "", amount: 2 }] });
    await saveCharacterDetails("61234572", { gifts: [{ type: 11, name: "Clay", img: "", amount: 9 }] });
    const plain = (await page()).data.groups.find((g) => g.group === "bowling")!;
    expect(plain.rows.map((r) => r.nick)).toEqual(["aaa", "bowler"]);
    await saveCharacterDetails("61234572", { gifts: [{ type: 11, name: "Clay", img: "", amount: 0 }] });
    const { data } = await page("?gift=11&gift=junk");
    expect(data.giftFilter).toEqual([11]);
    expect(data.groups.find((g) => g.group === "bowling")!.rows.map((r) => r.nick)).toEqual(["bowler", "aaa"]);
  });

  it("issue 19 item 14: ?q= keeps the rows whose nick or account id holds it, case-insensitively, across groups; totals count everyone", async () => {
    await saveCharacterDetails(TRADER, { gifts: [{ type: 11, name: "Gift 11", img: "", amount: 3 }] });
    await saveCharacterDetails(BOWLER, { gifts: [{ type: 11, name: "Gift 11", img: "", amount: 4 }] });
    const ids = (d: PageData) => d.groups.flatMap((g) => g.rows.map((r) => r.account_id));
    const seller = (await page("?q=seller%20ONE")).data;
    expect(ids(seller)).toEqual([TRADER]);
    expect(seller.groups.map((g) => g.group)).toEqual(["trading"]);
    expect(seller).toMatchObject({ query: "seller ONE", userCount: 3 });
    expect(seller.totals).toEqual([expect.objectContaining({ type: 11, amount: 7 })]);
    expect(ids((await page(`?q=${BOWLER.slice(-3)}`)).data)).toEqual([BOWLER]);
    expect(ids((await page("?q=zzz")).data)).toEqual([]);
    expect(ids((await page("?q=&gift=11")).data).sort()).toEqual([STALKER, TRADER, BOWLER].sort());
  });

  it("§4 on load, an active stalker with no selection becomes the selected user; Active badge", async () => {
    await (await getDb()).insert(sessions).values({ purpose: "stalker", key: STALKER, accountId: STALKER, desired: "run", actual: "active" });
    const { data } = await page();
    expect(data.selected).toBe(STALKER);
    expect(await getSelectedCharacter(operatorId)).toBe(STALKER);
    expect(row(data, STALKER)).toMatchObject({ active: true, stalkerState: "active" });
    expect(data.stalker).toMatchObject({ accountId: STALKER, state: "active" });
  });
});

describe("issue 30 A4: a row that shows a session tells its own state and reason, like the card", () => {
  const OTHER = "61234572";
  afterAll(async () => {
    const { producerConnection } = await import("~/queue/redis.server");
    const { heartbeatKeys } = await import("~/queue/redis.server");
    await producerConnection().del(heartbeatKeys.worker("w-a4"));
    await producerConnection().srem(heartbeatKeys.workers(), "w-a4");
  });

  it("a non-selected stalker retrying after 452 carries its session: the reason, the attempt and the next try; the row renders them", async () => {
    await beatAsWorker("w-a4");
    await upsertUser({ accountId: OTHER, nick: "retrier", password: SECRET, type: "stalker" });
    const db = await getDb();
    const error = "You are already online or banned; retry 1 of 3";
    await db.insert(sessions).values([
      { purpose: "stalker", key: STALKER, accountId: STALKER, desired: "run", actual: "active", holder: "w-a4" },
      {
        purpose: "stalker",
        key: OTHER,
        accountId: OTHER,
        desired: "run",
        actual: "reconnecting",
        holder: "w-a4",
        attempt: 1,
        error,
        nextRetryAt: new Date(Date.now() + 60_000),
      },
    ]);
    await selectCharacter(operatorId, STALKER);
    const { data } = await page();
    // The card follows the running, selected one; the other one's row has its own truth.
    expect(data.stalker?.accountId).toBe(STALKER);
    expect(row(data, STALKER)).toMatchObject({ stalkerPhase: "active", stalkerSession: null });
    const other = row(data, OTHER)!;
    expect(other).toMatchObject({ active: true, stalkerPhase: "retrying", stalkerSession: { actual: "reconnecting", error, attempt: 1, phase: "retrying" } });

    const ctx = { refreshing: false, canWrite: true, search: "", names: {}, onDelete: null, deleting: null } as unknown as RowContext;
    const Stub = createRemixStub([{ path: "/characters", Component: () => createElement(CharacterRowView, { row: other, ctx }) }]);
    // The stub's memory router uses useLayoutEffect, which React warns about on the server: only that is dropped.
    const err = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => {
      if (!String(a[0]).includes("useLayoutEffect does nothing on the server")) throw new Error(String(a[0]));
    });
    const html = renderToString(createElement(Theme, null, createElement(Stub, { initialEntries: ["/characters"] })));
    err.mockRestore();
    expect(html).toContain("Stalker retrying");
    expect(html).toContain(error);
    expect(html).toContain("attempt 1");
    expect(html).toContain(`/logs?account=${OTHER}`);
  });
});

describe("/characters action (spec 2 §8 Characters texts)", () => {
  it("create-user from a simulator recovery code: 'User created successfully'; no-JS posts redirect with the toast", async () => {
    const acc = sim.world.accounts[0]!;
    await getQueue("status-refresh").obliterate({ force: true });
    const res = await post({ intent: "create-user", rc: acc.recoveryCode, type: "bowling" });
    expect(res.data).toEqual({
      ok: true,
      intent: "create-user",
      message: ACCOUNT_MESSAGES.userCreated,
      toast: expect.objectContaining({ type: "success", message: ACCOUNT_MESSAGES.userCreated }),
    });
    // Issue 19 item 8: its picture, status and gifts are asked for at once (the worker: jobs/processors/characters.test.ts).
    const queued = await getQueue("status-refresh").getJobs(["waiting", "prioritized", "delayed", "active"]);
    expect(queued.map((j) => j.data)).toEqual([expect.objectContaining({ kind: "statuses", accountIds: [acc.id], everything: true })]);
    expect(toastOf(res)).toMatchObject({ type: "success", message: ACCOUNT_MESSAGES.userCreated });
    expect(row((await page()).data, acc.id)).toMatchObject({ nick: acc.nick, type: "bowling" });

    const acc2 = sim.world.accounts[1]!;
    const plain = await post({ intent: "create-user", rc: acc2.recoveryCode, type: "stalker", redirectTo: "/characters" });
    expect(plain.status).toBe(302);
    expect(plain.headers.get("Location")).toBe("/characters");
    expect(toastOf(plain)).toMatchObject({ type: "success", message: ACCOUNT_MESSAGES.userCreated });
  });

  it("issue 30 A7: Create User with JavaScript answers without waiting for the worker to load the new user's details", async () => {
    // No worker runs here: an answer that waited for the details would take the whole wait.
    process.env.SESSION_START_WAIT_MS = "60000";
    try {
      const acc = sim.world.accounts[2]!;
      const res = await post({ intent: "create-user", rc: acc.recoveryCode, type: "bowling" });
      expect(res.data).toMatchObject({ ok: true, message: ACCOUNT_MESSAGES.userCreated });
      const queued = await getQueue("status-refresh").getJobs(["waiting", "prioritized", "delayed", "active"]);
      expect(queued.map((j) => j.data)).toContainEqual(expect.objectContaining({ kind: "statuses", accountIds: [acc.id] }));
    } finally {
      process.env.SESSION_START_WAIT_MS = "0";
    }
  });

  it("create-user failures show the server's message; nothing is stored", async () => {
    const before = (await (await getDb()).select().from(users)).length;
    const bad = await post({ intent: "create-user", rc: "ZZZZZZZZZZ", type: "bowling" });
    expect(bad.status).toBe(400);
    // Issue 30 A6: the reason next to the code's field too (the fetcher's form still holds the code), spec 2 §8's toast kept.
    expect(bad.data).toEqual({
      ok: false,
      intent: "create-user",
      message: GALAXY_MESSAGES.invalidCredentials,
      kept: { fields: { intent: "create-user", type: "bowling" }, fieldErrors: { rc: [GALAXY_MESSAGES.invalidCredentials] }, formErrors: [] },
      toast: expect.objectContaining({ type: "error", message: GALAXY_MESSAGES.invalidCredentials }),
    });
    expect(toastOf(bad)).toMatchObject({ type: "error", message: GALAXY_MESSAGES.invalidCredentials });
    expect((await post({ intent: "create-user", rc: "", type: "bowling" })).data.message).toBe(ACCOUNT_ERRORS.rcRequired);
    expect((await post({ intent: "create-user", rc: "ABCDEFGHIJ", type: " " })).data.message).toBe(ACCOUNT_ERRORS.typeRequired);
    // Without JavaScript a failure renders the open form again (posted to its dialog's URL): the
    // category kept, the reason next to the code, which is never sent back and is asked for again.
    const plain = await post({ intent: "create-user", rc: "x", type: "bowling", redirectTo: "/characters" });
    expect(plain.status).toBe(400);
    expect(plain.data).toMatchObject({
      kept: { fields: { intent: "create-user", type: "bowling" }, fieldErrors: { rc: [ACCOUNT_ERRORS.rcFormat, TYPE_SECRET_AGAIN] }, formErrors: [] },
    });
    expect(JSON.stringify(plain.data)).not.toContain('"x"');
    expect((await (await getDb()).select().from(users)).length).toBe(before);
  });

  it("add-category and delete-category: success texts, duplicates and unknown ids refused", async () => {
    const added = await post({ intent: "add-category", value: "  Whales " });
    expect(added.data).toEqual({
      ok: true,
      intent: "add-category",
      message: ACCOUNT_MESSAGES.categoryCreated,
      toast: expect.objectContaining({ type: "success", message: ACCOUNT_MESSAGES.categoryCreated }),
    });
    expect(toastOf(added)?.message).toBe(ACCOUNT_MESSAGES.categoryCreated);
    const cats = (await page()).data.categories;
    const whales = cats.find((c) => c.value === "Whales")!;
    expect(whales).toBeTruthy();
    expect((await post({ intent: "add-category", value: "whales" })).data).toMatchObject({ ok: false, message: ACCOUNT_ERRORS.categoryExists });
    expect((await post({ intent: "add-category", value: "   " })).data).toMatchObject({ ok: false, message: ACCOUNT_ERRORS.categoryRequired });
    const del = await post({ intent: "delete-category", id: whales._id, redirectTo: "/characters?dialog=category" });
    expect(del.status).toBe(302);
    expect(toastOf(del)).toMatchObject({ type: "success", message: ACCOUNT_MESSAGES.categoryDeleted });
    const again = await post({ intent: "delete-category", id: whales._id });
    expect(again.status).toBe(404);
    expect(again.data.message).toBe(ACCOUNT_ERRORS.categoryNotFound);
    expect((await (await getDb()).select().from(categories)).some((c) => c.value === "Whales")).toBe(false);
  });

  it("issue 19 item 9: a deleted user and a deleted category come back with Undo (the loader offers it); a second Undo finds nothing", async () => {
    const del = await post({ intent: "delete-user", accountId: TRADER });
    expect(del.data.ok).toBe(true);
    const offered = (await page()).data as PageData & { undo: { id: string; label: string } | null };
    expect(offered.undo).toMatchObject({ label: `Seller One (${TRADER})` });
    expect(row(offered, TRADER)).toBeUndefined();
    const back = await post({ intent: "undo-delete", undoId: offered.undo!.id });
    expect(back.data).toMatchObject({ ok: true, message: "Restored Seller One" });
    const after = (await page()).data as PageData & { undo: unknown };
    expect(row(after, TRADER)).toMatchObject({ nick: "Seller One", type: "trading", device: "android" });
    expect(after.undo).toBeNull();
    // The secrets came back encrypted as they were: the restored user still acts.
    const [restored] = await (await getDb()).select().from(users).where(eq(users.accountId, TRADER));
    expect(restored!.password).not.toContain(SECRET);
    expect((await post({ intent: "undo-delete", undoId: offered.undo!.id })).data).toMatchObject({
      ok: false,
      message: "Nothing to undo: a deleted user or category can be restored for 2 minutes",
    });

    await post({ intent: "add-category", value: "whales" });
    const cat = (await page()).data.categories.find((c) => c.value === "whales")!;
    expect((await post({ intent: "delete-category", id: cat._id })).data.ok).toBe(true);
    const undo = ((await page()).data as PageData & { undo: { id: string; label: string } }).undo;
    expect(undo.label).toBe("category whales");
    expect((await post({ intent: "undo-delete", undoId: undo.id })).data).toMatchObject({ ok: true, message: "Restored category whales" });
    expect((await page()).data.categories).toContainEqual({ _id: cat._id, value: "whales" });
  });

  it("delete-user: 'User deleted successfully', then 'User not found'", async () => {
    const res = await post({ intent: "delete-user", accountId: BOWLER });
    expect(res.data).toEqual({
      ok: true,
      intent: "delete-user",
      message: ACCOUNT_MESSAGES.userDeleted,
      toast: expect.objectContaining({ type: "success", message: ACCOUNT_MESSAGES.userDeleted }),
    });
    expect(row((await page()).data, BOWLER)).toBeUndefined();
    const again = await post({ intent: "delete-user", accountId: BOWLER });
    expect(again.status).toBe(404);
    expect(again.data.message).toBe(ACCOUNT_ERRORS.userNotFound);
    expect((await post({ intent: "delete-user", accountId: "" })).data.message).toBe(ACCOUNT_ERRORS.userNotFound);
  });

  it("start-stalker selects the user; stop of the selected user clears the selection", async () => {
    const started = await post({ intent: "start-stalker", accountId: STALKER });
    // No worker runs here: the start answers what it knows (it waits for a worker).
    expect(started.data).toEqual({
      ok: true,
      intent: "start-stalker",
      message: ACCOUNT_MESSAGES.stalkerConnecting,
      toast: expect.objectContaining({ type: "success", message: ACCOUNT_MESSAGES.stalkerConnecting }),
    });
    expect(toastOf(started)?.message).toBe(ACCOUNT_MESSAGES.stalkerConnecting);
    expect(await getSelectedCharacter(operatorId)).toBe(STALKER);
    const d = (await page()).data;
    expect(d.stalker).toMatchObject({ accountId: STALKER, state: "connecting" });
    expect(row(d, STALKER)).toMatchObject({ active: true });

    const stopped = await post({ intent: "stop-stalker", accountId: STALKER, redirectTo: "/characters" });
    expect(stopped.status).toBe(302);
    expect(toastOf(stopped)).toMatchObject({ type: "success", message: ACCOUNT_MESSAGES.stalkerStopped });
    expect(await getSelectedCharacter(operatorId)).toBeNull();
    expect((await page()).data.stalker).toMatchObject({ state: "inactive" });
  });

  it("start/stop refusals show the server's message; fallbacks are §8's", async () => {
    const notStalker = await post({ intent: "start-stalker", accountId: TRADER });
    expect(notStalker.status).toBe(400);
    expect(notStalker.data.message).toBe(ACCOUNT_ERRORS.notStalker);
    expect((await post({ intent: "start-stalker", accountId: "99999999" })).data.message).toBe(ACCOUNT_ERRORS.userNotFound);
    expect((await post({ intent: "stop-stalker", accountId: "abc" })).data.message).toBe(ACCOUNT_ERRORS.accountIdRequired);
    expect((await (await getDb()).select().from(sessions)).length).toBe(0);
  });

  it("refresh starts the forced characters refresh; the loader shows its progress", async () => {
    const res = await post({ intent: "refresh" });
    expect(res.data).toEqual({
      ok: true,
      intent: "refresh",
      message: REFRESH_STARTED,
      toast: expect.objectContaining({ type: "success", message: REFRESH_STARTED }),
    });
    expect((await page()).data.progress).toMatchObject({ running: true, done: 0 });
    const job = await getQueue("bulk-refresh").getJob("characters-refresh");
    expect(job?.data).toMatchObject({ kind: "refresh", section: "characters", skipCache: true });
  });

  it("refresh without JavaScript: to ?refreshing=1 (reloading itself while the job runs), then back with the outcome's flash toast", async () => {
    const res = await post({ intent: "refresh", redirectTo: "/characters?gift=11" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/characters?gift=11&refreshing=1");
    expect(toastOf(res)).toMatchObject({ type: "success", message: REFRESH_STARTED });
    const running = await page("?gift=11&refreshing=1");
    expect(running.status).toBe(200);
    expect(running.data).toMatchObject({ refreshingNoJs: true, progress: { running: true }, notice: null });

    const base = { running: false, startedAt: new Date().toISOString(), finishedAt: new Date().toISOString(), done: 3, total: 3 };
    const reason = "The platform answered 500 to gift_stats_ajax: Simulated service failure";
    await setRefreshProgress({ ...base, failed: 3, outcome: "failure", reason, failedAccounts: [] });
    const all = await page("?gift=11&refreshing=1");
    expect(all.headers.get("Location")).toBe("/characters?gift=11");
    expect(toastOf(all)).toMatchObject({ type: "error", message: "Failed to fetch user details", description: `All 3 users failed: ${reason}` });

    await setRefreshProgress({ ...base, failed: 1, outcome: "partial", reason, failedAccounts: [{ accountId: BOWLER, nick: "bowler" }] });
    const some = { type: "warning", message: "User details refreshed for 2 of 3 users; 1 failed: bowler", description: reason };
    expect(toastOf(await page("?refreshing=1"))).toMatchObject(some);
    // With JavaScript the same words come with the page data (the screen toasts them when the job it watched ends).
    expect((await page()).data.notice).toEqual(some);

    await setRefreshProgress({ ...base, failed: 0, outcome: "success", reason: null, failedAccounts: [] });
    expect(toastOf(await page("?refreshing=1"))).toMatchObject({ type: "success", message: "User details refreshed" });
  });

  it("a failed gift stats call keeps the last known gifts (stale, with the reason); 'Failed to load gifts' only without any; totals from the rows", async () => {
    await saveCharacterDetails(TRADER, {
      gifts: [{ type: 11, name: "Clay", img: "", amount: 7 }],
      status: { isOnline: true, room: "Moon", source: "service" },
    });
    await saveCharacterDetails(TRADER, { failed: { gifts: "Simulated service failure", status: "Simulated service failure" } });
    await saveCharacterDetails(BOWLER, { failed: { gifts: "Simulated service failure" } });
    const { data } = await page();
    expect(row(data, TRADER)).toMatchObject({
      gifts: [{ type: 11, amount: 7 }],
      isOnline: true,
      room: "Moon",
      stale: { reason: "Simulated service failure", since: expect.any(String) },
    });
    expect(row(data, TRADER)!.stale!.parts.sort()).toEqual(["gifts", "status"]);
    expect(row(data, BOWLER)).toMatchObject({ gifts: null, giftsFailed: true, stale: null });
    expect(data.totals).toEqual([{ type: 11, name: "Clay", img: "", amount: 7 }]);
  });

  it("an unknown intent is a 400", async () => {
    const res = await post({ intent: "explode" });
    expect(res.status).toBe(400);
    expect(res.data).toMatchObject({ ok: false, message: "Unknown intent: explode" });
  });
});
