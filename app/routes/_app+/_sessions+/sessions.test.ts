import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deleteKeys } from "#jobs/test-helpers";
import { resetJobEngineStatus } from "~/queue/status.server";
import { getDb } from "~/db/client.server";
import { sessions, users } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { callRoute, createTestOperator, makeRequest, remixHandler, toastOf, type TestOperator } from "#tests/kit";
import { loader } from "./sessions";

/**
 * Issue 31 item 1, the /sessions page's forms without JavaScript (plain posts, redirect after
 * POST, through the real route table and the route guard): bulk stop of the selected sessions
 * with Undo (stopping a stalker loses nothing), Undo starting them again, a stop that loses a
 * trading run's position asking first, a viewer refused.
 */
let handle: (request: Request) => Promise<Response>;
let operator: TestOperator;
let viewer: TestOperator;

beforeAll(async () => {
  handle = await remixHandler((r) => /_sessions\+\/sessions$/.test(r.id));
  operator = await createTestOperator({ name: "opal", role: "operator" });
  viewer = await createTestOperator({ name: "vlad", role: "viewer" });
});
beforeEach(async () => {
  const db = await getDb();
  await db.delete(sessions);
  await db.delete(users);
  resetJobEngineStatus();
});
afterAll(async () => {
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

async function seedStalkers(ids: string[]) {
  const db = await getDb();
  await db.insert(users).values(ids.map((id) => ({ accountId: id, nick: `Nick${id}`, password: "x", type: "stalker" as const })));
  await db
    .insert(sessions)
    .values(ids.map((id) => ({ purpose: "stalker" as const, key: id, accountId: id, desired: "run" as const, actual: "waiting" as const })));
}

async function desired() {
  const db = await getDb();
  return Object.fromEntries((await db.select().from(sessions)).map((r) => [`${r.purpose}:${r.key}`, r.desired]));
}

const post = (path: string, form: [string, string][], who = operator) =>
  handle(makeRequest(path, { cookie: who.cookie, form: [...form, ["redirectTo", path]] }));

describe("/sessions bulk actions without JavaScript", () => {
  it("Stop stops the selected sessions, says how many, and offers Undo, which starts them again", async () => {
    await seedStalkers(["5001", "5002", "5003"]);
    const res = await post("/sessions?purpose=stalker", [
      ["intent", "stop"],
      ["s", "stalker:5001"],
      ["s", "stalker:5002"],
    ]);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("Location")!, "http://x");
    expect(to.pathname).toBe("/sessions");
    expect(to.searchParams.get("purpose")).toBe("stalker");
    expect(to.searchParams.get("undo")?.split(",").sort()).toEqual(["stalker:5001", "stalker:5002"]);
    expect(toastOf(res)).toMatchObject({ type: "success", message: "Stopped 2 sessions" });
    expect(await desired()).toEqual({ "stalker:5001": "stop", "stalker:5002": "stop", "stalker:5003": "run" });

    // The page offers Undo (the loader reads it from the URL).
    const page = await callRoute<{ undo: { purpose: string; key: string }[] | null; list: { total: number } }>(
      loader,
      makeRequest(`${to.pathname}${to.search}`, { cookie: operator.cookie }),
    );
    expect(page.status).toBe(200);
    expect(page.data.undo).toEqual([
      { purpose: "stalker", key: to.searchParams.get("undo")!.split(",")[0]!.slice(8) },
      { purpose: "stalker", key: to.searchParams.get("undo")!.split(",")[1]!.slice(8) },
    ]);
    expect(page.data.list.total).toBe(3);

    const undo = await post("/sessions?purpose=stalker", [
      ["intent", "undo"],
      ["s", "stalker:5001,stalker:5002"],
    ]);
    expect(undo.status).toBe(302);
    expect(toastOf(undo)).toMatchObject({ type: "success", message: "Started 2 sessions" });
    expect(await desired()).toEqual({ "stalker:5001": "run", "stalker:5002": "run", "stalker:5003": "run" });
    expect(new URL(undo.headers.get("Location")!, "http://x").searchParams.get("undo")).toBeNull();
  });

  it("a stop that loses a trading run's position asks first; confirmed, it stops (no Undo)", async () => {
    const db = await getDb();
    await db.insert(users).values({ accountId: "6001", nick: "Trader6", password: "x", type: "trading" });
    await db.insert(sessions).values({ purpose: "trader", key: "6001", accountId: "6001", desired: "run", actual: "waiting" });
    const ask = await post("/sessions", [
      ["intent", "stop"],
      ["s", "trader:6001"],
    ]);
    expect(ask.status).toBe(302);
    const to = new URL(ask.headers.get("Location")!, "http://x");
    expect(to.searchParams.get("confirm")).toBe("stop");
    expect(to.searchParams.get("selected")).toBe("trader:6001");
    expect(await desired()).toEqual({ "trader:6001": "run" });
    // The page then asks (its confirmation panel posts the same selection with confirmed=1).
    const asking = await callRoute<{ confirm: { action: string; targets: { purpose: string; key: string }[] } | null }>(
      loader,
      makeRequest(`${to.pathname}${to.search}`, { cookie: operator.cookie }),
    );
    expect(asking.data.confirm).toEqual({ action: "stop", targets: [{ purpose: "trader", key: "6001" }] });

    const confirmed = await post("/sessions", [
      ["intent", "stop"],
      ["s", "trader:6001"],
      ["confirmed", "1"],
    ]);
    expect(toastOf(confirmed)).toMatchObject({ type: "success", message: "Stopped 1 session" });
    expect(new URL(confirmed.headers.get("Location")!, "http://x").searchParams.get("undo")).toBeNull();
    expect(await desired()).toEqual({ "trader:6001": "stop" });
  });

  it("nothing selected, or a session that is not there, is refused with its reason and changes nothing", async () => {
    await seedStalkers(["7001"]);
    expect(toastOf(await post("/sessions", [["intent", "stop"]]))).toMatchObject({ type: "error", message: "Select at least one session" });
    const gone = await post("/sessions", [
      ["intent", "stop"],
      ["s", "stalker:9999"],
    ]);
    expect(toastOf(gone)?.message).toBe("Stopped 0 sessions; 1 failed: 9999: A selected session does not exist any more; reload the page");
    expect(await desired()).toEqual({ "stalker:7001": "run" });
  });

  it("issue 30 A6: a refused selection comes back ticked: 'too many' and 'not found' keep the posted boxes, a partial stop the ones not stopped", async () => {
    await seedStalkers(["7101", "7102"]);
    const selectedOf = (res: Response) => new URL(res.headers.get("Location")!, "http://x").searchParams.get("selected");
    // More than BULK_MAX (200): refused as a whole; one page's worth of the posted boxes comes back ticked.
    const many = Array.from({ length: 201 }, (_, i): [string, string] => ["s", `stalker:${9000 + i}`]);
    const tooMany = await post("/sessions?purpose=stalker", [["intent", "stop"], ["s", "stalker:7101"], ...many]);
    expect(toastOf(tooMany)).toMatchObject({ type: "error", message: "Select at most 200 sessions at a time" });
    const back = new URL(tooMany.headers.get("Location")!, "http://x");
    expect(back.searchParams.get("purpose")).toBe("stalker");
    expect(selectedOf(tooMany)?.split(",")).toEqual(["stalker:7101", ...many.slice(0, 49).map(([, v]) => v)]);
    // A selection that is not one (a ref the page never had): refused as a whole, the rest ticked again.
    const bad = await post("/sessions", [
      ["intent", "restart"],
      ["s", "stalker:7101"],
      ["s", "gone:1"],
    ]);
    expect(toastOf(bad)).toMatchObject({ type: "error", message: "A selected session does not exist any more; reload the page" });
    expect(selectedOf(bad)).toBe("stalker:7101");
    // The page ticks them (the loader reads them from the URL, without a confirmation).
    const page = await callRoute<{ ticked: string[]; confirm: unknown }>(loader, makeRequest(`/sessions?selected=stalker:7101`, { cookie: operator.cookie }));
    expect(page.data).toMatchObject({ ticked: ["stalker:7101"], confirm: null });
    // Found and not found: the stop of the one found stands (its box unticked), the other comes back ticked.
    const partial = await post("/sessions", [
      ["intent", "stop"],
      ["s", "stalker:7102"],
      ["s", "stalker:9999"],
    ]);
    expect(toastOf(partial)?.message).toBe("Stopped 1 session; 1 failed: 9999: A selected session does not exist any more; reload the page");
    expect(selectedOf(partial)).toBe("stalker:9999");
    expect(await desired()).toEqual({ "stalker:7101": "run", "stalker:7102": "stop" });
    // A success ticks nothing.
    expect(
      selectedOf(
        await post("/sessions", [
          ["intent", "start"],
          ["s", "stalker:7102"],
        ]),
      ),
    ).toBeNull();
  });

  it("a viewer's stop is refused and changes nothing", async () => {
    await seedStalkers(["8001"]);
    const res = await post(
      "/sessions",
      [
        ["intent", "stop"],
        ["s", "stalker:8001"],
      ],
      viewer,
    );
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(await desired()).toEqual({ "stalker:8001": "run" });
  });
});
