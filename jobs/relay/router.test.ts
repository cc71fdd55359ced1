/**
 * The relay's routing on its own (issue 30 C2): one function per direction and kind, driven
 * with stand-in connections and a stand-in Discord poster (no socket, no database, the clock
 * handed in). The end-to-end relay tests (jobs/processors/relay*.test.ts) run the same rules
 * through the simulators.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_RELAY_OPTIONS } from "#api/galacord";
import { relayFilter } from "./options";
import { createRelayRouter, DELETE_NOTE_WINDOW_MS, REPLY_TO_RELAYED_MS, type DiscordPost, type RoutedHeld, type RoutedLink } from "./router";

type Said = { lines: string[]; to?: string; tag?: string | null };

class FakeLink implements RoutedLink {
  said: Said[] = [];
  queued = new Map<string, number>();
  sentAt = new Map<string, number>();
  constructor(
    public planet: string | null,
    public connected = true,
  ) {}
  say(lines: string[], opts: { to?: string; tag?: string | null } = {}) {
    this.said.push({ lines, ...opts });
  }
  withdraw(tag: string) {
    const removed = this.queued.get(tag) ?? 0;
    this.queued.delete(tag);
    return { removed, saidAt: this.sentAt.get(tag) ?? null };
  }
}

const CH = "100";
const OTHER_CH = "200";

function held(accountId: string, nick: string, link: FakeLink, channelId = CH, options = {}): RoutedHeld {
  return { link, row: { accountId, nick, channelId, channelName: "relay" }, filter: relayFilter({ ...DEFAULT_RELAY_OPTIONS, ...options }) };
}

function setup(entries: RoutedHeld[], startAt = 1_000_000) {
  const links = new Map(entries.map((h) => [h.row.accountId, h]));
  const posts: { channelId: string; post: DiscordPost; text: string }[] = [];
  let clock = startAt;
  let nextId = 1;
  const router = createRelayRouter({
    links,
    mapMax: 100,
    now: () => clock,
    post: async (channelId, post) => {
      posts.push({ channelId, post, text: post.build("webhook") });
      return `d${nextId++}`;
    },
  });
  return { router, links, posts, advance: (ms: number) => (clock += ms), now: () => clock };
}

const discord = (messageId: string, content: string, extra: Partial<Parameters<ReturnType<typeof createRelayRouter>["discordMessage"]>[0]> = {}) => ({
  channelId: CH,
  messageId,
  author: "alice",
  content,
  reply: null,
  ...extra,
});

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("Discord → Galaxy", () => {
  it("a message goes to every connection of its channel, tagged with the Discord id, addressed to everyone", () => {
    const a = new FakeLink("Orion");
    const b = new FakeLink("Vega");
    const c = new FakeLink("Orion");
    const { router } = setup([held("1", "RelayA", a), held("2", "RelayB", b), held("3", "RelayC", c, OTHER_CH)]);
    router.discordMessage(discord("m1", "hello"));
    expect(a.said).toEqual([{ lines: [expect.stringContaining("hello")], to: "0", tag: "m1" }]);
    expect(a.said[0]!.lines[0]).toContain("alice");
    expect(b.said).toHaveLength(1);
    expect(c.said).toEqual([]);
  });

  it("a connection's ignored nicks and texts are not relayed to it", () => {
    const a = new FakeLink("Orion");
    const b = new FakeLink("Orion");
    const { router } = setup([held("1", "RelayA", a, CH, { ignoreNicks: ["alice"] }), held("2", "RelayB", b, CH, { ignoreMessages: "^!" })]);
    router.discordMessage(discord("m1", "hi"));
    router.discordMessage(discord("m2", "!cmd", { author: "bob" }));
    expect(a.said.map((s) => s.tag)).toEqual(["m2"]);
    expect(b.said.map((s) => s.tag)).toEqual(["m1"]);
  });

  it("a reply to a relayed Galaxy line shows its context and is addressed to its sender on that planet", async () => {
    const a = new FakeLink("Orion");
    const { router, posts } = setup([held("1", "RelayA", a)]);
    router.galaxyChat("1", a, { fromId: "555", nick: "Zed", text: "anyone here?", system: false, toId: "0" });
    await settle();
    expect(posts).toHaveLength(1);
    router.discordMessage(discord("m9", "me!", { reply: { messageId: "d1", author: "GalaCord", content: null } }));
    const said = a.said.at(-1)!;
    expect(said.to).toBe("555");
    expect(said.lines.join(" ")).toContain("Zed");
    expect(said.lines.join(" ")).toContain("me!");
  });

  it("an edit replaces a queued line, or says the corrected line with ' (edited)' once said; a message it never relayed is left alone", () => {
    const a = new FakeLink("Orion");
    const { router } = setup([held("1", "RelayA", a)]);
    router.discordMessage(discord("m1", "helo"));
    a.queued.set("m1", 1); // still waiting to be said
    router.discordEdit(discord("m1", "hello"));
    expect(a.said.at(-1)!.lines.join(" ")).toMatch(/hello$/);
    a.sentAt.set("m1", 5); // said meanwhile
    router.discordEdit(discord("m1", "hello there"));
    expect(a.said.at(-1)!.lines.join(" ")).toMatch(/hello there \(edited\)$/);
    const before = a.said.length;
    router.discordEdit(discord("unknown", "x"));
    expect(a.said).toHaveLength(before);
  });

  it(`a delete withdraws queued lines; a line said less than ${DELETE_NOTE_WINDOW_MS / 1000} s ago is noted, an older one is not`, () => {
    const a = new FakeLink("Orion");
    const { router, advance, now } = setup([held("1", "RelayA", a)]);
    router.discordMessage(discord("m1", "secret"));
    a.sentAt.set("m1", now());
    advance(1_000);
    router.discordDelete({ channelId: CH, messageId: "m1" });
    expect(a.said).toHaveLength(2);
    expect(a.said[1]!.lines.join(" ")).toContain("secret");
    router.discordMessage(discord("m2", "old"));
    a.sentAt.set("m2", now());
    advance(DELETE_NOTE_WINDOW_MS + 1);
    router.discordDelete({ channelId: CH, messageId: "m2" });
    expect(a.said).toHaveLength(3);
  });
});

describe("Galaxy → Discord", () => {
  it("posts a heard line under the sender's name on the connection's channel", async () => {
    const a = new FakeLink("Orion");
    const { router, posts } = setup([held("1", "RelayA", a)]);
    router.galaxyChat("1", a, { fromId: "555", nick: "Zed", text: "hi all", system: false, toId: "0" });
    await settle();
    expect(posts).toEqual([
      {
        channelId: CH,
        post: expect.objectContaining({ username: expect.stringContaining("Zed"), replyTo: null, origin: "1" }),
        text: expect.stringContaining("hi all"),
      },
    ]);
  });

  it("never relays our own relay accounts' lines, nor a replaced connection's", async () => {
    const a = new FakeLink("Orion");
    const b = new FakeLink("Orion");
    const { router, posts } = setup([held("1", "RelayA", a), held("2", "RelayB", b, OTHER_CH)]);
    router.galaxyChat("1", a, { fromId: "2", nick: "RelayB", text: "echo", system: false, toId: "0" });
    router.galaxyChat("1", new FakeLink("Orion"), { fromId: "555", nick: "Zed", text: "stale", system: false, toId: "0" });
    await settle();
    expect(posts).toEqual([]);
  });

  it("two of our accounts on one planet and channel: only the first relays", async () => {
    const a = new FakeLink("Orion");
    const b = new FakeLink("Orion");
    const { router, posts } = setup([held("1", "RelayA", a), held("2", "RelayB", b)]);
    const line = { fromId: "555", nick: "Zed", text: "once", system: false, toId: "0" };
    router.galaxyChat("1", a, line);
    router.galaxyChat("2", b, line);
    await settle();
    expect(posts.map((p) => p.post.origin)).toEqual(["1"]);
  });

  it(`"Nick, text" to a relay account answers the Discord message it said last (within ${REPLY_TO_RELAYED_MS / 60_000} min), without the address`, async () => {
    const a = new FakeLink("Orion");
    const { router, posts, advance } = setup([held("1", "RelayA", a)]);
    router.discordMessage(discord("m1", "who is there?"));
    router.galaxyChat("1", a, { fromId: "555", nick: "Zed", text: "RelayA, me", system: false, toId: "1" });
    await settle();
    expect(posts[0]!.post.replyTo).toBe("m1");
    expect(posts[0]!.text).toContain("me");
    expect(posts[0]!.text).not.toContain("RelayA,");
    advance(REPLY_TO_RELAYED_MS + 1);
    router.galaxyChat("1", a, { fromId: "555", nick: "Zed", text: "RelayA, late", system: false, toId: "1" });
    await settle();
    expect(posts[1]!.post.replyTo).toBeNull();
  });

  it('"Nick, text" to a Galaxy user answers their latest post on the channel', async () => {
    const a = new FakeLink("Orion");
    const { router, posts } = setup([held("1", "RelayA", a)]);
    router.galaxyChat("1", a, { fromId: "555", nick: "Zed", text: "question?", system: false, toId: "0" });
    await settle();
    router.galaxyChat("1", a, { fromId: "777", nick: "Amy", text: "Zed, answer", system: false, toId: "555" });
    await settle();
    expect(posts[1]!.post.replyTo).toBe("d1");
    expect(posts[1]!.text).not.toContain("Zed,");
  });
});
