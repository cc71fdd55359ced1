/**
 * Issue 30 A1: every section's data follows changes made elsewhere like the session screens
 * do. Each model publishes its writes on the live bus (docs/live.md), so an open page of that
 * section revalidates within a second, whoever made the change (another tab, /api, a worker).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { liveBusUp, onLive, type LiveMessage } from "~/queue/live.server";
import { deleteKeys, waitFor } from "#jobs/test-helpers";
import { getEnv } from "~/utils/env.server";
import { createAd } from "./ad.server";
import { CLI_ACTOR, recordAudit } from "./audit.server";
import { createCategory, deleteCategory } from "./category.server";
import { createCustomPlanet } from "./custom-planet.server";
import { clearLog, logEvent, listLogs } from "./log.server";
import { createSequence, listSequences, reorderSequences, setSequencesActive } from "./planet-sequence.server";
import { deleteAllRates, deleteRatePair, setRateStatus, upsertRate } from "./rate.server";
import { deleteUser, upsertUser } from "./user.server";

const got: LiveMessage[] = [];
let off: () => void;
beforeAll(async () => {
  off = onLive((m) => got.push(m));
  await waitFor("the bus subscribed", () => liveBusUp(), 5_000, 20);
});
afterAll(async () => {
  off();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});
beforeEach(() => {
  got.length = 0;
});

/** Resolves with the events of `topic` once `n` of them arrived. */
async function events(topic: string, n: number) {
  return waitFor(`${n} '${topic}' events`, () => {
    const mine = got.filter((m) => m.topic === topic);
    return mine.length >= n ? mine : false;
  });
}

describe("issue 30 A1: each section's writes reach the live bus", () => {
  it("Exchange Rates: add, enable/disable, delete (topic rates)", async () => {
    await deleteAllRates();
    // Its own event (if it deleted anything) comes through the bus a little later: under load
    // it arrived after the count below had started.
    await new Promise((r) => setTimeout(r, 1_000));
    got.length = 0;
    await upsertRate({ inputItem: "Gold Ring", outputItem: "Clay", rates: "1/2" });
    await setRateStatus({ inputItem: "Gold Ring", outputItem: "Clay", status: false });
    await deleteRatePair("Gold Ring", "Clay");
    expect((await events("rates", 3)).map((m) => m.topic)).toEqual(["rates", "rates", "rates"]);
  });

  it("System Logs: a new entry and a cleared one (topic logs)", async () => {
    await logEvent({ type: "info", source: "system", message: "live-sections test" });
    const [entry] = await listLogs({ limit: 1 });
    await clearLog(entry!.id);
    await events("logs", 2);
  });

  it("the audit trail: a recorded entry (topic audit)", async () => {
    await recordAudit(CLI_ACTOR, { action: "test.live", target: "live-sections" });
    await events("audit", 1);
  });

  it("All Characters and Bowling Bots: users and categories (topic characters)", async () => {
    await upsertUser({ accountId: "79000001", nick: "Livewire", password: "a".repeat(32), type: "bowling" });
    await deleteUser("79000001");
    const category = await createCategory(`live-${Date.now()}`);
    await deleteCategory(category._id);
    expect((await events("characters", 4)).map((m) => m.scope)).toEqual(["users", "users", "categories", "categories"]);
  });

  it("Trading Planets: sequences, their order and active state, ads, custom planets (topic trading)", async () => {
    const seq = await createSequence({ name: `Live ${Date.now()}`, sequence: [], seconds: 10, closedPlanetsLevel: 1, openPlanetsLevel: 1, isActive: true });
    await setSequencesActive([seq._id], false);
    await createAd({ adsMessage: "live ad", category: "ads", isActive: true });
    await createCustomPlanet({ name: `LivePlanet${Date.now()}`, type: "blacklisted" });
    expect((await events("trading", 4)).map((m) => m.scope)).toEqual(["sequences", "sequences", "ads", "planets"]);
    // A reorder too (the whole list, as it stands).
    got.length = 0;
    await reorderSequences((await listSequences()).map((s) => s._id).reverse());
    await events("trading", 1);
  });
});
