/**
 * Issue 21 item 6, the standing two-operator suite: roles and whose credentials act.
 *
 * 1. Roles, over the real route table (a new route is covered without editing this file):
 *    a viewer's session and an admin's read-only token get 403 `{ error, message }` from every
 *    write method of every route with an action — page or /api — except the personal ones
 *    (their own password, tokens, theme, logout); nothing changes. A viewer reads every page
 *    and every parameterless /api GET.
 * 2. Whose credentials act (docs/decisions/0018), with two operators against the Galaxy
 *    simulator: a saved Collections account is its operator's alone — another operator's
 *    /api/clay call, Auto job or one-click login cannot act with it, and the platform never
 *    hears of it — while the team's characters act for every operator.
 */
import path from "node:path";
import type { Job } from "bullmq";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COLLECTIONS_TEXTS as T } from "#api/collections";
import type { AutomationJob } from "~/queue/queues.server";
import { processAutomationJob } from "#jobs/processors/automation";
import { startSimulator, type Simulator } from "#sim/server";
import { resetServicesFigures, servicesState } from "#sim/services-data";
import { createTestApiToken, createTestOperator, makeRequest, remixHandler, type TestOperator } from "#tests/kit";
import { fullPath, routeTable, type RouteEntry } from "#tests/kit/remix";
import { getDb } from "~/db/client.server";
import { resetGalaxyServices } from "~/platform/galaxy-services.server";
import { getState, listActivity, saveProfile, updateState } from "~/models/collections.server";
import { upsertUser } from "~/models/user.server";
import { writeRuleFor } from "~/http/access.server";
import { resetEnv } from "~/utils/env.server";

let handle: (request: Request) => Promise<Response>;
let admin: TestOperator;
let viewer: TestOperator;
let adminReadOnly: string;
let viewerToken: string;

type Loaded = { route: RouteEntry; path: string; hasAction: boolean; hasLoader: boolean };
let routes: Loaded[] = [];

beforeAll(async () => {
  const table = routeTable();
  handle = await remixHandler(() => true);
  for (const route of table) {
    const mod = (await import(/* @vite-ignore */ path.resolve("app", route.file))) as { action?: unknown; loader?: unknown };
    routes.push({ route, path: fullPath(route, table), hasAction: !!mod.action, hasLoader: !!mod.loader });
  }
  routes = routes.filter((r) => r.path !== "/");
  admin = await createTestOperator({ name: "lead" });
  viewer = await createTestOperator({ name: "onlooker", role: "viewer" });
  adminReadOnly = await createTestApiToken(admin.id, "read-only dashboard", { readOnly: true });
  viewerToken = await createTestApiToken(viewer.id, "viewer script");
});

/** Every table's rows, hashed (audit and logs aside: refusals may be logged, never audited as changes). */
async function snapshot(): Promise<Record<string, string>> {
  const db = await getDb();
  const tables = (await db.execute(
    sql`select tablename from pg_tables where schemaname = 'public' and tablename not in ('logs', 'api_tokens', 'operator_sessions') order by 1`,
  )) as unknown as { rows: { tablename: string }[] };
  const out: Record<string, string> = {};
  for (const { tablename } of tables.rows) {
    const res = (await db.execute(sql.raw(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from "${tablename}" t`))) as unknown as {
      rows: { h: string }[];
    };
    out[tablename] = res.rows[0]!.h;
  }
  return out;
}

const concrete = (p: string) => p.replace(/:[A-Za-z]+/g, "00000000-0000-0000-0000-000000000000").replace(/\*/g, "x");
const isApi = (p: string) => p === "/api" || p.startsWith("/api/");

describe("roles over every route", () => {
  it("finds the routes with actions", () => {
    expect(routes.filter((r) => r.hasAction).length).toBeGreaterThanOrEqual(40);
  });

  it(
    "a viewer (session or token) and a read-only token: every team and admin write is a 403 {error, message}; nothing changes",
    { timeout: 300_000 },
    async () => {
      const before = await snapshot();
      const failures: string[] = [];
      let checked = 0;
      for (const r of routes.filter((x) => x.hasAction)) {
        const url = concrete(r.path);
        if (writeRuleFor(url) === "personal") continue;
        for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
          const api = isApi(r.path);
          for (const [who, auth] of [
            ["viewer session", { cookie: viewer.cookie }],
            ["viewer token", { token: viewerToken }],
            ["admin's read-only token", { token: adminReadOnly }],
          ] as const) {
            const req = api
              ? makeRequest(url, { method, ...auth, json: { value: "x", userID: "12345678", password: "p", intent: "x" } })
              : makeRequest(`${url}.data`, { method, ...auth, form: { intent: "create", value: "x" } });
            const res = await handle(req);
            checked++;
            if (res.status !== 403) {
              failures.push(`${method} ${url} (${who}): ${res.status} ${(await res.text()).slice(0, 120)}`);
              continue;
            }
            if (api) {
              const body = (await res.json()) as { error?: string; message?: string };
              if (!body.error || body.message !== body.error) failures.push(`${method} ${url} (${who}): body ${JSON.stringify(body)}`);
            } else await res.arrayBuffer();
          }
        }
      }
      expect(failures).toEqual([]);
      expect(checked).toBeGreaterThan(300);
      expect(await snapshot()).toEqual(before);
    },
  );

  it("the personal writes stay open to a viewer: their password, their tokens, the theme, logging out", async () => {
    const theme = await handle(makeRequest("/resources/theme.data", { cookie: viewer.cookie, form: { theme: "light" } }));
    expect(theme.status).toBe(200);
    const token = await handle(makeRequest("/settings.data", { cookie: viewer.cookie, form: { intent: "create-token", name: "mine" } }));
    expect(token.status).toBeLessThan(400);
    // …but not the admins' intents on the same page.
    const sneaky = await handle(
      makeRequest("/settings.data", { cookie: viewer.cookie, form: { intent: "create-operator", name: "x", password: "12345678", role: "admin" } }),
    );
    expect(sneaky.status).toBe(403);
  });

  const ADMIN_READS = new Set(["/api/alerts"]);
  it("a viewer reads every page and every /api list", { timeout: 120_000 }, async () => {
    const failures: string[] = [];
    for (const r of routes.filter((x) => x.hasLoader && !x.path.includes(":") && !x.path.includes("*"))) {
      const url = isApi(r.path) ? r.path : `${r.path === "/" ? "/_root" : r.path}.data`;
      if (r.path === "/api/events") continue; // a stream: never ends by itself
      const res = await handle(makeRequest(url, { cookie: viewer.cookie }));
      // Where alerts go is for admins only (a destination's URL can post to the operators' channels; issue 31).
      if (ADMIN_READS.has(r.path)) {
        if (res.status !== 403) failures.push(`GET ${url}: ${res.status}, not the admins-only 403`);
      } else if (res.status === 401 || res.status === 403) failures.push(`GET ${url}: ${res.status}`);
      await res.arrayBuffer().catch(() => {});
    }
    expect(failures).toEqual([]);
  });
});

describe("whose credentials act (docs/decisions/0018)", () => {
  let sim: Simulator;
  let alice: TestOperator;
  let bob: TestOperator;
  let aliceToken: string;
  let bobToken: string;
  let aliceProfile: string;
  const acc = (i: number) => sim.world.accounts[i]!;
  const heardFrom = (id: string) => servicesState(sim.world).recent.filter((r) => r.userID === id).length;

  beforeAll(async () => {
    process.env.COLLECTIONS_TIME_SCALE = "0.001";
    sim = await startSimulator({ port: 0 });
    process.env.GALAXY_SERVICES_URL = sim.servicesUrl;
    resetEnv();
    resetGalaxyServices();
    alice = await createTestOperator({ name: "alice-ops", role: "operator" });
    bob = await createTestOperator({ name: "bob-ops", role: "operator" });
    aliceToken = await createTestApiToken(alice.id, "alice");
    bobToken = await createTestApiToken(bob.id, "bob");
    // Alice's own Collections account (personal), and a team character.
    aliceProfile = (await saveProfile(alice.id, { accountId: acc(0).id, nick: acc(0).nick, password: acc(0).password, loginMethod: "recovery" })).id;
    await upsertUser({ accountId: acc(1).id, nick: acc(1).nick, password: acc(1).password, type: "bowling" });
  });
  afterAll(async () => {
    delete process.env.COLLECTIONS_TIME_SCALE;
    delete process.env.GALAXY_SERVICES_URL;
    resetEnv();
    resetGalaxyServices();
    await sim.close();
  });
  const beforeEachCase = () => {
    sim.world.reset();
    resetServicesFigures(sim.world);
  };

  const inventory = (token: string, userID: string) => handle(makeRequest("/api/clay/gifts/inventory", { token, json: { userID, collectionId: 178 } }));

  it("/api/clay with {userID} alone: the caller's own saved account acts; another operator's does not, and the platform never hears of it", async () => {
    beforeEachCase();
    const refused = await inventory(bobToken, acc(0).id);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: T.badPassword });
    expect(heardFrom(acc(0).id)).toBe(0);

    const own = await inventory(aliceToken, acc(0).id);
    expect(own.status).toBe(200);
    expect(heardFrom(acc(0).id)).toBeGreaterThan(0);
  });

  it("the team's characters act for every operator (and never for a viewer)", async () => {
    beforeEachCase();
    expect((await inventory(bobToken, acc(1).id)).status).toBe(200);
    expect((await inventory(aliceToken, acc(1).id)).status).toBe(200);
    expect((await inventory(viewerToken, acc(1).id)).status).toBe(403);
    expect(heardFrom(acc(1).id)).toBeGreaterThan(0);
  });

  it("an Auto cycle for bob naming alice's profile stops without acting", async () => {
    beforeEachCase();
    await updateState(bob.id, { auto: true, autoChain: "crafted", collectionId: 178, recipientId: acc(2).id });
    const payload: AutomationJob = {
      kind: "cycle",
      operatorId: bob.id,
      profileId: aliceProfile,
      chain: "crafted",
      accountId: acc(0).id,
      collectionId: 178,
      recipientId: acc(2).id,
      run: 1,
      repeat: 1,
      intervalSeconds: 5,
    };
    const job = {
      data: payload,
      attemptsMade: 0,
      opts: { attempts: 1 },
      queueName: "automation",
      id: "auto-crafted-1",
      timestamp: Date.now(),
    } as unknown as Job<AutomationJob>;
    expect(await processAutomationJob(job)).toMatchObject({ stopped: "no profile", sent: 0 });
    expect(heardFrom(acc(0).id)).toBe(0);
    expect((await getState(bob.id)).auto).toBe(false);
    expect((await listActivity(bob.id))[0]?.message).toContain(T.noProfile);
    // Alice's own screen state is untouched.
    expect((await listActivity(alice.id)).some((e) => e.message.includes("crafted"))).toBe(false);
  });

  it("bob cannot log in to Collections with alice's saved account, nor see it", async () => {
    const res = await handle(makeRequest("/collections.data", { cookie: bob.cookie, form: { intent: "login-saved", profileId: aliceProfile } }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    await res.arrayBuffer();
    expect((await getState(bob.id)).profileId).toBeNull();
    const page = await handle(makeRequest("/collections.data", { cookie: bob.cookie }));
    expect(await page.text()).not.toContain(aliceProfile);
  });
});
