import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { galaxyUserAgents } from "~/db/schema";
import { decryptSecret, isEncryptedSecret } from "~/utils/secrets.server";
import { UserAgentError, deviceOf, parseHeaders } from "~/galaxy/user-agent";
import { getUserAgent, registerUserAgent, registerUserAgents, resetUserAgentMemory } from "./user-agent.server";

describe("user-agent registry (spec 1 §3 'User-agent record per account')", () => {
  it("parses iHeaders given as JSON text or as an object, dropping unsafe names and values", () => {
    expect(parseHeaders('{"X-Galaxy-Platform":"web","X-Galaxy-Scr-W":700}')).toEqual({ "X-Galaxy-Platform": "web", "X-Galaxy-Scr-W": "700" });
    expect(parseHeaders({ "Bad Name": "x", "X-Ok": "a\r\nInjected: 1", "X-Fine": true, "X-Obj": { a: 1 } })).toEqual({ "X-Fine": "true" });
    expect(parseHeaders(undefined)).toBeNull();
    expect(parseHeaders("  ")).toBeNull();
    expect(() => parseHeaders("{oops")).toThrow(UserAgentError);
    expect(() => parseHeaders("[1,2]")).toThrow(UserAgentError);
    expect(() => parseHeaders(42)).toThrow(UserAgentError);
  });

  it("device: android with a sek, else the platform header, default web (spec 2 §2)", () => {
    expect(deviceOf({}, null)).toBe("web");
    expect(deviceOf({ "x-galaxy-platform": "iOS" }, null)).toBe("ios");
    expect(deviceOf({ "X-Galaxy-Platform": "web" }, "sek")).toBe("android");
  });

  it("stores the record, encrypts the sek, and reads it back after a restart", async () => {
    const rec = await registerUserAgent("12345678", { headers: '{"X-Galaxy-Lng":"es"}', sek: "sek-token-abc", nick: "Bowler", id: "12345678" });
    expect(rec).toEqual({ id: "12345678", nick: "Bowler", headers: { "X-Galaxy-Lng": "es" }, sek: "sek-token-abc", device: "android" });

    const db = await getDb();
    const [row] = await db.select().from(galaxyUserAgents).where(eq(galaxyUserAgents.accountId, "12345678"));
    expect(row.sek).not.toContain("sek-token-abc");
    expect(isEncryptedSecret(row.sek!)).toBe(true);
    expect(decryptSecret(row.sek!)).toBe("sek-token-abc");

    resetUserAgentMemory(); // as after a restart: only the table is left
    expect(await getUserAgent("12345678")).toEqual(rec);
    expect(await getUserAgent("99999999")).toBeNull();
  });

  it("replaces a record on re-registration (the socket client re-registers after every login)", async () => {
    await registerUserAgent(2222222, { headers: { "X-Galaxy-Platform": "web" }, sek: "s1" });
    await registerUserAgent(2222222, { headers: { "X-Galaxy-Platform": "web" }, nick: "Renamed" });
    resetUserAgentMemory();
    expect(await getUserAgent("2222222")).toMatchObject({ nick: "Renamed", sek: null, device: "web" });
  });

  it("registers many at once and skips entries without or with unparsable headers (spec 1 §5)", async () => {
    const result = await registerUserAgents({
      "3000001": { headers: { "X-Galaxy-Platform": "web" }, nick: "A" },
      "3000002": { headers: "", nick: "B" },
      "3000003": { headers: "{not json", nick: "C" },
      "3000004": null,
    });
    expect(result.registered).toEqual(["3000001"]);
    expect(result.skipped).toEqual([
      { id: "3000002", reason: "no iHeaders" },
      { id: "3000003", reason: "iHeaders is not valid JSON" },
      { id: "3000004", reason: "no user-agent data" },
    ]);
    resetUserAgentMemory();
    expect(await getUserAgent("3000002")).toBeNull();
    expect(await getUserAgent("3000001")).toMatchObject({ nick: "A" });
  });

  it("refuses a record without headers", async () => {
    await expect(registerUserAgent("4000001", { headers: null })).rejects.toThrow("no iHeaders");
  });
});
