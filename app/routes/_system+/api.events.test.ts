/**
 * GET /api/events (issue 18 "Live pages"; api/live.ts): the tab's event stream, fed through
 * Redis. Real Redis (this file's QUEUE_PREFIX): an event published on another connection, as
 * a worker process would, reaches the stream; per-operator events reach only their operator.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { liveMatches } from "#api/live";
import { closeLive, liveChannel, liveFlushed, liveSeq, publishLive } from "~/queue/live.server";
import { deleteKeys, waitFor } from "#jobs/test-helpers";
import { getEnv } from "~/utils/env.server";
import { apiArgs, errorBody } from "#tests/kit/api";
import { createTestApiToken, createTestOperator } from "#tests/kit/auth";
import { loader, action } from "./api.events";

const url = "http://localhost/api/events";

afterAll(async () => {
  await closeLive();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

/** Opens the stream and collects its SSE frames until `abort()`. */
async function openStream(request: Request) {
  const controller = new AbortController();
  const res = (await loader({ request: new Request(request, { signal: controller.signal }), params: {}, context: {} })) as Response;
  const frames: { event: string; data: unknown }[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const pump = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event) frames.push({ event, data: data ? JSON.parse(data) : null });
      }
    }
  })();
  return {
    res,
    frames,
    async close() {
      controller.abort();
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}

describe("GET /api/events", () => {
  it("answers an event stream that the compression middleware leaves alone", async () => {
    const s = await openStream(await withAuth());
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get("Content-Type")).toBe("text/event-stream; charset=utf-8");
    expect(s.res.headers.get("Cache-Control")).toContain("no-transform");
    await s.close();
  });

  it("says ready, then delivers an event published by another process", async () => {
    const s = await openStream(await withAuth());
    await waitFor("ready", () => s.frames.some((f) => f.event === "ready"), 5_000, 20);
    // Published on a connection of its own, as a worker process does.
    const other = new Redis(getEnv().REDIS_URL);
    const sent = Date.now();
    await other.publish(liveChannel(), JSON.stringify({ topic: "session", scope: "stalker", key: "12345678", at: sent, data: { actual: "failed" } }));
    const got = await waitFor("the event", () => s.frames.find((f) => f.event === "live"), 10_000, 10);
    expect(got.data).toEqual({ topic: "session", scope: "stalker", key: "12345678", at: sent, data: { actual: "failed" } });
    other.disconnect();
    await s.close();
  });

  it("delivers an operator's own events only to that operator", async () => {
    const alice = await createTestOperator({ name: "alice-live" });
    const bob = await createTestOperator({ name: "bob-live" });
    const a = await openStream(tokenRequest(await createTestApiToken(alice.id)));
    const b = await openStream(tokenRequest(await createTestApiToken(bob.id)));
    await waitFor("both ready", () => a.frames.some((f) => f.event === "ready") && b.frames.some((f) => f.event === "ready"), 5_000, 20);
    publishLive("collections", { scope: alice.id, operatorId: alice.id });
    publishLive("refresh", { scope: "bowling" });
    await waitFor("bob gets the shared event", () => b.frames.some((f) => f.event === "live"), 10_000, 10);
    await waitFor("alice gets both", () => a.frames.filter((f) => f.event === "live").length === 2, 10_000, 10);
    expect(b.frames.filter((f) => f.event === "live").map((f) => (f.data as { topic: string }).topic)).toEqual(["refresh"]);
    // The operator id itself never travels to the browser.
    expect(a.frames.some((f) => f.event === "live" && "operatorId" in (f.data as object))).toBe(false);
    await a.close();
    await b.close();
  });

  it("docs/live.md 'The first ready': opened with `since` (the sequence its page was rendered at), the first ready says whether anything was published since; without it, ready only", async () => {
    publishLive("logs");
    await liveFlushed();
    const at = await liveSeq();
    expect(at).toEqual(expect.any(Number));
    const firstReady = async (s: Awaited<ReturnType<typeof openStream>>) =>
      (await waitFor("ready", () => s.frames.find((f) => f.event === "ready"), 5_000, 20)).data;

    const quiet = await openStream(await withAuth(`${url}?since=${at}`));
    expect(await firstReady(quiet)).toMatchObject({ missed: false });
    // Every publish counts: a page rendered before it has missed it.
    publishLive("logs");
    await liveFlushed();
    expect(await liveSeq()).toBe(at! + 1);
    const behind = await openStream(await withAuth(`${url}?since=${at}`));
    expect(await firstReady(behind)).toMatchObject({ missed: true });
    const now = await openStream(await withAuth(`${url}?since=${at! + 1}`));
    expect(await firstReady(now)).toMatchObject({ missed: false });
    // No sequence (a page loaded on the client): the page catches up as ever.
    const plain = await openStream(await withAuth());
    expect(await firstReady(plain)).not.toHaveProperty("missed");
    await Promise.all([quiet.close(), behind.close(), now.close(), plain.close()]);
    // One that is not a count is refused, no stream opened.
    for (const bad of ["abc", "-1", "1.5", ""]) {
      const res = (await loader(await apiArgs(new Request(`${url}?since=${bad}`)))) as Response;
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toEqual(errorBody("since must be a whole number of at least 0"));
    }
  });

  it("401 JSON without credentials; 405 for POST", async () => {
    const res = (await loader({ request: new Request(url), params: {}, context: {} })) as Response;
    expect(res.status).toBe(401);
    const post = (await action(await apiArgs(new Request(url, { method: "POST", body: "{}" })))) as Response;
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual(errorBody("Method not allowed (use GET)"));
  });
});

describe("liveMatches", () => {
  it("matches topic, scope and key parts, * for any", () => {
    const e = { topic: "session" as const, scope: "stalker", key: "1" };
    expect(liveMatches(e, ["session"])).toBe(true);
    expect(liveMatches(e, ["session:stalker"])).toBe(true);
    expect(liveMatches(e, ["session:*:1"])).toBe(true);
    expect(liveMatches(e, ["session:trader"])).toBe(false);
    expect(liveMatches(e, ["refresh", "session:stalker:2"])).toBe(false);
  });
});

async function withAuth(address = url) {
  return (await apiArgs(new Request(address))).request;
}

function tokenRequest(token: string) {
  return new Request(url, { headers: { Authorization: `Bearer ${token}` } });
}
