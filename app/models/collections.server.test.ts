/**
 * The Activity Log's cycle entries (spec 2 §9): an in-progress entry moves on and finishes once;
 * a finished one is never rewritten. A worker cut off from Redis, still reaching the database,
 * once turned the cycle another worker had completed into "stopped after send (Auto off)"
 * (jobs/processors/automation.fence.test.ts, docs/testing.md "Issue 32 item 7", eleventh session).
 */
import { describe, expect, it } from "vitest";
import { createTestOperator } from "#tests/kit";
import { addActivity, finishActivity, listActivity } from "./collections.server";

describe("finishActivity", () => {
  it("moves an in-progress entry on and finishes it; a finished entry keeps its end", async () => {
    const op = await createTestOperator({ name: "activity-entries" });
    const entry = await addActivity(op.id, "in-progress", "Cycle 1 of 1: mastic");
    expect(await finishActivity(entry, "in-progress", "Cycle 1 of 1: sending gifts")).toBe(true);
    expect(await finishActivity(entry, "success", "Cycle 1 of 1: cycle completed")).toBe(true);
    // The late writer: refused, and the entry says what happened.
    expect(await finishActivity(entry, "stopped", "Cycle 1 stopped after send (Auto off)")).toBe(false);
    expect(await finishActivity(entry, "in-progress", "Cycle 1 of 1: sending gifts")).toBe(false);
    const [shown] = await listActivity(op.id, 5);
    expect(shown).toMatchObject({ status: "success", message: "Cycle 1 of 1: cycle completed" });
  });
});
