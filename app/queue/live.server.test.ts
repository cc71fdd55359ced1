/**
 * awaitLive (issue 30 C3): a request that waits for a worker reads the database when a
 * matching live event comes (and once at its deadline), never on a timer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEnv } from "~/utils/env.server";
import { awaitLive, closeLive, liveBusUp, onLive, publishLive } from "./live.server";
import { deleteKeys, waitFor } from "../../jobs/test-helpers";

beforeAll(async () => {
  const off = onLive(() => {});
  await waitFor("the bus subscribed", () => liveBusUp(), 5_000, 20);
  off();
});
afterAll(async () => {
  await closeLive();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

describe("awaitLive", () => {
  it("checks at once, then only on matching events; answers the first value that is not undefined", async () => {
    let reads = 0;
    let ready = false;
    const waiting = awaitLive(
      (m) => m.topic === "command" && m.key === "7",
      async () => {
        reads++;
        return ready ? "done" : undefined;
      },
      15_000,
    );
    await waitFor("the first read", () => reads === 1, 5_000, 10);
    ready = true; // the worker wrote its answer, but said nothing yet
    publishLive("command", { key: "8" }); // someone else's answer
    publishLive("galacord");
    await new Promise((r) => setTimeout(r, 300));
    expect(reads).toBe(1);
    publishLive("command", { key: "7" });
    expect(await waiting).toBe("done");
    expect(reads).toBe(2);
  });

  it("gives up at the deadline after one last read; a throwing read rejects", async () => {
    let reads = 0;
    expect(
      await awaitLive(
        () => false,
        async () => {
          reads++;
          return undefined;
        },
        200,
      ),
    ).toBeUndefined();
    expect(reads).toBe(2); // now, and at the deadline
    await expect(
      awaitLive(
        () => true,
        async () => {
          throw new Error("database away");
        },
        5_000,
      ),
    ).rejects.toThrow("database away");
  });
});
