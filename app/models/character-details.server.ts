import { asc, eq, like, sql } from "drizzle-orm";
import type { GiftStatDto } from "#api/galaxy";
import type { CollectionStats } from "~/galaxy/services-parse";
import { getDb } from "~/db/client.server";
import { appSettings, characterDetails, users } from "~/db/schema";
import { getUserCredentials, type UserCredentials } from "./user.server";

/**
 * What the All Characters (and Bowling Bots) screens show per character from the platform:
 * picture, online status and room, gift stats (spec 2 §3 "Picture per user", "User status",
 * "Gift stat per user"). Rows of `character_details` are written by the details refresh jobs
 * (jobs/processors/characters.ts) and by stalker sightings; every page render reads them here.
 *
 * The selection (spec 2 §4 "Stalker": "Selecting a user triggers loading of pictures,
 * statuses and gift stats for all users. Statuses refresh every 5 minutes while a user is
 * selected") is remembered server-side per operator in app_settings, so the page works
 * without JavaScript; while any operator has a selection, the job scheduler
 * `characters-statuses` runs the status refresh every 5 minutes (spec 2 §9).
 *
 * The job plumbing (enqueue, scheduler, progress) lives in app/models/character-refresh.server.ts
 * and is re-exported here so the screen imports one module.
 */

export type CharacterDetails = {
  accountId: string;
  picUrl: string | null;
  isOnline: boolean | null;
  room: string | null;
  gifts: GiftStatDto[] | null;
  giftsFailed: boolean;
  /** Collection stats (Bowling Bots: collection 151 'Capybara'); null until loaded. */
  collection: CollectionStats | null;
  updatedAt: string;
};

type Row = typeof characterDetails.$inferSelect;

function toDetails(row: Row): CharacterDetails {
  return {
    accountId: row.accountId,
    picUrl: row.picUrl,
    isOnline: row.isOnline,
    room: row.room,
    gifts: row.gifts ?? null,
    giftsFailed: row.giftsFailed,
    collection: (row.collection as CollectionStats | null) ?? null,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Every stored details row, keyed by account id. */
export async function getCharacterDetails(): Promise<Map<string, CharacterDetails>> {
  const db = await getDb();
  const rows = await db.select().from(characterDetails);
  return new Map(rows.map((r) => [r.accountId, toDetails(r)]));
}

export const SELECTED_PREFIX = "characters.selected:";
const selectedKey = (operatorId: string) => `${SELECTED_PREFIX}${operatorId}`;

/** The account the operator selected on All Characters, if it still exists. */
export async function getSelectedCharacter(operatorId: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db
    .select({ value: appSettings.value, accountId: users.accountId })
    .from(appSettings)
    .leftJoin(users, sql`${users.accountId} = ${appSettings.value} #>> '{}'`)
    .where(eq(appSettings.key, selectedKey(operatorId)))
    .limit(1);
  return row?.accountId ?? null;
}

/** Stores (or clears) the selection; returns whether any operator still has one. */
export async function storeSelection(operatorId: string, accountId: string | null): Promise<boolean> {
  const db = await getDb();
  const key = selectedKey(operatorId);
  if (accountId) {
    await db
      .insert(appSettings)
      .values({ key, value: accountId })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: accountId, updatedAt: new Date() } });
    return true;
  }
  await db.delete(appSettings).where(eq(appSettings.key, key));
  return anySelection();
}

/** Does any operator have a selection? */
export async function anySelection(): Promise<boolean> {
  const db = await getDb();
  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(appSettings)
    .where(like(appSettings.key, `${SELECTED_PREFIX}%`));
  return (left?.n ?? 0) > 0;
}

/** Drops every operator's selection of `accountId` (the user was deleted). */
export async function forgetSelectionsOf(accountId: string): Promise<void> {
  const db = await getDb();
  await db.delete(appSettings).where(sql`${appSettings.key} like ${SELECTED_PREFIX + "%"} and ${appSettings.value} #>> '{}' = ${accountId}`);
}

/**
 * Spec 2 §6: "The characters area acts with the credentials of the first or selected user
 * for game-service calls." `preferred` (the selected user) when it still exists, else the
 * most recently selected account of any operator, else the first user by nick.
 */
export async function actingCredentials(preferred?: string | null): Promise<UserCredentials | null> {
  if (preferred) {
    const creds = await getUserCredentials(preferred);
    if (creds) return creds;
  }
  const db = await getDb();
  const [sel] = await db
    .select({ accountId: users.accountId })
    .from(appSettings)
    .innerJoin(users, sql`${users.accountId} = ${appSettings.value} #>> '{}'`)
    .where(like(appSettings.key, `${SELECTED_PREFIX}%`))
    .orderBy(sql`${appSettings.updatedAt} desc`)
    .limit(1);
  if (sel) return getUserCredentials(sel.accountId);
  const [first] = await db
    .select({ accountId: users.accountId })
    .from(users)
    .orderBy(asc(sql`lower(${users.nick})`), asc(users.accountId))
    .limit(1);
  return first ? getUserCredentials(first.accountId) : null;
}

export type DetailsPatch = {
  picUrl?: string | null;
  status?: { isOnline: boolean; room: string | null; source: "service" | "stalker" };
  gifts?: GiftStatDto[] | "failed";
  collection?: CollectionStats;
};

/** Writes what one refresh (or a stalker sighting) learned about one character. */
export async function saveCharacterDetails(accountId: string, patch: DetailsPatch): Promise<void> {
  const db = await getDb();
  const now = new Date();
  const set: Partial<typeof characterDetails.$inferInsert> = { updatedAt: now };
  if (patch.picUrl !== undefined) Object.assign(set, { picUrl: patch.picUrl, picAt: now });
  if (patch.status) Object.assign(set, { isOnline: patch.status.isOnline, room: patch.status.room, statusSource: patch.status.source, statusAt: now });
  if (patch.gifts === "failed") Object.assign(set, { giftsFailed: true, giftsAt: now });
  else if (patch.gifts) Object.assign(set, { gifts: patch.gifts, giftsFailed: false, giftsAt: now });
  if (patch.collection) Object.assign(set, { collection: patch.collection, collectionAt: now });
  await db
    .insert(characterDetails)
    .values({ accountId, ...set })
    .onConflictDoUpdate({ target: characterDetails.accountId, set });
}

/** Statuses a stalker saw less than `maxAgeMs` ago (galaxy-runtime.md §1.3 item 3), by account id. */
export async function freshStalkerStatuses(maxAgeMs: number): Promise<Set<string>> {
  const db = await getDb();
  const rows = await db
    .select({ accountId: characterDetails.accountId })
    .from(characterDetails)
    .where(sql`${characterDetails.statusSource} = 'stalker' and ${characterDetails.statusAt} > now() - make_interval(secs => ${maxAgeMs / 1000})`);
  return new Set(rows.map((r) => r.accountId));
}

export async function deleteCharacterDetails(accountId: string): Promise<void> {
  const db = await getDb();
  await db.delete(characterDetails).where(eq(characterDetails.accountId, accountId));
}

export { getCharactersRefreshProgress, requestCharactersRefresh, selectCharacter } from "./character-refresh.server";
