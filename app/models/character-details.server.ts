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

/** The parts a details refresh loads; each is stored with its fetch time and its last failure. */
export const DETAIL_PARTS = ["pic", "status", "gifts", "collection"] as const;
export type DetailPart = (typeof DETAIL_PARTS)[number];
export type PartError = { reason: string; at: string };

export type CharacterDetails = {
  accountId: string;
  picUrl: string | null;
  isOnline: boolean | null;
  room: string | null;
  gifts: GiftStatDto[] | null;
  /** The last gift stats call failed (the gifts above, if any, are the last known ones). */
  giftsFailed: boolean;
  /** Collection stats (Bowling Bots: collection 151 'Capybara'); null until loaded. */
  collection: CollectionStats | null;
  /** When each part's stored value was fetched (null: never, or unknown). */
  fetchedAt: Record<DetailPart, string | null>;
  /** The last failed call of each part since its last success, in the platform's words. */
  lastErrors: Partial<Record<DetailPart, PartError>>;
  updatedAt: string;
};

type Row = typeof characterDetails.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toDetails(row: Row): CharacterDetails {
  return {
    accountId: row.accountId,
    picUrl: row.picUrl,
    isOnline: row.isOnline,
    room: row.room,
    gifts: row.gifts ?? null,
    giftsFailed: row.giftsFailed,
    collection: (row.collection as CollectionStats | null) ?? null,
    fetchedAt: { pic: iso(row.picAt), status: iso(row.statusAt), gifts: iso(row.giftsAt), collection: iso(row.collectionAt) },
    lastErrors: row.lastErrors ?? {},
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What a row shows about stale data: the oldest fetch time of the parts whose refresh failed, and why. */
export type Staleness = { since: string | null; reason: string; parts: DetailPart[] };

/** Spec 1 §8 default of a failed gift stats call (rows failed before the reason was stored). */
const GIFTS_FAILED_DEFAULT = "Failed to fetch gift stats";

/**
 * CONVENTIONS rule 17: a part whose last refresh failed keeps its last known value, marked
 * stale with its age. Only parts with a value count (no value: the row shows the failure
 * itself, e.g. "Failed to load gifts"). A status a stalker saw after the failed call is fresh.
 */
export function stalenessOf(d: CharacterDetails | undefined, parts: readonly DetailPart[]): Staleness | null {
  if (!d) return null;
  const hasValue: Record<DetailPart, boolean> = {
    pic: d.fetchedAt.pic !== null,
    status: d.isOnline !== null,
    gifts: d.gifts !== null,
    collection: d.collection !== null,
  };
  const stale: DetailPart[] = [];
  const reasons: string[] = [];
  for (const part of parts) {
    const err = d.lastErrors[part] ?? (part === "gifts" && d.giftsFailed ? { reason: GIFTS_FAILED_DEFAULT, at: d.updatedAt } : undefined);
    if (!err || !hasValue[part]) continue;
    const at = d.fetchedAt[part];
    if (at && Date.parse(at) > Date.parse(err.at)) continue; // fetched again since (a stalker sighting)
    stale.push(part);
    reasons.push(err.reason);
  }
  if (!stale.length) return null;
  const times = stale.map((p) => d.fetchedAt[p]).filter((t): t is string => t !== null);
  const since = times.length ? times.reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b)) : null;
  return { since, reason: reasons[0]!, parts: stale };
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
  gifts?: GiftStatDto[];
  collection?: CollectionStats;
  /**
   * Parts whose call failed this time, with the platform's reason. Their stored values and
   * fetch times stay (shown stale); a failed gift stats call also sets giftsFailed.
   */
  failed?: Partial<Record<DetailPart, string>>;
};

/** Writes what one refresh (or a stalker sighting) learned about one character. */
export async function saveCharacterDetails(accountId: string, patch: DetailsPatch): Promise<void> {
  const db = await getDb();
  const now = new Date();
  const set: Partial<typeof characterDetails.$inferInsert> = { updatedAt: now };
  const succeeded: DetailPart[] = [];
  if (patch.picUrl !== undefined) {
    Object.assign(set, { picUrl: patch.picUrl, picAt: now });
    succeeded.push("pic");
  }
  if (patch.status) {
    Object.assign(set, { isOnline: patch.status.isOnline, room: patch.status.room, statusSource: patch.status.source, statusAt: now });
    succeeded.push("status");
  }
  if (patch.gifts) {
    Object.assign(set, { gifts: patch.gifts, giftsFailed: false, giftsAt: now });
    succeeded.push("gifts");
  }
  if (patch.collection) {
    Object.assign(set, { collection: patch.collection, collectionAt: now });
    succeeded.push("collection");
  }
  const failed: Partial<Record<DetailPart, PartError>> = {};
  for (const part of DETAIL_PARTS) {
    const reason = patch.failed?.[part];
    if (reason !== undefined && !succeeded.includes(part)) failed[part] = { reason, at: now.toISOString() };
  }
  if (failed.gifts) set.giftsFailed = true;
  const insert = { accountId, ...set, lastErrors: failed };
  // Successes drop their part's error, failures add theirs; other parts' entries stay.
  if (succeeded.length || Object.keys(failed).length) {
    const dropped = succeeded.reduce((expr, part) => sql`${expr} - ${part}::text`, sql`coalesce(${characterDetails.lastErrors}, '{}'::jsonb)`);
    Object.assign(set, { lastErrors: sql`(${dropped}) || ${JSON.stringify(failed)}::jsonb` });
  }
  await db.insert(characterDetails).values(insert).onConflictDoUpdate({ target: characterDetails.accountId, set });
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

export {
  charactersRefreshNotice,
  currentCharactersRefreshProgress,
  getCharactersRefreshProgress,
  loadNewUserDetails,
  requestCharactersRefresh,
  selectCharacter,
} from "./character-refresh.server";
