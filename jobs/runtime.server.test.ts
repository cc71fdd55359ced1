/**
 * The operators' queue board (issue "Foundation", item 6: "A queue dashboard for operators
 * behind the login"): bull-board with every queue. The login gate in front of it is the
 * auth helper's Express middleware; the Redis-down 503 page is in offline.server.test.ts.
 */
import http from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEnv } from "~/utils/env.server";
import { QUEUE_NAMES, enqueue } from "../app/queue/queues.server";
import { mountQueueBoard } from "./runtime.server";
import { resetJobEngineStatus } from "../app/queue/status.server";
import { deleteKeys } from "./test-helpers";

let server: http.Server;
let base: string;
beforeAll(async () => {
  resetJobEngineStatus();
  const app = express();
  await mountQueueBoard(app, "/admin/queues");
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

describe("queue board at /admin/queues", () => {
  it("serves the bull-board page under the base path", async () => {
    const res = await fetch(`${base}/admin/queues`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Galaxy Toolbox jobs");
    expect(html).toContain('<base href="/admin/queues/" />');
    // No third-party font request (the app's CSP would block it and log an error).
    expect(html).not.toContain("fonts.googleapis.com");
    // …and its script bundle, relative to that base.
    const script = html.match(/src="(static\/js\/main\.[^"]+\.js)"/)![1];
    const asset = await fetch(`${base}/admin/queues/${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
  });

  it("lists every queue, with the jobs waiting in it", async () => {
    await enqueue(
      "bulk-refresh",
      { kind: "refresh", section: "bowling", skipCache: true, requestedAt: new Date().toISOString() },
      { jobId: "bowling-refresh-board" },
    );
    const res = await fetch(`${base}/admin/queues/api/queues?activeQueue=bulk-refresh&status=waiting&page=1`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      queues: { name: string; description: string; counts: Record<string, number>; jobs: { id: string; name: string }[] }[];
    };
    expect(body.queues.map((q) => q.name).sort()).toEqual([...QUEUE_NAMES].sort());
    const bulk = body.queues.find((q) => q.name === "bulk-refresh")!;
    expect(bulk.description).toMatch(/Bulk refreshes/);
    expect(bulk.counts.waiting).toBe(1);
    expect(bulk.jobs.map((j) => [j.id, j.name])).toEqual([["bowling-refresh-board", "refresh"]]);
  });
});
