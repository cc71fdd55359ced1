import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { desc, eq, gt } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "#sim/server";
import { createTestApiToken, createTestOperator, makeRequest, remixHandler, type TestOperator } from "#tests/kit";
import { nodeArgsFor } from "#tests/setup/test-bins";
import { mountQueueBoard } from "#jobs/runtime.server";
import { resetJobEngineStatus } from "~/queue/status.server";
import { deleteKeys } from "#jobs/test-helpers";
import { getDb } from "~/db/client.server";
import { auditLog, categories } from "~/db/schema";
import { upsertRate } from "~/models/rate.server";
import { upsertUser } from "~/models/user.server";
import { authenticate, runWithAuth } from "~/http/auth.server";
import { getEnv, resetEnv } from "~/utils/env.server";

/**
 * Issue 28 item 2, the standing check: every kind of write — a page's form, an /api call, the
 * queue board, the command line (operator, token, backup, restore) — leaves exactly ONE audit
 * entry whose `target` names what changed the way the screen names it: an account as
 * "Nick (id)", a rate as "Gold Ring → Silver Ring", a category by its name, "2 companions", an
 * operator or a token by name. Never empty, never a secret (recovery codes, passwords).
 * Requests go through the real route table and route guard (remixHandler), the platform
 * through the simulator, the CLIs as spawned programs.
 */
let handle: (request: Request) => Promise<Response>;
let sim: Simulator;
let admin: TestOperator;
let alice: TestOperator;
let aliceToken: string;
let adminToken: string;
let board: http.Server;
let boardBase: string;
const root = path.resolve(import.meta.dirname, "../..");

beforeAll(async () => {
  sim = await startSimulator({ port: 0, pingIntervalMs: 0 });
  process.env.GALAXY_WS_URL = sim.wsUrl;
  resetEnv();
  handle = await remixHandler((r) => /\/api\.|characters$|gifts$|exchange-rates$|settings$|collections$/.test(r.id));
  admin = await createTestOperator({ name: "root", role: "admin" });
  alice = await createTestOperator({ name: "alice", role: "operator" });
  aliceToken = await createTestApiToken(alice.id, "nightly import");
  adminToken = await createTestApiToken(admin.id, "board script");
  // Accounts the screens know by nick.
  await upsertUser({ accountId: "123456", nick: "Kazensar", password: "p".repeat(32), type: "bowling" });
  await upsertUser({ accountId: "223344", nick: "Supplio", password: "p".repeat(32), type: "suppliers" });
  await upsertUser({ accountId: "334455", nick: "Recipia", password: "p".repeat(32), type: "recipients" });
  await upsertUser({ accountId: "445566", nick: "Bowlina", password: "p".repeat(32), type: "bowling" });
  await upsertRate({ inputItem: "Gold Ring", outputItem: "Silver Ring", rates: "1/2" });
  // The queue board behind what the auth gate attaches (auth-gate.server.ts).
  resetJobEngineStatus();
  const app = express();
  app.use((req, _res, next) => {
    void authenticate({ cookie: req.headers.cookie, authorization: req.headers.authorization }).then((r) => runWithAuth(r, next));
  });
  await mountQueueBoard(app, "/admin/queues");
  board = app.listen(0, "127.0.0.1");
  await new Promise((r) => board.once("listening", r));
  boardBase = `http://127.0.0.1:${(board.address() as { port: number }).port}/admin/queues`;
});
afterAll(async () => {
  await new Promise((r) => board.close(r));
  await sim.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

async function lastId(): Promise<number> {
  const db = await getDb();
  const [row] = await db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row?.id ?? 0;
}

/** Runs one write; its entries (exactly one expected) written meanwhile. */
async function entriesOf(write: () => Promise<void>) {
  const since = await lastId();
  await write();
  const db = await getDb();
  return db.select().from(auditLog).where(gt(auditLog.id, since)).orderBy(auditLog.id);
}

async function expectOne(label: string, write: () => Promise<void>, expected: { action: string | RegExp; target: string | RegExp }) {
  const entries = await entriesOf(write);
  expect(
    entries.map((e) => [e.action, e.target]),
    label,
  ).toHaveLength(1);
  const [e] = entries;
  expect(e!.target.trim(), label).not.toBe("");
  if (typeof expected.action === "string") expect(e!.action, label).toBe(expected.action);
  else expect(e!.action, label).toMatch(expected.action);
  if (typeof expected.target === "string") expect(e!.target, label).toBe(expected.target);
  else expect(e!.target, label).toMatch(expected.target);
  return e!;
}

async function page(path: string, form: Record<string, string>, cookie = alice.cookie) {
  const res = await handle(makeRequest(path, { cookie, form: { redirectTo: path, ...form } }));
  await res.arrayBuffer();
  expect(res.status, `${path} ${form.intent}`).toBeLessThan(400);
}

async function api(method: string, path: string, json?: unknown, token = aliceToken) {
  const res = await handle(makeRequest(path, { token, method, ...(json === undefined ? {} : { json }) }));
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(400);
}

function cli(script: Parameters<typeof nodeArgsFor>[0], args: string[], env: Record<string, string> = {}) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsFor(script), ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${script} ${args.join(" ")} exited ${code}: ${err}`))));
    child.stdin.end("");
  });
}

describe("every write names its target (issue 28)", () => {
  it("pages: categories, a recovery-code sign-in, the rates' no-JS status, companions, stalker, settings", async () => {
    const acc = sim.world.accounts[0]!;
    await expectOne("add-category", () => page("/characters", { intent: "add-category", value: "farmers" }), {
      action: "POST /characters add-category",
      target: "farmers",
    });
    const db = await getDb();
    const [farmers] = await db.select().from(categories).where(eq(categories.value, "farmers"));
    await expectOne("delete-category", () => page("/characters", { intent: "delete-category", id: farmers!.id }), {
      action: "POST /characters delete-category",
      target: "farmers",
    });
    const created = await expectOne("create-user", () => page("/characters", { intent: "create-user", rc: acc.recoveryCode, type: "stalker" }), {
      action: "POST /characters create-user",
      target: `${acc.nick} (${acc.id})`,
    });
    expect(JSON.stringify(created)).not.toContain(acc.recoveryCode);
    await expectOne("stop-stalker", () => page("/characters", { intent: "stop-stalker", accountId: acc.id }), {
      action: "POST /characters stop-stalker",
      target: `${acc.nick} (${acc.id})`,
    });
    await expectOne(
      "rate status without JavaScript",
      () => page("/exchange-rates", { intent: "status", status: "false", pair: JSON.stringify(["Gold Ring", "Silver Ring"]) }),
      {
        action: "POST /exchange-rates status",
        target: "Gold Ring → Silver Ring",
      },
    );
    await expectOne("assign-companion", () => page("/gifts", { intent: "assign-companion", bowling_id: "123456", supplier: "223344", consumer: "334455" }), {
      action: "POST /gifts assign-companion",
      target: "companion of Kazensar (123456), supplier Supplio (223344), recipient Recipia (334455)",
    });
    await api("POST", "/api/bowling-companions", { bowling_id: "445566", supplier: "223344", consumer: "334455" });
    await expectOne("delete-companions", () => page("/gifts", { intent: "delete-companions" }), {
      action: "POST /gifts delete-companions",
      target: "2 companions",
    });
    const other = sim.world.accounts[2]!;
    const login = await expectOne("Collections login with a recovery code", () => page("/collections", { intent: "login", rc: other.recoveryCode }), {
      action: "POST /collections login",
      target: `${other.nick} (${other.id})`,
    });
    expect(JSON.stringify(login)).not.toContain(other.recoveryCode);
    await expectOne("Collections logout", () => page("/collections", { intent: "logout" }), {
      action: "POST /collections logout",
      target: `${other.nick} (${other.id})`,
    });
    await expectOne("create-token", () => page("/settings", { intent: "create-token", name: "dashboard" }), {
      action: "token.create",
      target: "alice: dashboard",
    });
    const op = await expectOne(
      "create-operator",
      () => page("/settings", { intent: "create-operator", name: "bob", password: "bob's long password", role: "viewer" }, admin.cookie),
      { action: "operator.create", target: "bob" },
    );
    expect(JSON.stringify(op)).not.toContain("bob's long password");
  });

  it("/api: categories, create-creds, a rate pair, companions, a user", async () => {
    const acc = sim.world.accounts[1]!;
    await expectOne("POST /api/categories", () => api("POST", "/api/categories", { value: "miners" }), { action: "POST /api/categories", target: "miners" });
    const db = await getDb();
    const [miners] = await db.select().from(categories).where(eq(categories.value, "miners"));
    await expectOne("DELETE /api/categories/:id", () => api("DELETE", `/api/categories/${miners!.id}`), {
      action: "DELETE /api/categories/:id",
      target: "miners",
    });
    const created = await expectOne("create-creds", () => api("POST", "/api/create-creds", { rc: acc.recoveryCode, type: "stalker" }), {
      action: "POST /api/create-creds",
      target: `${acc.nick} (${acc.id})`,
    });
    expect(JSON.stringify(created)).not.toContain(acc.recoveryCode);
    await expectOne("rate status", () => api("POST", "/api/rates/status", { inputItem: "Gold Ring", outputItem: "Silver Ring", status: true }), {
      action: "POST /api/rates/status",
      target: "Gold Ring → Silver Ring",
    });
    await expectOne("rate delete", () => api("DELETE", `/api/rates/${encodeURIComponent("Gold Ring")}/${encodeURIComponent("Silver Ring")}`), {
      action: "DELETE /api/rates/:inputItem/:outputItem",
      target: "Gold Ring → Silver Ring",
    });
    await api("POST", "/api/bowling-companions", { bowling_id: "123456", supplier: "223344", consumer: "334455" });
    await expectOne("DELETE /api/bowling-companions", () => api("DELETE", "/api/bowling-companions"), {
      action: "DELETE /api/bowling-companions",
      target: "1 companion",
    });
    await expectOne("DELETE /api/users/:id", () => api("DELETE", `/api/users/${acc.id}`), {
      action: "DELETE /api/users/:id",
      target: `${acc.nick} (${acc.id})`,
    });
  });

  it("the queue board: add a job, pause a queue", async () => {
    const call = (method: string, p: string, body?: unknown) =>
      fetch(`${boardBase}${p}`, {
        method,
        headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => expect(r.status, await r.text()).toBe(200));
    await expectOne("board add", () => call("POST", "/api/queues/system/add", { name: "probe", data: { kind: "probe", ms: 0 }, options: { delay: 60_000 } }), {
      action: "queue-board.add-job",
      target: "queue system",
    });
    await expectOne("board pause", () => call("PUT", "/api/queues/system/pause"), { action: "queue-board.pause", target: "queue system" });
  });

  it("the command line: operator create, set-role, set-password, token, delete; backup; restore", async () => {
    await expectOne(
      "operator create",
      () => cli("scripts/operator.ts", ["create", "carol", "--role", "viewer"], { OPERATOR_PASSWORD: "carol's long password" }),
      {
        action: "operator.create",
        target: "carol",
      },
    );
    await expectOne("operator set-role", () => cli("scripts/operator.ts", ["set-role", "carol", "operator"]), { action: "operator.role", target: "carol" });
    await expectOne("operator set-password", () => cli("scripts/operator.ts", ["set-password", "carol"], { OPERATOR_PASSWORD: "carol's new password" }), {
      action: "operator.reset-password",
      target: "carol",
    });
    await expectOne("operator token", () => cli("scripts/operator.ts", ["token", "carol", "exporter"]), { action: "token.create", target: "carol: exporter" });
    await expectOne("operator delete", () => cli("scripts/operator.ts", ["delete", "carol"]), { action: "operator.delete", target: "carol" });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "gt-audit-")), "team.gtbackup");
    const env = { BACKUP_PASSPHRASE: "audit targets passphrase" };
    await expectOne("backup", () => cli("scripts/backup.ts", [file], env), {
      action: "backup.create",
      target: /^backup of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(team\.gtbackup\)$/,
    });
    await expectOne("restore --force", () => cli("scripts/restore.ts", [file, "--force"], env), {
      action: "backup.restore",
      target: /^backup of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(team\.gtbackup\)$/,
    });
    const secrets = JSON.stringify(await (await getDb()).select().from(auditLog));
    for (const s of ["carol's long password", "carol's new password", "audit targets passphrase"]) expect(secrets).not.toContain(s);
    // Seven CLI processes, each starting Node and opening the database: past 30 s at load 15.
  }, 180_000);

  it("no entry on the trail has an empty target", async () => {
    const db = await getDb();
    const rows = await db.select({ action: auditLog.action, target: auditLog.target }).from(auditLog);
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((r) => !r.target.trim())).toEqual([]);
  });
});
