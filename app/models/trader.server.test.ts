/**
 * Issue 30 A7: the trader card says which sequence and step the run is on. The model reads the
 * run's saved position with the sequence as it is now (name, step count, the step's type), one
 * read for a page; a stopped run says nothing of where it was.
 */
import { describe, expect, it } from "vitest";
import { traderAtLabel, type TraderPosition } from "#api/trading";
import { getDb } from "~/db/client.server";
import { sessions, traderSessions, users } from "~/db/schema";
import { createSequence, deleteSequence } from "./planet-sequence.server";
import { getTraderStatus, listTraderStatusesPage } from "./trader.server";

async function trader(accountId: string, nick: string, desired: "run" | "stop", position: TraderPosition | null) {
  const db = await getDb();
  await db.insert(users).values({ accountId, nick, password: "x", type: "trading" });
  await db.insert(sessions).values({ purpose: "trader", key: accountId, accountId, desired, actual: desired === "run" ? "active" : "stopped" });
  await db.insert(traderSessions).values({ accountId, position });
}

const position = (sequenceId: string, stepId: string, over: Partial<TraderPosition> = {}): TraderPosition => ({
  sequenceId,
  sequenceIndex: 0,
  stepId,
  stepIndex: 1,
  planets: ["Cannon*1", "Cannon*2", "Cannon*3", "Cannon*4"],
  planetIndex: 2,
  posted: false,
  repliedTo: [],
  lastAdId: null,
  lastMsgId: null,
  ...over,
});

describe("trader status: where the run is (issue 30 A7)", () => {
  it("names the sequence, the step of its steps with its type, and the planet of the step's planets", async () => {
    const seq = await createSequence({
      name: "Morning",
      sequence: [
        { id: "s1", planetType: "ring", shuffle: true },
        { id: "s2", planetType: "cannon", shuffle: true },
        { id: "s3", planetType: "bowling", shuffle: false },
      ],
      seconds: 6,
      closedPlanetsLevel: 51,
      openPlanetsLevel: 15,
      isActive: true,
    });
    await trader("700001", "Runner", "run", position(seq._id, "s2"));
    await trader("700002", "Resting", "stop", position(seq._id, "s3"));
    const page = await listTraderStatusesPage(1, 20);
    const runner = page.traders.find((t) => t.accountId === "700001")!;
    expect(runner.at).toEqual({ sequenceId: seq._id, sequence: "Morning", step: 2, steps: 3, planetType: "cannon", planet: 3, planets: 4 });
    expect(traderAtLabel(runner.at!)).toBe("Sequence “Morning” · step 2 of 3 (cannon) · planet 3 of 4");
    expect(page.traders.find((t) => t.accountId === "700002")!.at).toBeNull();

    // The sequence deleted under a running trader: said so, the step as saved.
    await deleteSequence(seq._id);
    const gone = (await getTraderStatus("700001"))!.at!;
    expect(traderAtLabel(gone)).toBe("a deleted sequence · step 2 · planet 3 of 4");
  });
});
