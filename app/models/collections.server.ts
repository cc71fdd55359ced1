import { and, desc, eq, isNull, notInArray, or, sql } from "drizzle-orm";
import {
  COLLECTIONS_LIMITS,
  COLLECTIONS_TEXTS as T,
  DEFAULT_COLLECTION_SET,
  DEFAULT_RECIPIENT_ID,
  type ActivityStatus,
  type CollectionSetId,
} from "#api/collections";
import { publishLive } from "~/queue/live.server";
import { getDb, type Db } from "~/db/client.server";
import { collectionsActivity, collectionsProfiles, collectionsState } from "~/db/schema";
import type { GalaxyCredentials } from "~/galaxy/services-parse";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";
import { getUserCredentials } from "./user.server";
import { AppError } from "~/utils/app-error";

/**
 * Collections data per operator (docs/collections.md; decision 0015): saved accounts (at most 5,
 * newest first, credentials encrypted), the screen's state (logged-in profile, pickers, Auto
 * settings, run counter, last inventory and status read) and the Activity Log.
 *
 * Every write of the state or the log tells the operator's open pages (`collectionsChanged`,
 * the live-events bus, issue 18). Writers that take `tx` (a job step's transaction,
 * app/models/once.server.ts) leave that to their caller: an event must follow the commit, never
 * announce a write that may still roll back.
 */

/** A connection or a transaction (`runStepOnce`'s `tx`): the writes below go through either. */
export type CollectionsWriter = Pick<Db, "select" | "insert" | "update" | "delete" | "execute">;

/** Tells the operator's open pages that their Collections data changed (after the write committed). */
export function collectionsChanged(operatorId: string) {
  publishLive("collections", { scope: operatorId, operatorId });
}

export type PublicProfile = {
  id: string;
  accountId: string;
  nick: string;
  profilePic: string | null;
  lastUsed: string;
  loginMethod: string;
};

type ProfileRow = typeof collectionsProfiles.$inferSelect;
const toProfile = (r: ProfileRow): PublicProfile => ({
  id: r.id,
  accountId: r.accountId,
  nick: r.nick,
  profilePic: r.profilePic,
  lastUsed: r.lastUsed.toISOString(),
  loginMethod: r.loginMethod,
});

export async function listProfiles(operatorId: string): Promise<PublicProfile[]> {
  const db = await getDb();
  const rows = await db
    .select()
    .from(collectionsProfiles)
    .where(eq(collectionsProfiles.operatorId, operatorId))
    .orderBy(desc(collectionsProfiles.lastUsed))
    .limit(COLLECTIONS_LIMITS.savedProfiles);
  return rows.map(toProfile);
}

export async function getProfile(operatorId: string, profileId: string): Promise<PublicProfile | null> {
  if (!/^[0-9a-f-]{36}$/i.test(profileId)) return null;
  const db = await getDb();
  const [row] = await db
    .select()
    .from(collectionsProfiles)
    .where(and(eq(collectionsProfiles.operatorId, operatorId), eq(collectionsProfiles.id, profileId)));
  return row ? toProfile(row) : null;
}

/**
 * The stored credentials of a profile, only for the operator who saved it (docs/decisions/0018:
 * a saved Collections account is personal; no other operator's request or job acts with it).
 */
export async function ownedProfileCredentials(
  operatorId: string,
  profileId: string,
): Promise<(GalaxyCredentials & { nick: string; operatorId: string }) | null> {
  const stored = /^[0-9a-f-]{36}$/i.test(profileId) ? await profileCredentials(profileId) : null;
  return stored && stored.operatorId === operatorId ? stored : null;
}

/** The stored credentials of a profile (server only), whoever saved it: callers check the owner (`ownedProfileCredentials`). */
export async function profileCredentials(profileId: string): Promise<(GalaxyCredentials & { nick: string; operatorId: string }) | null> {
  const db = await getDb();
  const [row] = await db.select().from(collectionsProfiles).where(eq(collectionsProfiles.id, profileId));
  return row ? { userID: row.accountId, password: decryptSecret(row.password), nick: row.nick, operatorId: row.operatorId } : null;
}

/**
 * The credentials a live Collections connection of `accountId` signs in with: the most
 * recently used profile of that account, whichever operator saved it (server only; the
 * connection session, jobs/processors/collections.ts).
 */
export async function accountProfileCredentials(accountId: string): Promise<{ id: string; password: string; nick: string } | null> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(collectionsProfiles)
    .where(eq(collectionsProfiles.accountId, accountId))
    .orderBy(desc(collectionsProfiles.lastUsed))
    .limit(1);
  return row ? { id: row.accountId, password: decryptSecret(row.password), nick: row.nick } : null;
}

/**
 * Saves (or refreshes) a profile after a successful login and makes it the newest; keeps the
 * 5 newest of the operator (one transaction). Returns the profile.
 */
export async function saveProfile(
  operatorId: string,
  input: { accountId: string; nick: string; password: string; profilePic?: string | null; loginMethod: string },
): Promise<PublicProfile> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const now = new Date();
    const set = { nick: input.nick, password: encryptSecret(input.password), loginMethod: input.loginMethod, lastUsed: now } as Record<string, unknown>;
    if (input.profilePic !== undefined) set.profilePic = input.profilePic;
    const [row] = await tx
      .insert(collectionsProfiles)
      .values({
        operatorId,
        accountId: input.accountId,
        nick: input.nick,
        password: encryptSecret(input.password),
        profilePic: input.profilePic ?? null,
        loginMethod: input.loginMethod,
        lastUsed: now,
      })
      .onConflictDoUpdate({ target: [collectionsProfiles.operatorId, collectionsProfiles.accountId], set })
      .returning();
    const keep = await tx
      .select({ id: collectionsProfiles.id })
      .from(collectionsProfiles)
      .where(eq(collectionsProfiles.operatorId, operatorId))
      .orderBy(desc(collectionsProfiles.lastUsed))
      .limit(COLLECTIONS_LIMITS.savedProfiles);
    await tx.delete(collectionsProfiles).where(
      and(
        eq(collectionsProfiles.operatorId, operatorId),
        notInArray(
          collectionsProfiles.id,
          keep.map((k) => k.id),
        ),
      ),
    );
    return toProfile(row!);
  });
}

export async function setProfilePic(profileId: string, profilePic: string | null) {
  const db = await getDb();
  await db.update(collectionsProfiles).set({ profilePic }).where(eq(collectionsProfiles.id, profileId));
}

export async function touchProfile(profileId: string, loginMethod: string) {
  const db = await getDb();
  await db.update(collectionsProfiles).set({ lastUsed: new Date(), loginMethod }).where(eq(collectionsProfiles.id, profileId));
}

export async function removeProfile(operatorId: string, profileId: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(profileId)) return false;
  const db = await getDb();
  const rows = await db
    .delete(collectionsProfiles)
    .where(and(eq(collectionsProfiles.operatorId, operatorId), eq(collectionsProfiles.id, profileId)))
    .returning({ id: collectionsProfiles.id });
  return rows.length > 0;
}

/**
 * The credentials an /api/clay call acts with (docs/decisions/0018): the body's password, or
 * for `{userID}` alone the calling operator's own saved Collections profile of that account
 * (never another operator's), else the team's stored character; else 400.
 */
export async function resolveClayCredentials(operatorId: string | null, body: { userID: string; password?: string | undefined }): Promise<GalaxyCredentials> {
  if (body.password) return { userID: body.userID, password: body.password };
  if (operatorId) {
    const db = await getDb();
    const [row] = await db
      .select()
      .from(collectionsProfiles)
      .where(and(eq(collectionsProfiles.operatorId, operatorId), eq(collectionsProfiles.accountId, body.userID)));
    if (row) return { userID: row.accountId, password: decryptSecret(row.password) };
  }
  const stored = await getUserCredentials(body.userID);
  if (stored) return { userID: body.userID, password: stored.password };
  throw new AppError(400, T.badPassword);
}

// ---- screen state -------------------------------------------------------------------------

export type CollectionsItem = { index: number; goodsID: number | null; count: number; imageUrl: string };
export type CollectionsStateRow = typeof collectionsState.$inferSelect;

export async function getState(operatorId: string): Promise<CollectionsStateRow> {
  const db = await getDb();
  const [row] = await db.select().from(collectionsState).where(eq(collectionsState.operatorId, operatorId));
  if (row) return row;
  const [created] = await db
    .insert(collectionsState)
    .values({ operatorId, collectionId: DEFAULT_COLLECTION_SET, recipientId: DEFAULT_RECIPIENT_ID, intervalSeconds: COLLECTIONS_LIMITS.intervalDefault })
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  const [again] = await db.select().from(collectionsState).where(eq(collectionsState.operatorId, operatorId));
  return again!;
}

/**
 * Changes the operator's state row. With `tx` the row must exist already (a cycle's does: Auto
 * on created it) and the caller publishes after its commit.
 */
export async function updateState(
  operatorId: string,
  patch: Partial<Omit<CollectionsStateRow, "operatorId">>,
  tx?: CollectionsWriter,
): Promise<CollectionsStateRow> {
  if (!tx) await getState(operatorId);
  const db = tx ?? (await getDb());
  const [row] = await db
    .update(collectionsState)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(collectionsState.operatorId, operatorId))
    .returning();
  if (!tx) collectionsChanged(operatorId);
  return row!;
}

/**
 * Logs the screen out of `profileId` if it is still the operator's account, in one statement:
 * a login to another account that landed meanwhile is kept.
 */
export async function leaveProfile(operatorId: string, profileId: string): Promise<void> {
  const db = await getDb();
  const rows = await db
    .update(collectionsState)
    .set({ profileId: null, giftIds: null, giftsAt: null, items: null, itemsAt: null, updatedAt: new Date() })
    .where(and(eq(collectionsState.operatorId, operatorId), eq(collectionsState.profileId, profileId)))
    .returning({ operatorId: collectionsState.operatorId });
  if (rows.length) collectionsChanged(operatorId);
}

/** Stores a status read as the grid's 16 items. */
export async function storeItems(
  operatorId: string,
  collectionId: CollectionSetId,
  rows: { firstRow: unknown[]; secondRow: unknown[] },
  tx?: CollectionsWriter,
) {
  const items = [...rows.firstRow, ...rows.secondRow].map((r, i) => {
    const x = r as { index?: number | null; goodsID?: number | null; count?: string | number; imageUrl?: string };
    return { index: x.index ?? i + 1, goodsID: x.goodsID ?? null, count: Number(x.count) || 0, imageUrl: x.imageUrl ?? "" };
  });
  await updateState(operatorId, { items, itemsCollectionId: collectionId, itemsAt: new Date() }, tx);
}

// ---- Activity Log -------------------------------------------------------------------------

/** `accountId`: the Galaxy account logged in when it happened (null: an entry from before issue 19). */
export type ActivityEntry = { id: number; status: ActivityStatus; message: string; at: string; accountId: string | null };

/** The account the operator is logged in with, if any. */
async function currentAccountId(db: CollectionsWriter, operatorId: string): Promise<string | null> {
  const [row] = await db
    .select({ accountId: collectionsProfiles.accountId })
    .from(collectionsState)
    .innerJoin(collectionsProfiles, eq(collectionsState.profileId, collectionsProfiles.id))
    .where(eq(collectionsState.operatorId, operatorId))
    .limit(1);
  return row?.accountId ?? null;
}

/** Entries kept per operator (the screen shows 5; Auto adds a few per cycle, so older ones go). */
export const ACTIVITY_KEPT = 100;

/** Adds an entry (with `tx`: in that transaction; the caller publishes after its commit). */
export async function addActivity(operatorId: string, status: ActivityStatus, message: string, tx?: CollectionsWriter): Promise<number> {
  const db = tx ?? (await getDb());
  // Issue 19 item 11: each entry names the account it was done with.
  const accountId = await currentAccountId(db, operatorId);
  const [row] = await db.insert(collectionsActivity).values({ operatorId, status, message, accountId }).returning({ id: collectionsActivity.id });
  await db.execute(
    sql`delete from ${collectionsActivity} where ${collectionsActivity.operatorId} = ${operatorId} and ${collectionsActivity.id} <= ${row!.id - ACTIVITY_KEPT}`,
  );
  if (!tx) collectionsChanged(operatorId);
  return row!.id;
}

/**
 * Sets an in-progress entry's status and text: its progress, or its end (with `tx`: in that
 * transaction; the caller publishes after its commit); true if it did. A finished
 * entry (success, error, stopped) is never rewritten: a worker that lost an Auto cycle to
 * another (cut off from Redis, still reaching the database) once turned the other's "cycle
 * completed" into "stopped after send (Auto off)", because the other's completion had turned
 * Auto off (docs/testing.md "Issue 32 item 7", eleventh session).
 */
export async function finishActivity(id: number, status: ActivityStatus, message: string, tx?: CollectionsWriter): Promise<boolean> {
  const db = tx ?? (await getDb());
  const [row] = await db
    .update(collectionsActivity)
    .set({ status, message, updatedAt: new Date() })
    .where(and(eq(collectionsActivity.id, id), eq(collectionsActivity.status, "in-progress")))
    .returning({ operatorId: collectionsActivity.operatorId });
  if (!tx && row) collectionsChanged(row.operatorId);
  return !!row;
}

/**
 * Spec 2 §9 "Activity log shown: 5 entries", newest first. Issue 19 item 11: while an account
 * is logged in, only its entries (and older entries that name none); logged out, everyone's.
 */
export async function listActivity(operatorId: string, limit: number = COLLECTIONS_LIMITS.activityShown): Promise<ActivityEntry[]> {
  const db = await getDb();
  const account = await currentAccountId(db, operatorId);
  const rows = await db
    .select()
    .from(collectionsActivity)
    .where(
      and(
        eq(collectionsActivity.operatorId, operatorId),
        account ? or(eq(collectionsActivity.accountId, account), isNull(collectionsActivity.accountId)) : undefined,
      ),
    )
    .orderBy(desc(collectionsActivity.id))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, status: r.status, message: r.message, at: r.updatedAt.toISOString(), accountId: r.accountId }));
}

export async function clearActivity(operatorId: string): Promise<number> {
  const db = await getDb();
  const rows = await db.delete(collectionsActivity).where(eq(collectionsActivity.operatorId, operatorId)).returning({ id: collectionsActivity.id });
  collectionsChanged(operatorId);
  return rows.length;
}

/** Runs `fn` logged as an in-progress entry that becomes success or error with fn's text. */
export async function withActivity<R>(operatorId: string, start: string, fn: () => Promise<{ result: R; message: string }>): Promise<R> {
  const id = await addActivity(operatorId, "in-progress", start);
  try {
    const { result, message } = await fn();
    await finishActivity(id, "success", message);
    return result;
  } catch (err) {
    await finishActivity(id, "error", err instanceof Error ? err.message : String(err));
    throw err;
  }
}
