/**
 * Issue 28 item 2: the queue board's writes are on the audit trail (who, which queue or job,
 * what), and its add-job takes only jobs the queue's processor knows (queue-payloads.ts): an
 * unknown queue, an unknown job name, a payload that is not the queue's, or options beyond a
 * safe few are a 400 {error, message} and nothing is added. Real bull-board over real HTTP,
 * real Redis; the gate's verdict attached as the gate does (runWithAuth).
 */
import http from "node:http";
import { desc } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { auditLog } from "~/db/schema";
import { authenticate, runWithAuth } from "~/http/auth.server";
import { getEnv } from "~/utils/env.server";
import { createTestApiToken, createTestOperator } from "#tests/kit";
import { boardWriteOf } from "./board-audit.server";
import { getQueue } from "../queue/queues.server";
import { mountQueueBoard } from "../../jobs/runtime.server";
import { resetJobEngineStatus } from "../queue/status.server";
import { deleteKeys } from "../../jobs/test-helpers";

let server: http.Server;
let base: string;
let adminToken: string;

beforeAll(async () => {
  resetJobEngineStatus();
  const admin = await createTestOperator({ name: "queue boss", role: "admin" });
  adminToken = await createTestApiToken(admin.id, "board script");
  const app = express();
  // What the auth gate does in front of the board (auth-gate.server.ts).
  app.use((req, _res, next) => {
    void authenticate({ cookie: req.headers.cookie, authorization: req.headers.authorization }).then((r) => runWithAuth(r, next));
  });
  await mountQueueBoard(app, "/admin/queues");
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/admin/queues`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});
beforeEach(async () => {
  const db = await getDb();
  await db.delete(auditLog);
  await getQueue("system").obliterate({ force: true });
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function trail() {
  const db = await getDb();
  return db.select().from(auditLog).orderBy(desc(auditLog.id));
}

describe("add-job on the board", () => {
  it("adds a job that fits its queue, on the trail: who, which queue, the job", async () => {
    const res = await call("POST", "/api/queues/system/add", { name: "probe", data: { kind: "probe", ms: 0 }, options: {} });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await getQueue("system").getJobCounts("waiting", "delayed", "prioritized")).toMatchObject({ waiting: 1 });
    const [entry, ...rest] = await trail();
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      operator: "queue boss",
      token: "board script",
      action: "queue-board.add-job",
      target: "queue system",
      details: { name: "probe", data: { kind: "probe", ms: 0 }, status: 200 },
    });
  });

  it("refuses an unknown queue, an unknown job name, a bad payload or unsafe options: 400 {error, message}, nothing added, nothing recorded", async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ["/api/queues/nope/add", { name: "probe", data: { kind: "probe", ms: 0 } }, /Unknown queue "nope"/],
      ["/api/queues/system/add", { name: "format-disk", data: { kind: "format-disk" } }, /Unknown job name for queue system/],
      ["/api/queues/system/add", { name: "probe", data: { kind: "probe", ms: "soon" } }, /Invalid job data for queue system: ms/],
      ["/api/queues/system/add", { name: "probe", data: { kind: "probe", ms: 0, password: "x" } }, /Invalid job data/],
      ["/api/queues/system/add", { name: "probe", data: { kind: "backup" } }, /name \("probe"\) and its data's kind/],
      ["/api/queues/system/add", { name: "probe", data: { kind: "probe", ms: 0 }, options: { repeat: { every: 1 } } }, /options not allowed.*repeat/],
      ["/api/queues/stalker/add", { name: "session", data: { kind: "session", accountId: "1" } }, /reason/],
      ["/api/queues/system/add", "not an object", /JSON/],
    ];
    for (const [path, body, text] of cases) {
      const res = await call("POST", path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      const answer = (await res.json()) as { error: string; message: string };
      expect(answer.error).toBe(answer.message);
      expect(answer.error).toMatch(text);
    }
    expect(await getQueue("system").count()).toBe(0);
    expect(await getQueue("stalker").count()).toBe(0);
    expect(await trail()).toEqual([]);
  });
});

describe("the board's other writes", () => {
  it("pause, resume, clean, retry, remove a job: one entry each, naming the queue or the job", async () => {
    const job = await getQueue("system").add("probe", { kind: "probe", ms: 0 }, { jobId: "probe-board-audit", delay: 60_000 });
    const steps: Array<[string, string, string, string]> = [
      ["PUT", "/api/queues/system/pause", "queue-board.pause", "queue system"],
      ["PUT", "/api/queues/system/resume", "queue-board.resume", "queue system"],
      ["PUT", "/api/queues/system/promote", "queue-board.promote", "queue system"],
      ["PUT", "/api/queues/system/retry/failed", "queue-board.retry-all", "failed jobs in queue system"],
      ["PUT", "/api/queues/system/clean/completed", "queue-board.clean-all", "completed jobs in queue system"],
      ["PUT", `/api/queues/system/${job.id}/clean`, "queue-board.remove-job", "job probe-board-audit in queue system"],
      ["PUT", "/api/queues/pause", "queue-board.pause-all", "all queues"],
      ["PUT", "/api/queues/resume", "queue-board.resume-all", "all queues"],
    ];
    for (const [method, path] of steps) {
      const res = await call(method, path);
      expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(400);
      await res.arrayBuffer();
    }
    const entries = (await trail()).reverse();
    expect(entries.map((e) => [e.action, e.target])).toEqual(steps.map(([, , action, target]) => [action, target]));
    for (const e of entries) expect(e).toMatchObject({ operator: "queue boss", token: "board script" });
  });

  it("reads are not recorded; a write bull-board refuses (an unknown job) is not either", async () => {
    expect((await call("GET", "/api/queues")).status).toBe(200);
    const res = await call("PUT", "/api/queues/system/no-such-job/clean");
    expect(res.status).toBeGreaterThanOrEqual(400);
    await res.arrayBuffer();
    expect(await trail()).toEqual([]);
  });

  it("names every write path bull-board serves", () => {
    expect(boardWriteOf("PATCH", "/api/queues/system/7/update-data")).toMatchObject({ action: "queue-board.update-job-data", target: "job 7 in queue system" });
    expect(boardWriteOf("PUT", "/api/queues/system/7/retry/failed")).toMatchObject({
      action: "queue-board.retry-job",
      target: "job 7 in queue system (failed)",
    });
    expect(boardWriteOf("PUT", "/api/queues/system/empty")).toMatchObject({ action: "queue-board.empty", target: "queue system" });
    expect(boardWriteOf("GET", "/api/redis/stats")).toBeNull();
  });
});
