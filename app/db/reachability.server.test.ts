/**
 * The database breaker's verdict (decision 0029; issue 29's 1,000-session failover): a probe
 * that times out while queries keep getting answers is load, not an outage. On a worker logging
 * in hundreds of sessions at once the server's start-up of a fresh connection took > 700 ms; the
 * breaker called the database down, discarded the pool and failed every session's writes for
 * ~10 s. A partition answers nothing, so it is still called down at the first probe.
 */
import { afterEach, describe, expect, it } from "vitest";
import { attachDbBreaker, DB_TIMEOUTS, dbReachability, detachDbBreaker, noteDbAnswer, reportDbUnreachable } from "./reachability.server";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A probe that gives up after `ms` like probePostgres does (node-postgres' timeout text). */
const timingOutProbe = (ms: number) => () => sleep(ms).then(() => Promise.reject(new Error("Query read timeout")));

afterEach(() => detachDbBreaker());

describe("database breaker: load or outage", () => {
  it("a probe that times out while other queries get answers leaves the database up, nothing discarded", async () => {
    let discarded = 0;
    attachDbBreaker({ probe: timingOutProbe(60), discard: () => void discarded++ });
    reportDbUnreachable(new Error("a query got no answer within 700 ms"));
    await sleep(30);
    noteDbAnswer(); // a query of the pool got its answer meanwhile
    await sleep(80);
    expect(dbReachability()).toEqual({ up: true });
    expect(discarded).toBe(0);
  });

  it("a probe that times out with no answer anywhere (a partition) marks it down and discards the pool", async () => {
    let discarded = 0;
    noteDbAnswer(); // answers before the suspicion do not count
    await sleep(5);
    const timeouts: (number | undefined)[] = [];
    attachDbBreaker({
      probe: (ms) => (timeouts.push(ms), timingOutProbe(40)()),
      discard: () => void discarded++,
    });
    reportDbUnreachable(new Error("a query got no answer within 700 ms"));
    await sleep(60);
    // The first probe's timeout alone is no verdict: a longer one confirms it.
    expect(dbReachability()).toEqual({ up: true });
    await sleep(100);
    expect(timeouts).toEqual([undefined, DB_TIMEOUTS.confirmMs]);
    expect(dbReachability()).toMatchObject({ up: false });
    expect(discarded).toBe(1);
  });

  it("a probe that times out on a loaded server whose longer confirmation answers leaves it up (CI at load 20)", async () => {
    let discarded = 0;
    let calls = 0;
    attachDbBreaker({
      probe: () => (++calls === 1 ? timingOutProbe(30)() : sleep(60).then(() => {})),
      discard: () => void discarded++,
    });
    reportDbUnreachable(new Error("a query got no answer within 700 ms"));
    await sleep(150);
    expect(calls).toBe(2);
    expect(dbReachability()).toEqual({ up: true });
    expect(discarded).toBe(0);
  });

  it("a refused probe marks it down even while old connections answered (the server is going away)", async () => {
    attachDbBreaker({
      probe: () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
      discard: () => {},
    });
    reportDbUnreachable(new Error("Connection terminated unexpectedly"));
    noteDbAnswer();
    await sleep(20);
    expect(dbReachability()).toMatchObject({ up: false, error: expect.stringContaining("Connection terminated") });
  });
});

/**
 * A verdict belongs to the handle that reached it. In CI a test file's first query failed with
 * "The database is unreachable": a handle the file before had opened (its open failed, or its
 * database was dropped under it) had called the database down and kept probing a database that
 * no longer existed, every second; the next handle inherited the verdict. And a check still
 * under way when its handle closed kept the next handle's suspicions from being checked at all.
 */
describe("database breaker: one handle's verdict is not the next one's", () => {
  it("a new handle starts up, and the old handle's probes stop", async () => {
    let oldProbes = 0;
    attachDbBreaker({
      probe: () => (oldProbes++, Promise.reject(Object.assign(new Error('database "gone" does not exist'), { code: "3D000" }))),
      discard: () => {},
    });
    reportDbUnreachable(new Error("terminating connection due to administrator command"));
    await sleep(20);
    expect(dbReachability()).toMatchObject({ up: false });

    attachDbBreaker({ probe: () => Promise.resolve(), discard: () => {} });
    expect(dbReachability()).toEqual({ up: true });
    const seen = oldProbes;
    await sleep(DB_TIMEOUTS.probeEveryMs + 300);
    expect(oldProbes).toBe(seen);
    expect(dbReachability()).toEqual({ up: true });
  });

  it("a check still under way when its handle went does not hold up the next handle's", async () => {
    attachDbBreaker({ probe: () => sleep(400).then(() => {}), discard: () => {} });
    reportDbUnreachable(new Error("a query got no answer within 700 ms"));
    detachDbBreaker();

    attachDbBreaker({
      probe: () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
      discard: () => {},
    });
    reportDbUnreachable(new Error("Connection terminated unexpectedly"));
    await sleep(20);
    expect(dbReachability()).toMatchObject({ up: false, error: expect.stringContaining("Connection terminated") });
    // The old check ends now and changes nothing.
    await sleep(450);
    expect(dbReachability()).toMatchObject({ up: false });
  });
});
