/**
 * The planet roster reducer, one server line at a time (reference §4, §5.1). No socket: the
 * connection's use of it over real sockets is covered in connection.server.test.ts.
 */
import { describe, expect, it } from "vitest";
import { parseLine, ProtocolError } from "./protocol";
import { emptyRoster, isOnPlanet, reduceRoster, rosterChange, type Roster } from "./roster";

const ME = "1000001";

/** Feeds lines in order, as the connection does. */
function feed(lines: string[], start: Roster = emptyRoster, selfId: string | null = ME): Roster {
  return lines.reduce((r, l) => reduceRoster(r, parseLine(l), selfId), start);
}

const ids = (r: Roster) => r.users.map((u) => u.id);

/** On Cannon*7 with us, the bot and Alice; the list is complete. */
const onPlanet = feed([
  "900 Cannon*7 35 0 2",
  `353 1 = Cannon*7 :- @Cannon*7 2000002 0 100 - Me ${ME} 0 120`,
  "353 2 = Cannon*7 :Clan Alice 3000003 1 hb/12_ 0 -76 33 0 140",
  "366",
]);

describe("reduceRoster", () => {
  it("900 sets the planet and starts an empty, incomplete list (replacing the previous planet)", () => {
    const r = reduceRoster(onPlanet, parseLine("900 RingToss*3 40 0 0"), ME);
    expect(r).toEqual({ planet: { name: "RingToss*3", capacity: 40, closed: false, mode: 0 }, users: [], complete: false });
    expect(onPlanet.users).toHaveLength(3); // the old roster is untouched
  });

  it("353 adds users in order (several lines), with roles, clans and positions; 366 completes the list", () => {
    expect(onPlanet.planet).toEqual({ name: "Cannon*7", capacity: 35, closed: false, mode: 2 });
    expect(ids(onPlanet)).toEqual(["2000002", ME, "3000003"]);
    expect(onPlanet.users[0]).toMatchObject({ nick: "Cannon*7", role: "owner", clan: null, position: 100, x: 200 });
    expect(onPlanet.users[2]).toMatchObject({ nick: "Alice", clan: "Clan", gender: null, views: [{ url: "hb/12_" }] });
    expect(onPlanet.complete).toBe(true);
    const beforeEnd = feed(["900 Galaxy 60 0 0", "353 1 = Galaxy :- Bob 4000004 0 5"]);
    expect(beforeEnd.complete).toBe(false);
  });

  it("353 repeating a listed id replaces that user in place", () => {
    const r = reduceRoster(onPlanet, parseLine(`353 3 = Cannon*7 :- Me2 ${ME} 0 7`), ME);
    expect(ids(r)).toEqual(["2000002", ME, "3000003"]);
    expect(r.users[1]).toMatchObject({ nick: "Me2", position: 7 });
  });

  it("366 twice returns the same roster", () => {
    expect(reduceRoster(onPlanet, parseLine("366"), ME)).toBe(onPlanet);
  });

  it("JOIN adds the arriving user with gender at the end; a JOIN of a listed id replaces it in place", () => {
    const r = reduceRoster(onPlanet, parseLine("JOIN - Carol 5000005 1 0 60 -1 -1 -1"), ME);
    expect(ids(r)).toEqual(["2000002", ME, "3000003", "5000005"]);
    expect(r.users[3]).toMatchObject({ nick: "Carol", gender: 1, position: 60, x: 120 });
    const again = reduceRoster(r, parseLine("JOIN - Alice 3000003 0 0 9 -1 -1 -1"), ME);
    expect(ids(again)).toEqual(ids(r));
    expect(again.users[2]).toMatchObject({ gender: 0, position: 9 });
    expect(r.users[2].gender).toBeNull(); // immutable: the earlier roster kept its record
  });

  it("PART and SLEEP remove the user; an unknown id leaves the same roster", () => {
    expect(ids(reduceRoster(onPlanet, parseLine("PART 3000003 1 -1 -1 -1"), ME))).toEqual(["2000002", ME]);
    expect(ids(reduceRoster(onPlanet, parseLine("SLEEP 2000002"), ME))).toEqual([ME, "3000003"]);
    expect(reduceRoster(onPlanet, parseLine("PART 9999999 1 -1 -1 -1"), ME)).toBe(onPlanet);
    expect(reduceRoster(onPlanet, parseLine("SLEEP 9999999"), ME)).toBe(onPlanet);
  });

  it("REMOVE moves the user (x = 2 × value); an unknown id leaves the same roster", () => {
    const r = reduceRoster(onPlanet, parseLine("REMOVE 3000003 300"), ME);
    expect(r.users[2]).toMatchObject({ id: "3000003", position: 300, x: 600 });
    expect(onPlanet.users[2].position).toBe(140);
    expect(reduceRoster(onPlanet, parseLine("REMOVE 9999999 300"), ME)).toBe(onPlanet);
  });

  it("KICK or BAN of someone else removes them and keeps the planet", () => {
    const kicked = reduceRoster(onPlanet, parseLine(":Cannon*7 KICK 3000003 0 :bye"), ME);
    expect(ids(kicked)).toEqual(["2000002", ME]);
    expect(kicked.planet).toBe(onPlanet.planet);
    expect(ids(reduceRoster(onPlanet, parseLine(":Cannon*7 BAN 2000002 0"), ME))).toEqual([ME, "3000003"]);
    expect(reduceRoster(onPlanet, parseLine(":Cannon*7 KICK 9999999 0"), ME)).toBe(onPlanet);
    expect(reduceRoster(onPlanet, parseLine(":Cannon*7 KICK"), ME)).toBe(onPlanet);
  });

  it("our own KICK or BAN, and PRISON, take us off the planet", () => {
    for (const line of [`:Cannon*7 KICK ${ME} 1 :out`, `:Cannon*7 BAN ${ME} 1`, ":Warden PRISON 0 :caught"]) {
      const r = reduceRoster(onPlanet, parseLine(line), ME);
      expect(r, line).toBe(emptyRoster);
      expect(isOnPlanet(r)).toBe(false);
    }
    expect(isOnPlanet(onPlanet)).toBe(true);
    // Already off the planet: nothing changes.
    expect(reduceRoster(emptyRoster, parseLine(":Warden PRISON 0 :caught"), ME)).toBe(emptyRoster);
  });

  it("without our id a KICK is always about someone else", () => {
    const r = reduceRoster(onPlanet, parseLine(`:Cannon*7 KICK ${ME} 1`), null);
    expect(ids(r)).toEqual(["2000002", "3000003"]);
    expect(r.planet?.name).toBe("Cannon*7");
  });

  it("unknown and untracked lines leave the same roster", () => {
    for (const line of [
      "PING",
      "PRIVMSG 3000003 0 0 :hi",
      "NICK NewName",
      "QUIT :gone",
      ":srv 332 2000002 :topic",
      "FOUNDER 2000002",
      "860 2000002 5 1;aura/0_7;0;0;33",
      "421 FOO :Unknown command",
      "850 1 1 :<p>x</p>",
    ]) {
      expect(reduceRoster(onPlanet, parseLine(line), ME), line).toBe(onPlanet);
    }
  });

  it("a malformed tracked line throws ProtocolError and the caller keeps its roster", () => {
    for (const line of ["353 1 = Cannon*7 :- Nick notanid 0 5", "JOIN - Half", "PART", "REMOVE 3000003 x", "900"]) {
      expect(() => reduceRoster(onPlanet, parseLine(line), ME), line).toThrow(ProtocolError);
    }
    expect(ids(onPlanet)).toEqual(["2000002", ME, "3000003"]);
  });

  it("emptyRoster is frozen, so no caller can change the shared start value", () => {
    expect(Object.isFrozen(emptyRoster)).toBe(true);
    expect(Object.isFrozen(emptyRoster.users)).toBe(true);
    expect(emptyRoster).toEqual({ planet: null, users: [], complete: false });
  });
});

describe("rosterChange (what one line changed, for O(1) listeners)", () => {
  it("an arrival, a departure, a move and a repeated record", () => {
    const arrived = reduceRoster(onPlanet, parseLine("JOIN - Bob 4000004 1 0 60 -1 -1 -1"), ME);
    expect(rosterChange(onPlanet, arrived)).toEqual({ arrived: arrived.users[3], left: null });
    expect(arrived.users[3]).toMatchObject({ id: "4000004", nick: "Bob" });
    const gone = reduceRoster(arrived, parseLine("PART 3000003"), ME);
    expect(rosterChange(arrived, gone)).toEqual({ arrived: null, left: "3000003" });
    const lastGone = reduceRoster(arrived, parseLine("SLEEP 4000004"), ME);
    expect(rosterChange(arrived, lastGone)).toEqual({ arrived: null, left: "4000004" });
    const moved = reduceRoster(arrived, parseLine("REMOVE 4000004 40"), ME);
    expect(rosterChange(arrived, moved)).toEqual({ arrived: null, left: null });
  });

  it("a 353 that repeats an id replaces it in place, in one pass over many records", () => {
    const records = Array.from({ length: 600 }, (_, i) => `- U${i} ${5000000 + (i % 400)} 0 ${i}`).join(" ");
    const r = feed(["900 Big 1000 0 0", `353 1 = Big :${records}`, "366"]);
    expect(r.users).toHaveLength(400);
    expect(r.users[0]).toMatchObject({ id: "5000000", nick: "U400", position: 400 });
    expect(r.users[399]).toMatchObject({ id: "5000399", nick: "U399" });
  });
});
