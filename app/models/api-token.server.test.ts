import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { apiTokens } from "~/db/schema";
import { cachedToken, createApiToken, findOperatorByToken, LAST_USED_RESOLUTION_MS, listApiTokens, revokeApiToken, TOKEN_CACHE_MS } from "./api-token.server";
import { createOperator, deleteOperator, type Operator } from "./operator.server";

/**
 * Issue "Foundation" item 3: "API token (Authorization: Bearer …), created and revoked by
 * an operator, stored hashed." Random 32 bytes, shown once, SHA-256 at rest.
 */
let alice: Operator;
let bob: Operator;
beforeAll(async () => {
  alice = await createOperator("alice", "correct horse");
  bob = await createOperator("bob", "battery staple");
});

describe("API tokens", () => {
  it("are 32 random bytes with a gtk_ prefix; only the SHA-256 is stored", async () => {
    const { token, row } = await createApiToken(alice.id, "backup script");
    expect(token).toMatch(/^gtk_[A-Za-z0-9_-]{43}$/);
    expect(row.prefix).toBe(token.slice(0, 10));
    const db = await getDb();
    const [stored] = await db.select().from(apiTokens).where(eq(apiTokens.id, row.id));
    expect(stored!.tokenHash).toBe(crypto.createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(token);
    const { token: other } = await createApiToken(alice.id, "backup script 2");
    expect(other).not.toBe(token);
  });

  it("names are unique per operator: a repeat is refused with a clear message; another operator may use it", async () => {
    await createApiToken(alice.id, "deploy");
    await expect(createApiToken(alice.id, " deploy ")).rejects.toThrow('You already have an API token named "deploy". Choose another name.');
    expect((await listApiTokens(alice.id)).filter((t) => t.name === "deploy")).toHaveLength(1);
    // bob has a "cron" token (above): alice may have one too.
    await expect(createApiToken(alice.id, "cron")).resolves.toMatchObject({ row: { name: "cron" } });
  });

  it("authenticate as their operator; unknown or malformed tokens do not", async () => {
    const { token } = await createApiToken(bob.id, "cron");
    expect(await findOperatorByToken(token)).toEqual({ id: bob.id, name: "bob", role: "operator" });
    expect(await findOperatorByToken(token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"))).toBeNull();
    expect(await findOperatorByToken("not-a-token")).toBeNull();
    expect(await findOperatorByToken("")).toBeNull();
  });

  it("record the last use, written at most once a minute", async () => {
    const { token, row } = await createApiToken(alice.id, "poller");
    expect(row.lastUsedAt).toBeNull();
    const t0 = new Date("2026-03-01T10:00:00Z");
    await findOperatorByToken(token, t0);
    const lastUsed = async () => (await listApiTokens(alice.id)).find((t) => t.id === row.id)!.lastUsedAt?.getTime();
    expect(await lastUsed()).toBe(t0.getTime());
    await findOperatorByToken(token, new Date(t0.getTime() + 30_000));
    expect(await lastUsed()).toBe(t0.getTime());
    const t2 = new Date(t0.getTime() + LAST_USED_RESOLUTION_MS);
    await findOperatorByToken(token, t2);
    expect(await lastUsed()).toBe(t2.getTime());
  });

  it("are revoked at once, and only by their own operator", async () => {
    const { token, row } = await createApiToken(alice.id, "to revoke");
    expect(await revokeApiToken(bob.id, row.id)).toBeNull();
    expect(await findOperatorByToken(token)).not.toBeNull();
    expect((await revokeApiToken(alice.id, row.id))?.name).toBe("to revoke");
    expect(await findOperatorByToken(token)).toBeNull();
    expect(await revokeApiToken(alice.id, row.id)).toBeNull();
  });

  it("are listed per operator, newest first, without hashes", async () => {
    const list = await listApiTokens(alice.id);
    expect(list.length).toBeGreaterThan(0);
    for (const t of list) expect(Object.keys(t).sort()).toEqual(["createdAt", "id", "lastUsedAt", "name", "prefix", "readOnly"]);
    expect(list.map((t) => t.createdAt.getTime())).toEqual([...list.map((t) => t.createdAt.getTime())].sort((a, b) => b - a));
    expect((await listApiTokens(bob.id)).every((t) => t.name === "cron")).toBe(true);
  });

  it("need a name", async () => {
    await expect(createApiToken(alice.id, "   ")).rejects.toThrow("Token name is required");
  });
});

describe("verified-token cache (keeps GET /api/rates off the database)", () => {
  it("a revoke through the app takes effect on the very next lookup", async () => {
    const { token, row } = await createApiToken(alice.id, "cached");
    expect(await findOperatorByToken(token)).toMatchObject({ id: alice.id });
    await revokeApiToken(alice.id, row.id);
    expect(await findOperatorByToken(token)).toBeNull();
  });

  it("a token deleted by another process stops working once the cache entry is older than TOKEN_CACHE_MS", async () => {
    const { token, row } = await createApiToken(bob.id, "deleted elsewhere");
    const t0 = new Date();
    expect(await findOperatorByToken(token, t0)).toMatchObject({ id: bob.id });
    const db = await getDb();
    await db.delete(apiTokens).where(eq(apiTokens.id, row.id)); // as the CLI would, in its own process
    expect(await findOperatorByToken(token, new Date(t0.getTime() + 10))).toMatchObject({ id: bob.id });
    expect(await findOperatorByToken(token, new Date(t0.getTime() + TOKEN_CACHE_MS + 1))).toBeNull();
  });

  it("deleting an operator drops its cached tokens at once", async () => {
    const carol = await createOperator("carol", "correct horse");
    const { token } = await createApiToken(carol.id, "gone with carol");
    expect(await findOperatorByToken(token)).toMatchObject({ id: carol.id });
    expect(await deleteOperator("carol")).toBe(true);
    expect(await findOperatorByToken(token)).toBeNull();
  });

  it("cachedToken (the GET /api/rates hot path) answers only what findToken verified within TOKEN_CACHE_MS", async () => {
    const { token, row } = await createApiToken(alice.id, "hot path");
    expect(cachedToken(token)).toBeNull(); // never verified here: the gate must look it up
    const t0 = new Date();
    expect(await findOperatorByToken(token, t0)).toMatchObject({ id: alice.id });
    expect(cachedToken(token, t0.getTime() + 10)).toEqual({
      operator: expect.objectContaining({ id: alice.id }),
      token: { id: row.id, name: "hot path", readOnly: false },
    });
    expect(cachedToken(token, t0.getTime() + TOKEN_CACHE_MS)).toBeNull();
    expect(cachedToken(`${token}x`, t0.getTime() + 10)).toBeNull();
    await revokeApiToken(alice.id, row.id);
    expect(cachedToken(token, t0.getTime() + 10)).toBeNull();
  });
});
