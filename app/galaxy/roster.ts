/**
 * Who is on our planet: the planet the server put us on and its users, kept from the server's
 * lines (reference §4 and §5.1; docs/galaxy-protocol.md "Planet tracking").
 *
 * A pure reducer, so the connection, the session host and tests share one definition of
 * "the planet's users" without a socket: `roster = reduceRoster(roster, line, selfId)`.
 * Updates are immutable; a line that changes nothing returns the very same roster, so a
 * caller can tell "nothing happened" by reference (`next === roster`).
 *
 * | line | effect |
 * |---|---|
 * | `900 <planet> …` | a new planet: its info, no users yet, list not complete |
 * | `353 … :<records>` | users added (an id already listed is replaced in place) |
 * | `366` | the list is complete |
 * | `JOIN <record>` (server) | a user arrived (added, or replaced in place) |
 * | `PART <id> …`, `SLEEP <id>` | a user left (the server sends PART on logout, too) |
 * | `REMOVE <id> <x/2>` | a user moved |
 * | `KICK`/`BAN <id> …` | that user is gone; when `<id>` is us we are off the planet |
 * | `PRISON …` | we were imprisoned: off the planet |
 *
 * The server lines the reference lists (§4) hold no NICK and no server-sent QUIT, so such lines
 * leave the roster unchanged like every other line.
 */
import { readJoin, readLeave, readMove, readNames, readPlanetInfo, type GalaxyLine, type PlanetInfo, type PlanetUser } from "./protocol";

export type Roster = {
  /** The planet from the last 900, or null when we are on none (before JOIN, kicked, …). */
  readonly planet: PlanetInfo | null;
  /** Users on the planet in arrival order. */
  readonly users: readonly PlanetUser[];
  /** True once 366 ended the planet's user list; arrivals before it belong to the list. */
  readonly complete: boolean;
};

/**
 * What one line changed in a complete list, so a listener can follow it in O(1) instead of
 * comparing whole lists (a planet of hundreds, each arrival seen by every session on it).
 */
export type RosterChange = { arrived: PlanetUser | null; left: string | null };

/** The change from `prev` to `next` (`reduceRoster`'s result for `line`): one arrival, one departure, or neither (a move, a replaced record). */
export function rosterChange(prev: Roster, next: Roster): RosterChange {
  if (next.users.length === prev.users.length + 1) return { arrived: next.users[next.users.length - 1]!, left: null };
  if (next.users.length === prev.users.length - 1) {
    // One user removed: the first index where the lists differ (or the last).
    let i = 0;
    while (i < next.users.length && next.users[i] === prev.users[i]) i++;
    return { arrived: null, left: prev.users[i]!.id };
  }
  return { arrived: null, left: null };
}

export const emptyRoster: Roster = Object.freeze({ planet: null, users: Object.freeze([]), complete: false });

/**
 * The roster after one server line. `selfId` is our account id: a KICK or BAN naming it takes
 * us off the planet. Throws the reader's ProtocolError for a malformed line of a kind it
 * tracks (the connection reports it as a protocol error and keeps the old roster).
 */
export function reduceRoster(roster: Roster, line: GalaxyLine, selfId: string | null = null): Roster {
  switch (line.command) {
    case "900":
      return { planet: readPlanetInfo(line), users: [], complete: false };
    case "353": {
      const { users } = readNames(line);
      return users.length ? { ...roster, users: upsertAll(roster.users, users) } : roster;
    }
    case "366":
      return roster.complete ? roster : { ...roster, complete: true };
    case "JOIN":
      return { ...roster, users: upsert(roster.users, readJoin(line).user) };
    case "PART":
    case "SLEEP":
      return without(roster, readLeave(line).id);
    case "REMOVE": {
      const { id, position } = readMove(line);
      const i = roster.users.findIndex((u) => u.id === id);
      if (i < 0) return roster;
      return { ...roster, users: roster.users.with(i, { ...roster.users[i], position, x: position * 2 }) };
    }
    case "KICK":
    case "BAN": {
      // `:<nick> KICK <targetId> …` (reference §4): when we are the target we are off the planet.
      const target = line.params[0];
      if (!target) return roster;
      return target === selfId ? offPlanet(roster) : without(roster, target);
    }
    case "PRISON":
      return offPlanet(roster);
    default:
      return roster;
  }
}

/** True when the roster holds a planet or users (what "leaving" has to announce). */
export function isOnPlanet(roster: Roster): boolean {
  return roster.planet !== null || roster.users.length > 0;
}

function upsert(users: readonly PlanetUser[], user: PlanetUser): readonly PlanetUser[] {
  const i = users.findIndex((u) => u.id === user.id);
  return i < 0 ? [...users, user] : users.with(i, user);
}

/** `upsert` of each record in turn, in one copy (a 353 line carries many records: one copy each was quadratic). */
function upsertAll(users: readonly PlanetUser[], records: readonly PlanetUser[]): readonly PlanetUser[] {
  const out = [...users];
  const at = new Map<string, number>();
  out.forEach((u, i) => at.set(u.id, i));
  for (const user of records) {
    const i = at.get(user.id);
    if (i === undefined) {
      at.set(user.id, out.length);
      out.push(user);
    } else out[i] = user;
  }
  return out;
}

function without(roster: Roster, id: string): Roster {
  const users = roster.users.filter((u) => u.id !== id);
  return users.length === roster.users.length ? roster : { ...roster, users };
}

function offPlanet(roster: Roster): Roster {
  return isOnPlanet(roster) || roster.complete ? emptyRoster : roster;
}
