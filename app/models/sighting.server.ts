import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { characterDetails, stalkerSightings, users } from "~/db/schema";

/**
 * Stalker sightings (galaxy-runtime.md §1.3 "Observation", docs/stalker.md): what a stalker
 * saw on its planet. Every user on the planet gets a row per stalker (its latest visit); our
 * own characters (rows of `users`) seen there also become `character_details` with
 * isOnline = true, room = the planet, statusSource = "stalker", statusAt = now — the cheap
 * status source the details refresh trusts while it is fresh (5 minutes).
 */

export type Seen = { id: string; nick: string };

/** Users present on `planet` now (the roster after 366, an arrival, or the periodic refresh). */
export async function recordSightings(stalkerId: string, planet: string, seen: readonly Seen[]): Promise<void> {
  if (!seen.length) return;
  const db = await getDb();
  const now = new Date();
  const unique = [...new Map(seen.map((s) => [s.id, s])).values()];
  await db.transaction(async (tx) => {
    await tx
      .insert(stalkerSightings)
      .values(unique.map((s) => ({ stalkerId, userId: s.id, nick: s.nick, planet, firstSeen: now, lastSeen: now, leftAt: null })))
      .onConflictDoUpdate({
        target: [stalkerSightings.stalkerId, stalkerSightings.userId],
        set: {
          nick: sql`excluded.nick`,
          // A new visit (other planet, or after leaving) starts again; a continuing one keeps its start.
          firstSeen: sql`case when ${stalkerSightings.planet} = excluded.planet and ${stalkerSightings.leftAt} is null then ${stalkerSightings.firstSeen} else excluded.first_seen end`,
          planet: sql`excluded.planet`,
          lastSeen: sql`excluded.last_seen`,
          leftAt: sql`null`,
        },
      });
    const managed = await tx
      .select({ accountId: users.accountId })
      .from(users)
      .where(
        inArray(
          users.accountId,
          unique.map((s) => s.id),
        ),
      );
    if (!managed.length) return;
    await tx
      .insert(characterDetails)
      .values(managed.map((m) => ({ accountId: m.accountId, isOnline: true, room: planet, statusSource: "stalker", statusAt: now, updatedAt: now })))
      .onConflictDoUpdate({
        target: characterDetails.accountId,
        set: { isOnline: true, room: planet, statusSource: "stalker", statusAt: now, updatedAt: now },
      });
  });
}

/**
 * Users who left `planet` (PART, SLEEP, KICK). SLEEP means offline: a managed character's
 * status becomes offline. A PART may be a flight elsewhere or a logout, so the stalker's
 * status for it is withdrawn (statusAt null) and the HTTP status call decides.
 */
export async function recordDeparture(stalkerId: string, planet: string, userId: string, how: "leave" | "sleep"): Promise<void> {
  const db = await getDb();
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(stalkerSightings)
      .set({ leftAt: now, lastSeen: now })
      .where(
        and(
          eq(stalkerSightings.stalkerId, stalkerId),
          eq(stalkerSightings.userId, userId),
          eq(stalkerSightings.planet, planet),
          isNull(stalkerSightings.leftAt),
        ),
      );
    const ours = and(eq(characterDetails.accountId, userId), eq(characterDetails.statusSource, "stalker"), eq(characterDetails.room, planet));
    if (how === "sleep") await tx.update(characterDetails).set({ isOnline: false, room: null, statusAt: now, updatedAt: now }).where(ours);
    else await tx.update(characterDetails).set({ statusAt: null, updatedAt: now }).where(ours);
  });
}

/** The stalker left its planet or disconnected: every open visit it saw ends now. */
export async function closeSightings(stalkerId: string): Promise<void> {
  const db = await getDb();
  const now = new Date();
  await db
    .update(stalkerSightings)
    .set({ leftAt: now })
    .where(and(eq(stalkerSightings.stalkerId, stalkerId), isNull(stalkerSightings.leftAt)));
}

export type Sighting = typeof stalkerSightings.$inferSelect;

export async function listSightings(filter: { stalkerId?: string; userId?: string } = {}): Promise<Sighting[]> {
  const db = await getDb();
  const where = and(
    filter.stalkerId ? eq(stalkerSightings.stalkerId, filter.stalkerId) : undefined,
    filter.userId ? eq(stalkerSightings.userId, filter.userId) : undefined,
  );
  return db.select().from(stalkerSightings).where(where);
}
