import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { characterDetails, sightings, users } from "~/db/schema";
import { errorText } from "~/utils/errors";
import { remember } from "~/utils/remember.server";

/**
 * Stalker sightings (galaxy-runtime.md §1.3 "Observation", docs/stalker.md "Sightings"): where
 * each user was seen last — ONE row per user, however many stalkers share the planet. Our own
 * characters (rows of `users`) seen on a planet also become `character_details` with
 * isOnline = true, room = the planet, statusSource = "stalker" — the cheap status source the
 * details refresh trusts while it is fresh (5 minutes).
 *
 * Written by each worker process's recorder, in batches: stalkers on the same planet report
 * the same arrivals, and the recorder writes each (planet, arrival) once, every FLUSH_MS, in
 * one transaction (issue 18 "Scale": 1,000 stalkers, 125 per planet, wrote each arrival 125
 * times). A second worker process reporting the same arrival changes nothing (the upsert only
 * writes a row whose planet or open visit differs).
 */

export type Seen = { id: string; nick: string };

type Pending = {
  arrivals: Map<string, { planet: string; nick: string; by: string }>;
  departures: Map<string, { planet: string; how: "leave" | "sleep" }>;
  confirms: Map<string, Set<string>>;
};

function settings() {
  const raw = Number(process.env.SIGHTINGS_FLUSH_MS ?? "500");
  const confirm = Number(process.env.SIGHTINGS_CONFIRM_MS ?? "60000");
  return { flushMs: Number.isFinite(raw) && raw >= 10 ? raw : 500, confirmMs: Number.isFinite(confirm) && confirm >= 100 ? confirm : 60_000 };
}

class SightingsRecorder {
  /** Which of this process's stalkers stand on each planet. */
  #observers = new Map<string, Set<string>>();
  #planetOf = new Map<string, string>();
  /** What this process last wrote for each user: the planet of their open visit, or null when closed. */
  #known = new Map<string, string | null>();
  #lastConfirm = new Map<string, number>();
  #pending: Pending = { arrivals: new Map(), departures: new Map(), confirms: new Map() };
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();
  /** Row writes attempted (bench/sessions.ts reads it: arrivals written per arrival seen). */
  stats = { reported: 0, written: 0 };

  /** The stalker stands on `planet` (null: none, disconnected). Leaving the last observed planet closes its open visits. */
  observe(stalkerId: string, planet: string | null) {
    const was = this.#planetOf.get(stalkerId);
    if (was === planet) return;
    if (was) {
      const set = this.#observers.get(was);
      set?.delete(stalkerId);
      if (set && !set.size) {
        this.#observers.delete(was);
        // Nobody here watches that planet any more: its open visits end now.
        for (const [userId, at] of this.#known) if (at === was) this.#depart(userId, was, "leave", true);
      }
    }
    if (planet) {
      this.#planetOf.set(stalkerId, planet);
      const set = this.#observers.get(planet) ?? new Set();
      set.add(stalkerId);
      this.#observers.set(planet, set);
    } else this.#planetOf.delete(stalkerId);
  }

  /** Users present on the stalker's planet (the list after 366, or arrivals). */
  arrived(stalkerId: string, planet: string, seen: readonly Seen[]) {
    for (const s of seen) {
      this.stats.reported++;
      if (this.#known.get(s.id) === planet) continue;
      this.#known.set(s.id, planet);
      this.#pending.departures.delete(s.id);
      this.#pending.arrivals.set(s.id, { planet, nick: s.nick, by: stalkerId });
    }
    this.#schedule();
  }

  /** A user left the planet (PART, SLEEP, KICK). */
  left(planet: string, userId: string, how: "leave" | "sleep") {
    this.#depart(userId, planet, how, false);
  }

  #depart(userId: string, planet: string, how: "leave" | "sleep", closingOnly: boolean) {
    if (this.#known.get(userId) !== planet && this.#known.has(userId)) return;
    this.#known.set(userId, null);
    this.#pending.arrivals.delete(userId);
    const prev = this.#pending.departures.get(userId);
    // A visit closed because nobody watches any more says nothing about the user's status.
    if (!closingOnly || !prev) this.#pending.departures.set(userId, { planet, how: closingOnly ? "leave" : how });
    this.#schedule();
  }

  /** The periodic re-confirmation of everyone present (once per planet per confirm interval, whoever asks). */
  confirm(planet: string, seen: readonly Seen[]) {
    const now = Date.now();
    if (now - (this.#lastConfirm.get(planet) ?? 0) < settings().confirmMs / 2) return;
    this.#lastConfirm.set(planet, now);
    const set = this.#pending.confirms.get(planet) ?? new Set();
    for (const s of seen) set.add(s.id);
    this.#pending.confirms.set(planet, set);
    this.#schedule();
  }

  #schedule() {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.flush();
    }, settings().flushMs);
    this.#timer.unref?.();
  }

  /** Writes what is pending now (tests and shutdown; otherwise every FLUSH_MS). */
  flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    const batch = this.#pending;
    this.#pending = { arrivals: new Map(), departures: new Map(), confirms: new Map() };
    this.#flushing = this.#flushing
      .then(() => writeRetrying(batch, this.stats))
      .catch((err: unknown) => console.warn(`[sightings] could not store: ${errorText(err)}`));
    return this.#flushing;
  }

  /** Forgets what this process wrote (tests that reset the database). */
  reset() {
    this.#observers.clear();
    this.#planetOf.clear();
    this.#known.clear();
    this.#lastConfirm.clear();
  }
}

/**
 * PostgreSQL aborts one side of a deadlock (40P01) or a serialization conflict (40001): the
 * batch is written again, so a sighting is not lost because an account was deleted (its
 * character_details row) in the same moment. Other errors (the database unreachable) are not.
 */
async function writeRetrying(batch: Pending, stats: { written: number }) {
  for (let attempt = 1; ; attempt++) {
    try {
      // Counted once the batch is stored: an aborted try wrote nothing.
      const counted = { written: 0 };
      await write(batch, counted);
      stats.written += counted.written;
      return;
    } catch (err) {
      if (attempt >= 3 || !isConflict(err)) throw err;
    }
  }
}

function isConflict(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (e.code === "40P01" || e.code === "40001") return true;
  return false;
}

async function write(batch: Pending, stats: { written: number }) {
  if (!batch.arrivals.size && !batch.departures.size && !batch.confirms.size) return;
  const db = await getDb();
  const now = new Date();
  await db.transaction(async (tx) => {
    if (batch.arrivals.size) {
      const values = [...batch.arrivals].map(([userId, a]) => ({
        userId,
        nick: a.nick,
        planet: a.planet,
        firstSeen: now,
        lastSeen: now,
        leftAt: null,
        seenBy: a.by,
      }));
      stats.written += values.length;
      await tx
        .insert(sightings)
        .values(values)
        .onConflictDoUpdate({
          target: sightings.userId,
          set: {
            nick: sql`excluded.nick`,
            planet: sql`excluded.planet`,
            firstSeen: sql`excluded.first_seen`,
            lastSeen: sql`excluded.last_seen`,
            leftAt: sql`null`,
            seenBy: sql`excluded.seen_by`,
          },
          // Another worker wrote this visit already: nothing to change.
          setWhere: sql`${sightings.planet} is distinct from excluded.planet or ${sightings.leftAt} is not null`,
        });
      const byPlanet = new Map<string, string[]>();
      for (const [userId, a] of batch.arrivals) byPlanet.set(a.planet, [...(byPlanet.get(a.planet) ?? []), userId]);
      const managed = await tx
        .select({ accountId: users.accountId })
        .from(users)
        .where(inArray(users.accountId, [...batch.arrivals.keys()]));
      if (managed.length) {
        await tx
          .insert(characterDetails)
          .values(
            managed.map((m) => ({
              accountId: m.accountId,
              isOnline: true,
              room: batch.arrivals.get(m.accountId)!.planet,
              statusSource: "stalker",
              statusAt: now,
              updatedAt: now,
            })),
          )
          .onConflictDoUpdate({
            target: characterDetails.accountId,
            set: { isOnline: true, room: sql`excluded.room`, statusSource: "stalker", statusAt: now, updatedAt: now },
          });
      }
    }
    for (const [userId, d] of batch.departures) {
      await tx
        .update(sightings)
        .set({ leftAt: now, lastSeen: now })
        .where(and(eq(sightings.userId, userId), eq(sightings.planet, d.planet), isNull(sightings.leftAt)));
      // SLEEP means offline; a PART may be a flight elsewhere or a logout, so the stalker's
      // status is withdrawn (statusAt null) and the HTTP status call decides.
      const ours = and(eq(characterDetails.accountId, userId), eq(characterDetails.statusSource, "stalker"), eq(characterDetails.room, d.planet));
      if (d.how === "sleep") await tx.update(characterDetails).set({ isOnline: false, room: null, statusAt: now, updatedAt: now }).where(ours);
      else await tx.update(characterDetails).set({ statusAt: null, updatedAt: now }).where(ours);
    }
    for (const [planet, ids] of batch.confirms) {
      if (!ids.size) continue;
      await tx
        .update(sightings)
        .set({ lastSeen: now })
        .where(and(eq(sightings.planet, planet), isNull(sightings.leftAt), inArray(sightings.userId, [...ids])));
      await tx
        .update(characterDetails)
        .set({ statusAt: now, updatedAt: now })
        .where(and(eq(characterDetails.statusSource, "stalker"), eq(characterDetails.room, planet), inArray(characterDetails.accountId, [...ids])));
    }
  });
}

/** This process's recorder (one per process, shared by every stalker it holds). */
export function sightingsRecorder(): SightingsRecorder {
  return remember("sightings-recorder", () => new SightingsRecorder());
}

export type Sighting = typeof sightings.$inferSelect;

export async function listSightings(filter: { userId?: string; planet?: string; seenBy?: string } = {}): Promise<Sighting[]> {
  const db = await getDb();
  const where = and(
    filter.userId ? eq(sightings.userId, filter.userId) : undefined,
    filter.planet ? eq(sightings.planet, filter.planet) : undefined,
    filter.seenBy ? eq(sightings.seenBy, filter.seenBy) : undefined,
  );
  return db.select().from(sightings).where(where);
}
