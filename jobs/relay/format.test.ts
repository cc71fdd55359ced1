/** Relay text formats (docs/galacord.md [D]; galaxy-runtime.md §5.3): pure functions. */
import { describe, expect, it } from "vitest";
import { decodeEntities, discordToGalaxy, galaxyToDiscord, webhookUsername } from "./format";

describe("relay formats", () => {
  it("Galaxy → Discord: webhook content is the text; a bot message is **nick**: text with the nick's markdown escaped; srv lines in italics", () => {
    expect(galaxyToDiscord({ nick: "star_*", text: "a &amp; b", system: false }, "webhook")).toBe("a & b");
    expect(galaxyToDiscord({ nick: "star_*", text: "a &amp; b", system: false }, "bot")).toBe("**star\\_\\***: a & b");
    expect(galaxyToDiscord({ nick: "srv", text: "Server restart", system: true }, "webhook")).toBe("*Server restart*");
    expect(decodeEntities("&lt;3 &#65;&#x42; &bogus;")).toBe("<3 AB &bogus;");
  });

  it("webhook usernames Discord refuses fall back to a bot message (null)", () => {
    expect(webhookUsername("Alice")).toBe("Alice");
    expect(webhookUsername("MyDiscordName")).toBeNull();
    expect(webhookUsername("everyone")).toBeNull();
    expect(webhookUsername("x".repeat(100))).toHaveLength(80);
  });

  it("Discord → Galaxy: `author: text`, ≤ 200 characters a line, split at spaces, newlines flattened, unresolved mentions as text", () => {
    expect(discordToGalaxy("Alice", "hi\nthere <@123> <@&456> <#789> <:ok:1>")).toEqual(["Alice: hi there @user @role #channel :ok:"]);
    const text = Array.from({ length: 100 }, (_, i) => `w${i}`).join(" ");
    const lines = discordToGalaxy("Bob", text);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) {
      expect(l.length).toBeLessThanOrEqual(200);
      expect(l.startsWith("Bob: ")).toBe(true);
    }
    expect(lines.map((l) => l.slice(5)).join(" ")).toBe(text);
    expect(discordToGalaxy("Bob", "   \n ")).toEqual([]);
  });
});
