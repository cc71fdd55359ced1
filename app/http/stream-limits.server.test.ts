/**
 * Issue 28 item 3 "Resource limits": "At most 20 live streams per credential and a total cap,
 * past which GET /api/events answers 429 {error,message}; the browser's own use (one per tab)
 * never hits it … Memory returns to its baseline when streams close."
 *
 * The app's gate and Remix (through @remix-run/express, as server.ts serves it) on an ephemeral
 * port, spoken to over real HTTP; the live bus on this file's Redis prefix.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { closeLive, liveListenerCount } from "~/queue/live.server";
import { deleteKeys, waitFor } from "#jobs/test-helpers";
import { createSession } from "~/models/operator.server";
import { getEnv, resetEnv } from "~/utils/env.server";
import { errorBody } from "#tests/kit/api";
import { createTestApiToken, createTestOperator, sessionCookieFor } from "#tests/kit/auth";
import { expressApp } from "#tests/kit/remix";
import { openStreams, STREAM_RETRY_AFTER_S, tooManyForCredential, tooManyForOperator, tooManyOnServer } from "./stream-limits.server";

v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

let server: http.Server;
let port: number;

beforeAll(async () => {
  // The per-credential cap stays at its default (20); the others are lowered so a test reaches them.
  Object.assign(process.env, { LIVE_STREAMS_PER_OPERATOR: "25", LIVE_STREAMS_TOTAL: "40" });
  resetEnv();
  const app = await expressApp((r) => r.file.endsWith("api.events.ts"));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await closeLive();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

const opened: http.ClientRequest[] = [];
afterEach(async () => {
  for (const req of opened.splice(0)) req.destroy();
  await waitFor("every stream released", () => openStreams().total === 0, 10_000, 20);
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; req: http.ClientRequest; body: () => Promise<string>; text: () => string };

/**
 * GET /api/events on a connection of its own. Resolves once a stream said "ready" (or, for a
 * refusal, once the answer's head is in); `req.destroy()` drops the connection as a closed tab does.
 */
function open(auth: { token?: string; cookie?: string }, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = auth.token ? { Authorization: `Bearer ${auth.token}` } : { Cookie: auth.cookie! };
    const req = http.request({ host: "127.0.0.1", port, path: "/api/events", method, headers, agent: false });
    opened.push(req);
    req.on("error", () => {});
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      const ended = new Promise<string>((r) => res.on("end", () => r(text)).on("close", () => r(text)));
      const answer: Answer = { status: res.statusCode!, headers: res.headers, req, body: () => ended, text: () => text };
      res.on("data", (chunk: string) => {
        text += chunk;
        if (text.includes("event: ready")) resolve(answer);
      });
      if (res.statusCode !== 200 || method === "HEAD") resolve(answer);
    });
    req.on("error", reject);
    req.end();
  });
}

async function openMany(n: number, auth: { token?: string; cookie?: string }) {
  const answers: Answer[] = [];
  for (let i = 0; i < n; i++) answers.push(await open(auth));
  return answers;
}

async function expectRefused(answer: Answer, text: string) {
  expect(answer.status).toBe(429);
  expect(answer.headers["retry-after"]).toBe(String(STREAM_RETRY_AFTER_S));
  expect(JSON.parse(await answer.body())).toEqual(errorBody(text));
}

describe("GET /api/events admission", () => {
  it("lets one credential hold 20 streams, refuses the 21st with 429, and counts each credential, operator and the process apart", async () => {
    const alice = await createTestOperator({ name: "alice-streams" });
    const aliceToken = await createTestApiToken(alice.id);
    const streams = await openMany(20, { token: aliceToken });
    expect(streams.every((s) => s.status === 200)).toBe(true);
    await expectRefused(await open({ token: aliceToken }), tooManyForCredential(20));

    // Another credential of the same operator: her own 20, within the operator's 25.
    const second = await createTestApiToken(alice.id, "second");
    expect((await openMany(5, { token: second })).every((s) => s.status === 200)).toBe(true);
    await expectRefused(await open({ token: second }), tooManyForOperator(25));
    // Her cookie session counts towards the same operator.
    await expectRefused(await open({ cookie: alice.cookie }), tooManyForOperator(25));

    // Another operator: the process's 40 in all.
    const bob = await createTestOperator({ name: "bob-streams" });
    expect((await openMany(15, { cookie: bob.cookie })).every((s) => s.status === 200)).toBe(true);
    expect(openStreams()).toEqual({ total: 40, credentials: 3, operators: 2 });
    await expectRefused(await open({ cookie: bob.cookie }), tooManyOnServer(40));

    // One closes: one may open again.
    streams[0]!.req.destroy();
    await waitFor("the slot back", () => openStreams().total === 39, 10_000, 20);
    expect((await open({ token: aliceToken })).status).toBe(200);
  });

  it("gives every slot, bus listener and timer back when the streams close, however they close", async () => {
    const op = await createTestOperator({ name: "closer" });
    const token = await createTestApiToken(op.id);
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = { listeners: liveListenerCount(), timers: timers() };

    const streams = await openMany(20, { token });
    expect(openStreams().total).toBe(20);
    expect(liveListenerCount().listeners).toBe(before.listeners.listeners + 20);
    // Each open stream has its heartbeat timer. Other timers come and go meanwhile (the database
    // pool's idle timers: a loaded CI run counted 19 more, not 20), so this is a sanity check with
    // room for two; what matters is below: the 20 heartbeats go with their streams.
    const during = timers();
    expect(during).toBeGreaterThanOrEqual(before.timers + 18);
    // Half end as a closed tab does (the connection goes), half as a script's aborted read (the response is destroyed).
    streams.forEach((s, i) => (i % 2 ? s.req.destroy() : s.req.socket?.destroy()));
    await waitFor("every slot back", () => openStreams().total === 0, 10_000, 20);
    expect(openStreams()).toEqual({ total: 0, credentials: 0, operators: 0 });
    await waitFor("every bus listener gone", () => liveListenerCount().listeners === before.listeners.listeners, 10_000, 20);
    expect(liveListenerCount()).toEqual(before.listeners);
    // Each stream's heartbeat timer is cleared with it.
    await waitFor("the heartbeats cleared", () => timers() <= during - 20, 10_000, 20);
  });

  it("gives the slots back after a garbage collection too (an undici Request's signal stops following once its Request is collected)", async () => {
    const op = await createTestOperator({ name: "collected" });
    const token = await createTestApiToken(op.id);
    const streams = await openMany(20, { token });
    expect(openStreams().total).toBe(20);
    // The probe's streams stayed after their clients left: the loader's Request was collected,
    // its signal never aborted, and the heartbeat kept the stream (and its slot) alive.
    for (let i = 0; i < 3; i++) {
      collectGarbage();
      await new Promise((r) => setImmediate(r));
    }
    for (const s of streams) s.req.destroy();
    await waitFor("every slot back", () => openStreams().total === 0, 10_000, 20);
    expect(liveListenerCount().listeners).toBe(0);
  });

  it("never refuses a browser: a tab reloaded 60 times reconnects each time, and a HEAD holds nothing", async () => {
    const op = await createTestOperator({ name: "reloader" });
    const cookie = await sessionCookieFor((await createSession(op.id)).token);
    // Three tabs of one browser (one cookie session), each reloaded over and over: the old stream goes as the new one comes.
    const tabs = await openMany(3, { cookie });
    for (let i = 0; i < 60; i++) {
      tabs[i % 3]!.req.destroy();
      const next = await open({ cookie });
      expect(next.status).toBe(200);
      tabs[i % 3] = next;
    }
    for (const tab of tabs) tab.req.destroy();
    await waitFor("every slot back", () => openStreams().total === 0, 10_000, 20);

    // Remix drops a HEAD answer's body unread: a stream opened for it would never end.
    for (let i = 0; i < 25; i++) expect((await open({ cookie }, "HEAD")).status).toBe(200);
    expect(openStreams().total).toBe(0);
    expect(liveListenerCount().listeners).toBe(0);
  });
});
