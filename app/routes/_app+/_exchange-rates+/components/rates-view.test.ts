import { describe, expect, it } from "vitest";
import type { RatesMap } from "#api/rates";
import { failureMessage } from "./form-rules";
import { applyRateChange, changeFromSubmission, filterGroups, pairKey, parseView, rateKindLabel, rateSummary, sortedInputs, viewToParams } from "./rates-view";
import { clampSwipe, swipeOutcome } from "./swipe";

const MAP: RatesMap = {
  "Gold Ring": {
    Clay: { _id: "1", rate: "1/2", status: true },
    "Silver Ring": {
      _id: "2",
      rates: [
        { quantity: 0, rate: "1/3" },
        { quantity: 10, rate: "1/2" },
      ],
      status: true,
    },
  },
  "Fire Cannon Ball": { "Green Light": { _id: "3", rate: 1.5, status: false } },
};

const view = { incoming: "", outgoing: "", item: "" };
const names = (m: RatesMap, v: Partial<typeof view>) => filterGroups(m, { ...view, ...v }).map((g) => [g.input, g.outputs.map((o) => o.output)]);

describe("spec 1 §2 filters", () => {
  it("match name or nick, case-insensitively, as substrings", () => {
    expect(names(MAP, { incoming: "fcb" })).toEqual([["Fire Cannon Ball", ["Green Light"]]]);
    expect(names(MAP, { incoming: "RING" })).toEqual([["Gold Ring", ["Clay", "Silver Ring"]]]);
    expect(names(MAP, { outgoing: "sr" })).toEqual([["Gold Ring", ["Silver Ring"]]]);
    expect(names(MAP, { outgoing: "gl" })).toEqual([["Fire Cannon Ball", ["Green Light"]]]);
  });
  it("the item dropdown keeps one input; groups without matching outputs go", () => {
    expect(names(MAP, { item: "Gold Ring" })).toEqual([["Gold Ring", ["Clay", "Silver Ring"]]]);
    expect(names(MAP, { item: "Gold Ring", outgoing: "light" })).toEqual([]);
    expect(filterGroups(MAP, { ...view, outgoing: "clay" })[0]!.total).toBe(2);
  });
  it("the dropdown's inputs are sorted", () => {
    expect(sortedInputs(MAP)).toEqual(["Fire Cannon Ball", "Gold Ring"]);
  });
});

describe("URL state", () => {
  it("round-trips filters, expanded rows and dialogs, keeping other params", () => {
    const params = new URLSearchParams("in=gold&out=c&item=Gold+Ring&open=Gold+Ring%7CClay&dialog=add-output&for=Gold+Ring&other=1");
    const v = parseView(params);
    expect(v).toEqual({
      incoming: "gold",
      outgoing: "c",
      item: "Gold Ring",
      page: 1,
      open: [pairKey("Gold Ring", "Clay")],
      dialog: { type: "add-output", input: "Gold Ring" },
    });
    expect(viewToParams({ ...v, dialog: null, open: [] }, params).toString()).toBe("other=1&in=gold&out=c&item=Gold+Ring");
  });
  it("keeps the page as a number (1 is written as nothing; anything but a whole number above 1 is page 1)", () => {
    const v = parseView(new URLSearchParams("out=c&page=3"));
    expect(v.page).toBe(3);
    expect(viewToParams(v).toString()).toBe("out=c&page=3");
    expect(viewToParams({ ...v, page: 1 }).toString()).toBe("out=c");
    for (const bad of ["0", "-2", "2.5", "x", ""]) expect(parseView(new URLSearchParams(`page=${bad}`)).page).toBe(1);
  });
  it("ignores dialogs it does not know and input dialogs without an input", () => {
    expect(parseView(new URLSearchParams("dialog=evil")).dialog).toBeNull();
    expect(parseView(new URLSearchParams("dialog=delete-input")).dialog).toBeNull();
  });
});

describe("display", () => {
  it("'flat' or 'N tiers', and the rates in one line", () => {
    expect(rateKindLabel(MAP["Gold Ring"]!.Clay!)).toBe("flat");
    expect(rateKindLabel(MAP["Gold Ring"]!["Silver Ring"]!)).toBe("2 tiers");
    expect(rateSummary(MAP["Gold Ring"]!["Silver Ring"]!)).toBe("≥0: 1/3 · ≥10: 1/2");
    expect(rateSummary(MAP["Fire Cannon Ball"]!["Green Light"]!)).toBe("1.5");
  });
});

describe("spec 1 §4 optimistic changes", () => {
  const fd = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };

  it("set status", () => {
    const change = changeFromSubmission(fd({ intent: "status", inputItem: "Gold Ring", outputItem: "Clay", status: "false" }))!;
    const next = applyRateChange(MAP, change);
    expect(next["Gold Ring"]!.Clay!.status).toBe(false);
    expect(MAP["Gold Ring"]!.Clay!.status).toBe(true); // never mutates
  });

  it("merge fields: tiers replace a flat rate and a single default tier becomes flat", () => {
    const tiered = applyRateChange(
      MAP,
      changeFromSubmission(
        fd({
          intent: "save",
          inputItem: "Gold Ring",
          outputItem: "Clay",
          "tiers[0].quantity": "",
          "tiers[0].rate": "1",
          "tiers[1].quantity": "5",
          "tiers[1].rate": "2",
        }),
      )!,
    );
    expect(tiered["Gold Ring"]!.Clay).toEqual({
      _id: "1",
      rates: [
        { quantity: 0, rate: "1" },
        { quantity: 5, rate: "2" },
      ],
      status: true,
    });
    const flat = applyRateChange(
      tiered,
      changeFromSubmission(fd({ intent: "save", inputItem: "Gold Ring", outputItem: "Clay", "tiers[0].quantity": "0", "tiers[0].rate": "3/4" }))!,
    );
    expect(flat["Gold Ring"]!.Clay).toEqual({ _id: "1", rate: "3/4", status: true });
  });

  it("delete an output, and drop the input when it has none left", () => {
    const one = applyRateChange(MAP, { type: "delete", input: "Gold Ring", output: "Clay" });
    expect(Object.keys(one["Gold Ring"]!)).toEqual(["Silver Ring"]);
    const gone = applyRateChange(MAP, changeFromSubmission(fd({ intent: "delete", inputItem: "Fire Cannon Ball", outputItem: "Green Light" }))!);
    expect(Object.keys(gone)).toEqual(["Gold Ring"]);
  });

  it("leaves other submissions and unknown pairs alone", () => {
    expect(changeFromSubmission(fd({ intent: "import", data: "{}" }))).toBeNull();
    expect(changeFromSubmission(fd({ intent: "delete-input", inputItem: "Gold Ring" }))).toBeNull();
    expect(applyRateChange(MAP, { type: "status", input: "Clay", output: "Gold Ring", status: false })).toBe(MAP);
  });
});

describe("spec 1 §4 / §9 swipe", () => {
  it("is limited to ±100px and acts only beyond 80px", () => {
    expect(clampSwipe(150)).toBe(100);
    expect(clampSwipe(-150)).toBe(-100);
    expect(swipeOutcome(80)).toBeNull();
    expect(swipeOutcome(81)).toBe("toggle");
    expect(swipeOutcome(-81)).toBe("delete");
    expect(swipeOutcome(-40)).toBeNull();
  });
});

describe("spec 1 §8 failure toasts", () => {
  const fd = (status: string) => {
    const f = new FormData();
    f.set("status", status);
    return f;
  };
  it("word each intent's failure, with the fallback text", () => {
    expect(failureMessage("status", fd("false"))).toBe("Failed to disable exchange rate: Please try again");
    expect(failureMessage("status", fd("true"), "boom")).toBe("Failed to enable exchange rate: boom");
    expect(failureMessage("save", null)).toBe("Failed to save exchange rate: Please try again");
    expect(failureMessage("delete", null)).toBe("Failed to delete exchange rate: Please try again");
    expect(failureMessage("delete-input", null)).toBe("Failed to delete exchange rates: Please try again");
    expect(failureMessage("add", null)).toBe("Failed to add new entries: Please try again");
    expect(failureMessage("add-output", null)).toBe("Failed to add exchange rate: Please try again.");
    expect(failureMessage("import", null, "whatever")).toBe("Failed to import exchange rates: Invalid data format");
  });
});
