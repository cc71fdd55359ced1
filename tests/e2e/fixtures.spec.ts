import { SIM_URL } from "./characters-fixtures";
import { expect, test } from "./fixtures";

/** The journeys' own fixtures (tests/e2e/fixtures.ts): what they promise the journeys that use them. */

const faults = async () => ((await (await fetch(`${SIM_URL}/__sim/faults`)).json()) as { faults: Record<string, unknown> }).faults;

test.describe.serial("simFaults puts the simulator's faults back when a journey ends", () => {
  let before: Record<string, unknown>;

  test("a journey that fails with faults set (expected to fail)", async ({ simFaults }) => {
    test.fail();
    before = await faults();
    await simFaults({ latencyMs: 1234, failAccounts: ["1"], loginCode: 451 });
    expect(await faults()).toMatchObject({ latencyMs: 1234, failAccounts: ["1"], loginCode: 451 });
    throw new Error("the journey fails here");
  });

  test("the next journey in the world finds them as they were", async () => {
    expect(await faults()).toEqual(before);
  });
});
