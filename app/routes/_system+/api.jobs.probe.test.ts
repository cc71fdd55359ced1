/**
 * POST /api/jobs/probe (issue "Foundation", item 6: a probe job operators can trigger to
 * check the pipeline). Real Redis (this file's QUEUE_PREFIX) and database.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema";
import { getEnv } from "~/utils/env.server";
import { getQueue } from "~/queue/queues.server";
import { deleteKeys, waitFor } from "#jobs/test-helpers";
import { startWorkers } from "#jobs/worker";
import { action, loader } from "./api.jobs.probe";
import { apiArgs, errorBody } from "#tests/kit/api";

const url = "http://localhost/api/jobs/probe";
const args = (request: Request) => apiArgs(request);

async function post(body: string | undefined, headers: Record<string, string> = { "Content-Type": "application/json" }) {
  const res = (await action(await args(new Request(url, { method: "POST", headers, body })))) as Response;
  return { status: res.status, body: await res.json() };
}

beforeEach(async () => {
  await getQueue("system").obliterate({ force: true });
});
afterAll(async () => {
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

describe("POST /api/jobs/probe: bad input answers 4xx { error }", () => {
  it.each([
    ["a negative ms", '{"ms":-1}', "ms: must be a whole number of milliseconds from 0 to 60000"],
    ["ms above 60000", '{"ms":60001}', "ms: must be a whole number of milliseconds from 0 to 60000"],
    ["a fractional ms", '{"ms":1.5}', "ms: must be a whole number of milliseconds from 0 to 60000"],
    ["ms as a string", '{"ms":"100"}', "ms: must be a whole number of milliseconds from 0 to 60000"],
    ["a key with ':'", '{"key":"a:b"}', "key: must be 1-64 letters, digits, '-' or '_'"],
    ["an over-long key", JSON.stringify({ key: "k".repeat(65) }), "key: must be 1-64 letters, digits, '-' or '_'"],
    ["an unknown field", '{"ms":5,"queue":"stalker"}', "Unknown field: queue"],
    ["an array", "[1]", "Body must be a JSON object"],
    ["null", "null", "Body must be a JSON object"],
    ["malformed JSON", '{"ms":', "Malformed JSON body"],
  ])("400 for %s", async (_label, body, error) => {
    expect(await post(body)).toEqual({ status: 400, body: errorBody(error) });
    expect(await getQueue("system").count()).toBe(0);
  });

  it("415 for a body that is not JSON", async () => {
    const res = await post("ms=5", { "Content-Type": "application/x-www-form-urlencoded" });
    expect(res).toEqual({ status: 415, body: errorBody("Content-Type must be application/json") });
  });

  it("405 JSON for GET and PUT", async () => {
    const get = (await loader(await args(new Request(url)))) as Response;
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
    expect(await get.json()).toEqual(errorBody("Method not allowed (use POST)"));
    const put = (await action(await args(new Request(url, { method: "PUT", body: "{}" })))) as Response;
    expect(put.status).toBe(405);
  });
});

describe("POST /api/jobs/probe: enqueues a probe", () => {
  it("202 with the job id; an empty body means the default 1000 ms", async () => {
    const { status, body } = await post(undefined, {});
    expect(status).toBe(202);
    expect(body).toEqual({ jobId: expect.stringMatching(/^probe-[0-9a-f-]{36}$/), queue: "system", name: "probe", ms: 1000, state: "waiting" });
    const job = await getQueue("system").getJob(body.jobId);
    expect(job?.data).toEqual({ kind: "probe", ms: 1000 });
  });

  it("the same key twice gives one job (idempotent job id)", async () => {
    const a = await post('{"ms":10,"key":"nightly-check"}');
    const b = await post('{"ms":20,"key":"nightly-check"}');
    expect(a.status).toBe(202);
    expect(b).toEqual({ status: 202, body: { ...a.body } });
    expect(a.body.jobId).toBe("probe-nightly-check");
    expect(await getQueue("system").count()).toBe(1);
  });

  it("a worker runs it and System Logs get 'Probe job <id> completed'", async () => {
    const pool = startWorkers({ mode: "in-process" });
    try {
      const { body } = await post('{"ms":100}');
      const db = await getDb();
      const rows = await waitFor("completion log row", async () => {
        const found = await db
          .select()
          .from(logs)
          .where(eq(logs.message, `Probe job ${body.jobId} completed`));
        return found.length ? found : undefined;
      });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ type: "debug", source: "system" });
    } finally {
      await pool.close(5_000);
    }
  });
});
