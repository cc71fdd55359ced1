/**
 * Relay options and reply/delete texts as pure functions (issue 22 B.2, B.3, B.5; docs/galacord.md).
 * The relay itself is tested through both simulators in jobs/processors/relay.features.test.ts.
 */
import { describe, expect, it } from "vitest";
import { relayOptionsSchema, splitNicks } from "#api/galacord-schemas";
import { deletedNote, excerpt, replyContext } from "./format";
import { BoundedMap } from "./message-map";
import { relayFilter, renderName } from "./options";

describe("relay options", () => {
  it("renders {nick}, {planet}, {channel}; a missing planet is empty and spaces are squeezed", () => {
    expect(renderName("{nick} ({planet}) #{channel}", { nick: "Bob", planet: "Orion", channel: "relay" })).toBe("Bob (Orion) #relay");
    expect(renderName("{nick} {planet}", { nick: "Bob", planet: null, channel: "relay" })).toBe("Bob");
  });

  it("ignores nicks case-insensitively and texts the regex matches; defaults ignore nothing", () => {
    const f = relayFilter({ ignoreNicks: ["Bob"], ignoreMessages: "^!" });
    expect([f.ignoresNick("bob"), f.ignoresNick(" BOB "), f.ignoresNick("alice")]).toEqual([true, true, false]);
    expect([f.ignoresText("!roll"), f.ignoresText("hi !roll")]).toEqual([true, false]);
    const none = relayFilter({});
    expect([none.ignoresNick("bob"), none.ignoresText("anything")]).toEqual([false, false]);
    expect(none.options).toEqual({ discordName: "{nick}", galaxyName: "{nick}", ignoreNicks: [], ignoreMessages: "" });
  });

  it("validation: templates use only the three placeholders (≤ 64), ≤ 50 nicks of ≤ 40, the regex must compile (≤ 200)", () => {
    const ok = { discordName: "{nick}", galaxyName: "[D] {nick}", ignoreNicks: ["a", "a", "b"], ignoreMessages: "" };
    expect(relayOptionsSchema.parse(ok).ignoreNicks).toEqual(["a", "b"]);
    const bad = (patch: Record<string, unknown>) => relayOptionsSchema.safeParse({ ...ok, ...patch }).error?.issues[0]?.message;
    expect(bad({ discordName: "{nick} {who}" })).toBe("A name template is 1 to 64 characters and may use {nick}, {planet} and {channel} only");
    expect(bad({ galaxyName: " " })).toBe("A name template is 1 to 64 characters and may use {nick}, {planet} and {channel} only");
    expect(bad({ ignoreNicks: Array.from({ length: 51 }, (_, i) => `n${i}`) })).toBe("Ignore nicks: at most 50, each at most 40 characters");
    expect(bad({ ignoreNicks: ["x".repeat(41)] })).toBe("Ignore nicks: at most 50, each at most 40 characters");
    expect(bad({ ignoreMessages: "[a-" })).toMatch(/^Ignore messages: not a valid regular expression \(/);
    expect(bad({ ignoreMessages: "a".repeat(201) })).toBe("Ignore messages: at most 200 characters");
    expect(splitNicks("a, b\n c ,,\n")).toEqual(["a", "b", "c"]);
  });
});

describe("reply and delete texts; the bounded map", () => {
  it('reply context is ↪ @nick "first words…" cut at a word; a delete note likewise', () => {
    expect(replyContext("Bob", "who has the key?")).toBe('↪ @Bob "who has the key?"');
    expect(replyContext("Bob", "anyone selling rings on this planet today?")).toBe('↪ @Bob "anyone selling rings on this…"');
    expect(replyContext("Bob", "")).toBe("↪ @Bob");
    expect(excerpt("x".repeat(40))).toBe(`${"x".repeat(30)}…`);
    expect(deletedNote("oops wrong channel sorry everyone")).toBe('(deleted) "oops wrong channel sorry…"');
  });

  it("BoundedMap keeps the newest `max` entries; a set moves a key to the newest", () => {
    const m = new BoundedMap<string, number>(2);
    m.set("a", 1).set("b", 2).set("a", 3).set("c", 4);
    expect([m.get("a"), m.get("b"), m.get("c"), m.size]).toEqual([3, undefined, 4, 2]);
  });
});
