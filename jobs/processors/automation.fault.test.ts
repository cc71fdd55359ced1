/**
 * Collections Auto cycles when worker processes die (issue 18 item 6 "Cycle control";
 * docs/collections.md "Exactly once"). Real worker child processes SIGKILL themselves at
 * points of a cycle (`COLLECTIONS_TEST_CRASH`, test only), a new worker is started each time
 * one dies, real Redis, the Galaxy simulator. Checked in the Activity Log and the simulator's
 * inventories: every line of a cycle written exactly once, every gift moved exactly once.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAuto } from "~/models/automation.server";
import { getState, listActivity } from "~/models/collections.server";
import { getQueue } from "../../app/queue/queues.server";
import { spawnWorker, waitFor } from "../test-helpers";
import type { CrashPoint } from "./automation";
import { FAST_STALL, SCALE, automationTestbed } from "./automation-test-kit";

const bed = automationTestbed();
const { start, pieces, requestsOf, sentIds, setup, finished } = bed;

let crashDir: string;
beforeAll(() => {
  crashDir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-crash-"));
});
afterAll(() => {
  fs.rmSync(crashDir, { recursive: true, force: true });
});

/**
 * Worker processes one after another: whenever one dies, the next starts at once (it picks the
 * killed worker's jobs up when their lock expires), until `stop()`.
 */
function supervise(env: Record<string, string>) {
  let stopped = false;
  let deaths = 0;
  const startOne = () => {
    // A job in flight at every kill must not run out of stalls (JOB_MAX_STALLED_COUNT).
    const w = spawnWorker({
      ...FAST_STALL,
      JOB_MAX_STALLED_COUNT: "50",
      COLLECTIONS_TIME_SCALE: String(SCALE),
      GALAXY_SERVICES_URL: bed.sim.servicesUrl,
      ...env,
    });
    bed.children.push(w);
    void w.exited.then((exit) => {
      if (exit.signal === "SIGKILL") deaths++;
      if (!stopped) startOne();
    });
  };
  startOne();
  return {
    deaths: () => deaths,
    output: () => bed.children.map((c) => c.output()).join("\n---\n"),
    async stop() {
      stopped = true;
      const alive = bed.children.filter((c) => c.child.exitCode === null && c.child.signalCode === null);
      for (const c of alive) c.child.kill("SIGTERM");
      await Promise.all(alive.map((c) => c.exited));
    },
  };
}

describe("a worker SIGKILLed at any point of a cycle (issue 18 item 6)", () => {
  it("writes each Activity Log line once and moves each gift once, wherever the worker died", async () => {
    // [point, sender index]; the second send chunk's points go to senders whose stock alone
    // fills two chunks (a kill may interrupt anyone's mastic run, which is then not repeated).
    const points: Array<[`${CrashPoint}${"" | ":1"}`, number]> = [
      ["before-mastic", 0],
      ["after-mastic", 1],
      ["before-send", 2],
      ["after-send", 3],
      ["before-send:1", 8],
      ["after-send:1", 9],
      ["after-send-log", 4],
      ["after-complete", 5],
    ];
    const runs = await Promise.all(
      points.map(async ([point, index]) => {
        const { op, sender, recipient } = await setup(index, 11, `crash-${point}`);
        return { point, op, sender, recipient, stock: pieces(sender.id) };
      }),
    );
    for (const r of runs.filter((x) => x.point.endsWith(":1"))) expect(r.stock.length).toBeGreaterThan(50);
    const recipient = runs[0]!.recipient;
    const recipientBefore = pieces(recipient.id);
    // Each point fires once, for its own account; the kill takes every cycle in flight with it.
    const workers = supervise({
      COLLECTIONS_TEST_CRASH: runs.map((r) => `${r.point}@${r.sender.id}`).join(","),
      COLLECTIONS_TEST_CRASH_DIR: crashDir,
    });
    // A kill ends every step in flight for good (a mastic run is not repeated; an interrupted
    // send resumes as a new first chunk), so on a loaded machine a kill can take another run's
    // point away before it is reached. The runs start one after another, each once the one
    // before has been killed at its point: no kill can come before a later run's point.
    try {
      for (const r of runs) {
        await startAuto(r.op.id, { repeat: 2, intervalSeconds: 5 });
        const marker = path.join(crashDir, `${r.point}@${r.sender.id}`);
        // The simulator keeps its latest 500 requests: collect them while waiting too.
        await waitFor(`the ${r.point} kill\n${workers.output()}`, () => (bed.collect(), fs.existsSync(marker)), 120_000, 50);
      }

      // Eight kills, each followed by a worker start and a stall check: minutes on a loaded machine.
      await waitFor(
        `every Auto run to finish\n${workers.output()}`,
        async () => {
          bed.collect();
          for (const r of runs) {
            const s = await getState(r.op.id);
            if (s.auto || s.runCount !== 2) return false;
          }
          return true;
        },
        240_000,
        200,
      );
    } finally {
      // Also on a failure: a worker left running would take the next tests' jobs.
      await workers.stop();
    }
    expect(fs.readdirSync(crashDir).sort()).toEqual(runs.map((r) => `${r.point}@${r.sender.id}`).sort());
    expect(workers.deaths()).toBe(points.length);

    let allSent: number[] = [];
    for (const r of runs) {
      const log = await listActivity(r.op.id, 50);
      const texts = log.map((e) => e.message);
      const sends = texts.filter((m) => m.startsWith("Sent "));
      const ids = sentIds(requestsOf(r.sender.id));
      allSent = allSent.concat(ids);
      // A cycle taken back mid-way says so once (issue 29), whichever run's kill took its worker;
      // this run's own kill (unless after its cycle completed) took at least one.
      const moved: string[] = texts.filter((m) => /^Cycle \d of 2: worker lost or cut off; continuing on another worker$/.test(m));
      expect(new Set(moved).size, r.point).toBe(moved.length);
      if (r.point !== "after-complete") expect(moved.length, r.point).toBeGreaterThanOrEqual(1);
      // Exactly the lines of two cycles, newest first; a send line for each cycle that sent.
      expect(
        texts.filter((m) => !m.startsWith("Sent ") && !moved.includes(m)),
        r.point,
      ).toEqual(["Auto finished: 2 of 2 cycles", "Cycle 2 of 2: cycle completed", "Cycle 1 of 2: cycle completed", "Auto on: 2 cycles every 5 s"]);
      expect(
        log.every((e) => e.status === "success" || moved.includes(e.message)),
        r.point,
      ).toBe(true);
      expect(sends.length, r.point).toBeLessThanOrEqual(2);
      for (const m of sends) expect(m, r.point).toMatch(new RegExp(`^Sent \\d+ gifts to user ${recipient.id}$`));
      // The send lines add up to what moved: none missing, none written twice.
      expect(
        sends.reduce((n, m) => n + Number(/^Sent (\d+)/.exec(m)![1]), 0),
        r.point,
      ).toBe(ids.length);
      expect(new Set(ids).size, r.point).toBe(ids.length);
      expect(ids.length, r.point).toBeGreaterThanOrEqual(r.stock.length);
      expect(pieces(r.sender.id), r.point).toEqual([]);
      // An interrupted mastic run is never repeated: at most 16 requests per cycle.
      expect(requestsOf(r.sender.id).filter((q) => q.action === "collection_mastic_ajax").length, r.point).toBeLessThanOrEqual(32);
    }
    // Every gift reached the recipient once.
    expect(new Set(allSent).size).toBe(allSent.length);
    expect(pieces(recipient.id).sort()).toEqual([...recipientBefore, ...allSent].sort());
  }, 300_000);
});

describe("a gift is never sent twice (issue 12: a worker SIGKILLed mid-cycle)", () => {
  it.each([
    ["after-send", "right after the platform accepted the send, before it was recorded"],
    ["before-send", "after the intent was recorded, before the send call"],
  ])(
    "worker killed %s (%s): the next worker finishes the cycle, each gift moved exactly once",
    async (crash) => {
      const { op, sender, recipient } = await setup(crash === "after-send" ? 4 : 5, 6);
      const stock = pieces(sender.id, 178);
      const recipientBefore = pieces(recipient.id, 178);
      const first = start({ COLLECTIONS_TEST_CRASH: crash });
      await startAuto(op.id, { repeat: 1, intervalSeconds: 5 });
      const exit = await first.exited;
      expect(exit.signal, first.output()).toBe("SIGKILL");
      const sentByFirst = sentIds(requestsOf(sender.id));
      expect(sentByFirst).toHaveLength(crash === "after-send" ? Math.min(stock.length + 16, 50) : 0);

      const second = start();
      await finished(op.id, second.output);
      const all = sentIds(requestsOf(sender.id));
      expect(new Set(all).size).toBe(all.length); // no id in two sends
      expect(requestsOf(sender.id).filter((r) => r.action === "present_make")).toHaveLength(Math.ceil((stock.length + 16) / 50));
      expect(all).toHaveLength(stock.length + 16);
      expect(pieces(sender.id, 178)).toEqual([]);
      const got = pieces(recipient.id, 178);
      expect(new Set(got).size).toBe(got.length);
      expect(got.sort()).toEqual([...recipientBefore, ...all].sort());
      // Mastic ran once: the re-run did not repeat it.
      expect(requestsOf(sender.id).filter((r) => r.action === "collection_mastic_ajax")).toHaveLength(16);

      const s = await getState(op.id);
      expect(s.runCount).toBe(1);
      expect((await listActivity(op.id, 20)).map((e) => e.message)).toContain("Cycle 1 of 1: cycle completed");
      // BullMQ marks the job completed a Redis round trip after its handler returned (the cycle's
      // rows say done before that): a CI run on a loaded machine read the list before it.
      const job = await waitFor(
        "the cycle's job completed",
        async () => (await getQueue("automation").getJobs(["completed"])).find((j) => j.data.operatorId === op.id),
        15_000,
        50,
      );
      expect(job.attemptsStarted).toBe(2);
      expect(job.stalledCounter).toBe(1);
      second.child.kill("SIGTERM");
      await second.exited;
    },
    90_000,
  );
});
