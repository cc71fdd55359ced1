import crypto from "node:crypto";
import { and, eq, isNotNull } from "drizzle-orm";
import { COLLECTIONS_LIMITS, COLLECTIONS_TEXTS as T, INTERVAL_OPTIONS, REPEAT_OPTIONS, isCollectionSetId } from "#api/collections";
import { enqueue, getQueue } from "~/queue/queues.server";
import { getDb } from "~/db/client.server";
import { countOf } from "~/utils/plural";
import { collectionsState } from "~/db/schema";
import { collectionsTimings } from "./clay.server";
import { addActivity, collectionsChanged, getState, ownedProfileCredentials, updateState, type CollectionsWriter } from "./collections.server";
import { AppError } from "~/utils/app-error";

/**
 * Auto mode (spec 2 §4 "Automation"): the cycles run as jobs on the `automation` queue
 * (jobs/processors/automation.ts), so they go on with the tab closed and survive a restart.
 * Each Auto run is a chain of jobs `auto-<chain>-<run>`; the state row names the live chain.
 */

export function cycleJobId(chain: string, run: number) {
  return `auto-${chain}-${run}`;
}

export type AutoSettings = { repeat: number; intervalSeconds: number };

export function parseAutoSettings(input: { repeat?: unknown; intervalSeconds?: unknown }): AutoSettings {
  const repeat = Number(input.repeat ?? 0);
  const intervalSeconds = Number(input.intervalSeconds ?? COLLECTIONS_LIMITS.intervalDefault);
  if (!(REPEAT_OPTIONS as readonly number[]).includes(repeat))
    throw new AppError(400, "Repeat must be one of ∞, 1, 2, 3, 5, 10, 20, 50, 100", { field: "repeat" });
  if (!INTERVAL_OPTIONS.includes(intervalSeconds)) throw new AppError(400, "Interval must be 5 to 60 seconds in steps of 5", { field: "intervalSeconds" });
  return { repeat, intervalSeconds };
}

/** Auto on: the first cycle after 0.5 s (spec 2 §9). Needs a logged-in profile, a set and a recipient. */
export async function startAuto(operatorId: string, settings: AutoSettings) {
  const state = await getState(operatorId);
  if (!state.profileId) throw new AppError(409, T.notLoggedIn);
  if (!isCollectionSetId(state.collectionId)) throw new AppError(400, T.noSet);
  if (!/^\d{1,12}$/.test(state.recipientId)) throw new AppError(400, T.noRecipient);
  // The operator's own profile only (docs/decisions/0018).
  const creds = await ownedProfileCredentials(operatorId, state.profileId);
  if (!creds) throw new AppError(409, T.notLoggedIn);
  const chain = crypto.randomBytes(6).toString("hex");
  await updateState(operatorId, { auto: true, autoChain: chain, autoStep: "waiting", runCount: 0, ...settings });
  try {
    await enqueue(
      "automation",
      {
        kind: "cycle",
        operatorId,
        profileId: state.profileId,
        chain,
        accountId: creds.userID,
        collectionId: state.collectionId as 161 | 178,
        recipientId: state.recipientId,
        run: 1,
        repeat: settings.repeat,
        intervalSeconds: settings.intervalSeconds,
      },
      { jobId: cycleJobId(chain, 1), delay: collectionsTimings().firstCycleMs },
    );
  } catch (err) {
    await updateState(operatorId, { auto: false, autoChain: null, autoStep: null });
    throw err;
  }
  await addActivity(
    operatorId,
    "success",
    `Auto on: ${settings.repeat === 0 ? "∞ cycles" : countOf(settings.repeat, "cycles")} every ${settings.intervalSeconds} s`,
  );
  return chain;
}

/**
 * Auto off: clears the chain and logs "Auto off" in one transaction, and only when Auto was
 * on (two clicks, or Auto off racing a logout, log it once). The running cycle stops at its
 * next step boundary (jobs/processors/automation.ts checks the chain there and while it
 * waits); a cycle waiting for its interval is removed.
 */
export async function stopAuto(operatorId: string) {
  await getState(operatorId);
  const db = await getDb();
  const stopped = await db.transaction(async (tx) => {
    const [was] = await tx
      .select({ chain: collectionsState.autoChain, runCount: collectionsState.runCount })
      .from(collectionsState)
      .where(eq(collectionsState.operatorId, operatorId))
      .for("update");
    await tx
      .update(collectionsState)
      .set({ auto: false, autoChain: null, autoStep: null, updatedAt: new Date() })
      .where(eq(collectionsState.operatorId, operatorId));
    if (!was?.chain) return null;
    await addActivity(operatorId, "success", "Auto off", tx);
    return { chain: was.chain, runCount: was.runCount };
  });
  collectionsChanged(operatorId);
  if (stopped) {
    await getQueue("automation")
      .remove(cycleJobId(stopped.chain, stopped.runCount + 1))
      .catch(() => 0);
  }
}

/** Is `chain` the live Auto chain of the operator? (The cycle's check at every step boundary.) */
export async function autoChainLive(operatorId: string, chain: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ chain: collectionsState.autoChain })
    .from(collectionsState)
    .where(and(eq(collectionsState.operatorId, operatorId), eq(collectionsState.auto, true), isNotNull(collectionsState.autoChain)));
  return row?.chain === chain;
}

/**
 * Inside a cycle's step transaction: locks the operator's state row (FOR UPDATE) and answers
 * whether `chain` is still the live Auto chain, so "Auto off" and the step cannot interleave.
 */
export async function lockLiveChain(tx: CollectionsWriter, operatorId: string, chain: string): Promise<boolean> {
  const [s] = await tx.select().from(collectionsState).where(eq(collectionsState.operatorId, operatorId)).for("update");
  return !!s?.auto && s.autoChain === chain;
}

/** Clears the chain if it is still the live one (row locked); true if it was. */
export async function stopLiveChain(tx: CollectionsWriter, operatorId: string, chain: string): Promise<boolean> {
  const rows = await tx
    .update(collectionsState)
    .set({ auto: false, autoChain: null, autoStep: null, updatedAt: new Date() })
    .where(and(eq(collectionsState.operatorId, operatorId), eq(collectionsState.autoChain, chain)))
    .returning({ operatorId: collectionsState.operatorId });
  return rows.length > 0;
}
