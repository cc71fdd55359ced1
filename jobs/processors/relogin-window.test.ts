/**
 * Issue 34 item 2, against the simulator with its default "recently left" window (10 s: a login
 * within 10 s of the account's last QUIT gets 452, galaxy-platform.md §4) and real sockets, a
 * real in-process worker, PostgreSQL and Redis: an operator's Stop then Start at once logs the
 * stalker in again after one 452 — shown as retrying with the next try when the window has
 * passed — instead of ending failed. Pauses are scaled by STALKER_TIME_SCALE = 0.1, so the
 * policy's own 452 retries (12 s → 1.2 s, 3 times) would all land inside the window: only
 * waiting for our own logout's window gets it in. Decision 0042.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { getDb } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { lastLogoutAt, reloginMarginMs, reloginWindowMs } from "~/models/galaxy-logout.server";
import { getStalkerStatus, startStalker, stopStalker } from "~/models/stalker.server";
import { upsertUser } from "~/models/user.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { getQueue } from "../../app/queue/queues.server";
import { sessionJobId } from "../session-host.server";
import { deleteKeys, waitFor } from "../test-helpers";
import { startWorkers, type WorkerPool } from "../worker";

let sim: Simulator;
let pool: WorkerPool;

beforeAll(async () => {
  // No reloginWindowMs: the simulator's default window is on (SIM_RELOGIN_WINDOW_MS, 2 s in the tests).
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  Object.assign(process.env, { GALAXY_WS_URL: sim.wsUrl, STALKER_TIME_SCALE: "0.1", SESSION_POLL_MS: "300", SESSION_RECONCILE_MS: "1000" });
  resetEnv();
  pool = startWorkers({ mode: "in-process" });
  await Promise.all(pool.workers.map((w) => w.waitUntilReady()));
});
afterAll(async () => {
  await pool?.close(5_000);
  await sim?.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

/** Logins the simulator refused with 452 (USER lines are redacted there; this file logs in one account only). */
const refused452 = (_accountId: string) => sim.sockets.closed.filter((c) => c.closeReason === "login refused (452)").length;

describe("the platform's 10 s window after our own logout (issue 34 item 2)", () => {
  it("Stop then Start at once: one 452, shown as retrying until our logout + 10 s, then active — not failed", async () => {
    const acc = sim.world.accounts.find((a) => a.kind === "stalker")!;
    await upsertUser({ accountId: acc.id, nick: acc.nick, password: acc.password, type: "stalker" });
    await startStalker(acc.id);
    await waitFor("stalker active", async () => (await getStalkerStatus(acc.id))?.phase === "active", 10_000);

    await stopStalker(acc.id);
    await waitFor("QUIT :ds at the simulator", () => sim.sockets.closed.some((c) => c.accountId === acc.id && c.quit === "ds"));
    await waitFor("job ended", async () => !(await getQueue("stalker").getJob(sessionJobId("stalker", acc.id))));
    // Our client recorded when it left (any worker reads it).
    const left = await lastLogoutAt(acc.id);
    expect(left).not.toBeNull();
    expect(refused452(acc.id)).toBe(0);

    await startStalker(acc.id);
    const retrying = await waitFor(
      "stalker retrying after the 452",
      async () => {
        const s = await getStalkerStatus(acc.id);
        return s?.phase === "retrying" ? s : false;
      },
      10_000,
    );
    expect(retrying.actual).toBe("reconnecting");
    expect(retrying.error).toBe(
      "Login failed: User is online or banned; we logged it out less than 10 s ago; the platform lets an account back in 10 s after it left",
    );
    expect(retrying.status).toMatch(/^Retrying at \d\d:\d\d:\d\d UTC$/);
    expect(new Date(retrying.nextRetryAt!).getTime()).toBe(left! + reloginWindowMs() + reloginMarginMs());
    expect(refused452(acc.id)).toBe(1);

    const active = await waitFor(
      "stalker active again",
      async () => {
        const s = await getStalkerStatus(acc.id);
        if (s?.actual === "failed") throw new Error(`failed: ${s.error}`);
        return s?.phase === "active" ? s : false;
      },
      20_000,
    );
    expect(active).toMatchObject({ desired: "run", actual: "active", state: "active", error: null });
    expect(refused452(acc.id)).toBe(1);
    expect(sim.world.whereIs(acc.id).online).toBe(true);

    await stopStalker(acc.id);
    await waitFor("job ended", async () => !(await getQueue("stalker").getJob(sessionJobId("stalker", acc.id))));
    await (await getDb()).delete(sessions).where(eq(sessions.key, acc.id));
  }, 40_000);
});
