import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { operators, operatorSessions } from "~/db/schema";
import { AppError } from "~/utils/app-error";
import {
  createOperator,
  createSession,
  deleteOperator,
  deleteSession,
  findOperatorByName,
  findSession,
  listOperators,
  operatorExists,
  resetOperatorExistsCache,
  SESSION_REFRESH_AFTER_MS,
  SESSION_TTL_MS,
  setOperatorPassword,
  setOperatorRole,
  verifyOperatorPassword,
} from "./operator.server";

/** Issue "Foundation" item 3: operators, argon2 passwords (min 8), server-side sessions (30 days, rolling). */
beforeEach(async () => {
  const db = await getDb();
  await db.delete(operators);
  resetOperatorExistsCache();
});

describe("operators", () => {
  it("creates an operator whose password is stored as an argon2id hash, never in clear", async () => {
    expect(await operatorExists()).toBe(false);
    const op = await createOperator("  alice ", "correct horse");
    expect(op.name).toBe("alice");
    expect(await operatorExists()).toBe(true);
    const db = await getDb();
    const [row] = await db.select().from(operators).where(eq(operators.id, op.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain("correct horse");
  });

  it("verifies the right password and rejects a wrong one or an unknown name", async () => {
    const op = await createOperator("alice", "correct horse");
    expect(await verifyOperatorPassword("alice", "correct horse")).toEqual({ id: op.id, name: "alice", role: "admin" });
    expect(await verifyOperatorPassword("alice", "wrong horse")).toBeNull();
    expect(await verifyOperatorPassword("bob", "correct horse")).toBeNull();
  });

  it("refuses passwords shorter than 8 characters and duplicate names", async () => {
    // AppErrors (docs/decisions/0023): every edge answers them with their status and text.
    await expect(createOperator("alice", "1234567")).rejects.toThrow(new AppError(400, "Password must be at least 8 characters"));
    await expect(createOperator("alice", "1234567")).rejects.toMatchObject({ status: 400 });
    await createOperator("alice", "12345678");
    await expect(createOperator("alice", "another-password")).rejects.toThrow('An operator named "alice" already exists');
    await expect(createOperator("alice", "another-password")).rejects.toMatchObject({ name: "AppError", status: 409 });
    await expect(createOperator("", "12345678")).rejects.toThrow("Name is required");
  });

  it("the first-run setup creates only while none exists, even when two race", async () => {
    const results = await Promise.allSettled([
      createOperator("first", "password-1", { onlyIfNone: true }),
      createOperator("second", "password-2", { onlyIfNone: true }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.message)).toEqual([
      "An operator already exists. Log in instead.",
    ]);
    expect(await listOperators()).toHaveLength(1);
  });

  it("deletes an operator together with their sessions", async () => {
    const op = await createOperator("alice", "correct horse");
    const session = await createSession(op.id);
    expect(await deleteOperator("alice")).toBe(true);
    expect(await deleteOperator("alice")).toBe(false);
    expect(await findSession(session.token)).toBeNull();
    expect(await findOperatorByName("alice")).toBeNull();
    expect(await operatorExists()).toBe(false);
  });
});

describe("sessions", () => {
  it("lasts 30 days and is found with its operator until then", async () => {
    const op = await createOperator("alice", "correct horse");
    const t0 = new Date("2026-01-01T00:00:00Z");
    const session = await createSession(op.id, t0);
    expect(session.expiresAt.getTime() - t0.getTime()).toBe(SESSION_TTL_MS);
    const found = await findSession(session.token, new Date(t0.getTime() + 1000));
    expect(found?.operator).toEqual({ id: op.id, name: "alice", role: "admin" });
    expect(found?.refreshed).toBe(false);
    expect(await findSession(session.token, new Date(t0.getTime() + SESSION_TTL_MS + 1))).toBeNull();
  });

  it("rolls: used after more than a day, it is pushed to a full 30 days again (one UPDATE a day)", async () => {
    const op = await createOperator("alice", "correct horse");
    const t0 = new Date("2026-01-01T00:00:00Z");
    const session = await createSession(op.id, t0);
    const t1 = new Date(t0.getTime() + SESSION_REFRESH_AFTER_MS + 60_000);
    const found = await findSession(session.token, t1);
    expect(found?.refreshed).toBe(true);
    expect(found?.session.expiresAt.getTime()).toBe(t1.getTime() + SESSION_TTL_MS);
    const db = await getDb();
    const [row] = await db.select().from(operatorSessions).where(eq(operatorSessions.id, session.id));
    expect(row!.expiresAt.getTime()).toBe(t1.getTime() + SESSION_TTL_MS);
    // Just refreshed: the next use does not write again.
    expect((await findSession(session.token, new Date(t1.getTime() + 5000)))?.refreshed).toBe(false);
    // Beyond the original 30 days it is still alive thanks to the refresh.
    expect(await findSession(session.token, new Date(t0.getTime() + SESSION_TTL_MS + 1000))).not.toBeNull();
  });

  it("logout (deleteSession) revokes it for good", async () => {
    const op = await createOperator("alice", "correct horse");
    const session = await createSession(op.id);
    await deleteSession(session.id);
    expect(await findSession(session.token)).toBeNull();
  });

  it("a password change keeps the current session and ends all others", async () => {
    const op = await createOperator("alice", "correct horse");
    const here = await createSession(op.id);
    const elsewhere = await createSession(op.id);
    await setOperatorPassword(op.id, "new password!", here.id);
    expect(await findSession(here.token)).not.toBeNull();
    expect(await findSession(elsewhere.token)).toBeNull();
    expect(await verifyOperatorPassword("alice", "correct horse")).toBeNull();
    expect(await verifyOperatorPassword("alice", "new password!")).not.toBeNull();
    await expect(setOperatorPassword(op.id, "short")).rejects.toThrow("at least 8");
  });

  it("creating a session sweeps that operator's expired ones", async () => {
    const op = await createOperator("alice", "correct horse");
    const old = await createSession(op.id, new Date("2020-01-01T00:00:00Z"));
    await createSession(op.id);
    const db = await getDb();
    const rows = await db.select().from(operatorSessions).where(eq(operatorSessions.operatorId, op.id));
    expect(rows.map((r) => r.id)).not.toContain(old.id);
    expect(rows).toHaveLength(1);
  });
});

/** Issue 21 item 1: roles (docs/decisions/0016). */
describe("roles", () => {
  it("the first operator is an admin whatever was asked; then the role asked, operator by default", async () => {
    expect((await createOperator("first", "password 1", { role: "viewer" })).role).toBe("admin");
    expect((await createOperator("second", "password 2")).role).toBe("operator");
    expect((await createOperator("third", "password 3", { role: "viewer" })).role).toBe("viewer");
    await expect(createOperator("fourth", "password 4", { role: "owner" as never })).rejects.toThrow("Role must be admin, operator or viewer");
    expect((await listOperators()).map((o) => [o.name, o.role])).toEqual([
      ["first", "admin"],
      ["second", "operator"],
      ["third", "viewer"],
    ]);
  });

  it("the last admin can be neither demoted nor deleted while others remain; the only operator can be deleted", async () => {
    const boss = await createOperator("boss", "password 1");
    const helper = await createOperator("helper", "password 2");
    await expect(setOperatorRole(boss.id, "operator")).rejects.toThrow("boss is the last admin");
    await expect(deleteOperator("boss")).rejects.toThrow("boss is the last admin and cannot be deleted");
    await setOperatorRole(helper.id, "admin");
    expect((await setOperatorRole(boss.id, "viewer")).role).toBe("viewer");
    expect(await deleteOperator("boss")).toBe(true);
    expect(await deleteOperator("helper")).toBe(true);
    expect(await operatorExists()).toBe(false);
  });

  it("a session's lookup carries the current role (a demotion applies at the next request)", async () => {
    await createOperator("root", "password 1");
    const op = await createOperator("worker", "password 2", { role: "operator" });
    const session = await createSession(op.id);
    expect((await findSession(session.token))?.operator.role).toBe("operator");
    await setOperatorRole(op.id, "viewer");
    expect((await findSession(session.token))?.operator.role).toBe("viewer");
  });
});
