import { describe, expect, it } from "vitest";
import { TRADING_ERRORS } from "#api/trading";
import { planetEntries, planetTypeLabel, PLANET_TYPES } from "#api/planets";
import { insertAt } from "./ads-manager";
import { applyOp, draftOf, readSequenceForm, validateDraft } from "./sequence-draft";

function form(fields: [string, string][]) {
  const fd = new FormData();
  for (const [k, v] of fields) fd.append(k, v);
  return fd;
}

describe("sequence form rules (spec 2 §5, §9)", () => {
  it("a new draft has the §9 defaults: seconds 6, closed 51, open 15, active", () => {
    expect(draftOf()).toEqual({ name: "", isActive: true, steps: [], seconds: "6", closedPlanetsLevel: "51", openPlanetsLevel: "15" });
  });

  it("§5 messages: name, at least one planet, seconds non-negative", () => {
    expect(validateDraft({ ...draftOf(), name: " " })).toMatchObject({ name: TRADING_ERRORS.sequenceName, sequence: TRADING_ERRORS.sequencePlanets });
    const one = applyOp({ ...draftOf(), name: "A" }, "add");
    expect(validateDraft(one)).toEqual({});
    expect(validateDraft({ ...one, seconds: "-1" }).seconds).toBe(TRADING_ERRORS.sequenceSeconds);
    expect(validateDraft({ ...one, seconds: "abc" }).seconds).toBe(TRADING_ERRORS.sequenceSeconds);
    // Issue 19 item 10: 2.5 is not negative; say what is wrong with it.
    expect(validateDraft({ ...one, seconds: "2.5" }).seconds).toBe("Seconds must be a whole number");
    expect(validateDraft({ ...one, seconds: "1000" }).seconds).toBe("Seconds must be at most 999");
    expect(validateDraft({ ...one, seconds: "999" })).toEqual({});
    expect(validateDraft({ ...one, seconds: "0" })).toEqual({});
  });

  it("ops add, move and remove planets (the no-JavaScript round trip)", () => {
    let d = applyOp(applyOp(draftOf(), "add"), "add");
    d = { ...d, steps: [d.steps[0]!, { ...d.steps[1]!, planetType: "russian" }] };
    const moved = applyOp(d, "up:1");
    expect(moved.steps.map((s) => s.planetType)).toEqual(["russian", "ring"]);
    expect(applyOp(moved, "remove:0").steps.map((s) => s.planetType)).toEqual(["ring"]);
    expect(applyOp(moved, "up:0").steps).toEqual(moved.steps);
  });

  it("reads the posted form: steps in order with their shuffle checkboxes", () => {
    const parsed = readSequenceForm(
      form([
        ["name", " Run "],
        ["isActive", "on"],
        ["stepId", "a"],
        ["planetType", "ring"],
        ["shuffle-a", "on"],
        ["stepId", "b"],
        ["planetType", "russian"],
        ["seconds", "6"],
        ["closedPlanetsLevel", "51"],
        ["openPlanetsLevel", "15"],
      ]),
    );
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && parsed.value).toEqual({
      name: "Run",
      isActive: true,
      sequence: [
        { id: "a", planetType: "ring", shuffle: true },
        { id: "b", planetType: "russian", shuffle: false },
      ],
      seconds: 6,
      closedPlanetsLevel: 51,
      openPlanetsLevel: 15,
    });
  });
});

describe("planet type catalogue (spec 2 §3; names are our assumption, docs/trading-planets.md)", () => {
  it("has russian (0), ring (15), cannon (35), bowling (30), english (2) and adds custom english planets", () => {
    expect(PLANET_TYPES).toEqual(["russian", "ring", "cannon", "bowling", "english"]);
    expect(PLANET_TYPES.map((t) => planetTypeLabel(t))).toEqual(["russian (0)", "ring (15)", "cannon (35)", "bowling (30)", "english (2)"]);
    const custom = [
      { _id: "1", name: "Hall", type: "english" as const },
      { _id: "2", name: "Spam", type: "blacklisted" as const },
    ];
    expect(planetEntries("english", custom)).toHaveLength(3);
    expect(planetTypeLabel("ring", custom)).toBe("ring (15)");
  });
});

describe("quick insert at the caret (spec 2 §2 ads manager)", () => {
  it("inserts at the caret or over the selection and moves the caret after the token", () => {
    expect(insertAt("Sell  now", "🚀", 5, 5)).toEqual({ text: "Sell 🚀 now", caret: 7 });
    expect(insertAt("abc", "X", 1, 2)).toEqual({ text: "aXc", caret: 2 });
    expect(insertAt("abc", "X", 99, 99)).toEqual({ text: "abcX", caret: 4 });
  });
});
