import { describe, expect, test } from "vitest";
import { exportRatesJson, isValidRate, RATE_MESSAGES, ratesProblem, rateDataToTiers, rateToNumber, tiersDiffer, tiersToPayload, validateTiers } from "./rates";
import { parseImportText, rateBatchSchema, rateEntrySchema, rateStatusSchema, rateUpdateSchema } from "./rates-schemas";

const INVALID_1 = 'Rate 1: Invalid format. Use "1/2" or "1.5"';
const INVALID_2 = 'Rate 2: Invalid format. Use "1/2" or "1.5"';
const DUPLICATE = "Duplicate quantities found. Each tier must have a unique quantity.";

describe('spec 1 §5 "Per tier": rate text is integer/integer or an integer or decimal number', () => {
  test.each(["1/2", "10/3", "0/1", "1.5", "2", "0.25", ".5", " 1/2 ", 1.5, 3, 0])("%j is valid", (rate) => {
    expect(isValidRate(rate)).toBe(true);
  });
  test.each(["abc", "1/", "/2", "1/2/3", "1.5.2", "1,5", "-1", "1e3", "½", "1 / 2", "1/0", -1, Number.NaN, "1".repeat(40)])("%j is invalid", (rate) => {
    expect(isValidRate(rate)).toBe(false);
  });
  test("value of a rate", () => {
    expect(rateToNumber("1/2")).toBe(0.5);
    expect(rateToNumber("1.5")).toBe(1.5);
    expect(rateToNumber(2)).toBe(2);
    expect(rateToNumber("x")).toBeNaN();
  });
});

describe("spec 1 §5 validateTiers", () => {
  test("'Rate N: Invalid format' with N the 1-based tier position, keyed by tier index", () => {
    const v = validateTiers([
      { quantity: 0, rate: "1/2" },
      { quantity: 5, rate: "abc" },
    ]);
    expect(v.valid).toBe(false);
    expect(v.tierErrors).toEqual({ 1: { rate: INVALID_2 } });
    expect(v.messages).toEqual([INVALID_2]);
    expect(v.globalErrors).toEqual([]);
  });

  test("'Rate N: Quantity cannot be negative'", () => {
    const v = validateTiers([
      { quantity: -1, rate: "1" },
      { quantity: 3, rate: "2" },
    ]);
    expect(v.tierErrors).toEqual({ 0: { quantity: "Rate 1: Quantity cannot be negative" } });
    expect(v.messages).toEqual(["Rate 1: Quantity cannot be negative"]);
  });

  test("positive quantities must be unique: one global error, both tiers marked", () => {
    const v = validateTiers([
      { quantity: 10, rate: "1" },
      { quantity: 0, rate: "2" },
      { quantity: 10, rate: "3" },
    ]);
    expect(v.globalErrors).toEqual([DUPLICATE]);
    expect(v.duplicateIndexes).toEqual([0, 2]);
    expect(v.messages).toEqual([DUPLICATE]);
  });

  test("a second default tier (≥ 0) is refused with the reason, both tiers marked (issue 30 A7; §3 'the default tier')", () => {
    const v = validateTiers([
      { quantity: 0, rate: "1" },
      { quantity: 5, rate: "3" },
      { quantity: "0", rate: "2" },
    ]);
    expect(v.valid).toBe(false);
    expect(v.globalErrors).toEqual(["Only one default tier (≥ 0) is allowed. Give the other tiers a quantity above 0."]);
    expect(v.duplicateIndexes).toEqual([0, 2]);
    // A blank quantity being typed is not a second default tier yet; on save it is a missing quantity.
    expect(
      validateTiers([
        { quantity: 0, rate: "1" },
        { quantity: "", rate: "" },
      ]).globalErrors,
    ).toEqual([]);
    expect(
      ratesProblem([
        { quantity: 0, rate: "1" },
        { quantity: 0, rate: "2" },
      ]),
    ).toBe("Only one default tier (≥ 0) is allowed. Give the other tiers a quantity above 0.");
  });

  test("a blank rate is not flagged while editing, but is an invalid format when saving", () => {
    const tiers = [
      { quantity: 0, rate: "1/2" },
      { quantity: "", rate: "" },
    ];
    expect(validateTiers(tiers).valid).toBe(true);
    expect(validateTiers(tiers, { requireRate: true }).messages).toEqual([INVALID_2, "Rate 2: Enter a quantity (0 for the default tier)"]);
  });

  test("all problems are reported together, per tier then global", () => {
    const v = validateTiers([
      { quantity: -2, rate: "x" },
      { quantity: 4, rate: "1" },
      { quantity: "4", rate: "1" },
    ]);
    expect(v.messages).toEqual([INVALID_1, "Rate 1: Quantity cannot be negative", DUPLICATE]);
  });
});

describe("tier quantities: whole numbers from 0 to 1,000,000, never a silent 0 (issue 8 §2.4)", () => {
  test.each([
    ["1.5", "Rate 1: Quantity must be a whole number"],
    ["1e2", "Rate 1: Quantity must be a whole number"],
    ["99999999999999999999", "Rate 1: Quantity cannot be more than 1,000,000"],
    [1.5, "Rate 1: Quantity must be a whole number"],
    [1e20, "Rate 1: Quantity cannot be more than 1,000,000"],
    ["-3", "Rate 1: Quantity cannot be negative"],
  ])("%j is refused", (quantity, message) => {
    expect(validateTiers([{ quantity, rate: "1" }], { requireRate: true }).messages).toEqual([message]);
  });

  test("a blank quantity is an error when saving (not read as 0), not while the tier is fresh", () => {
    expect(validateTiers([{ quantity: "", rate: "1" }]).valid).toBe(true);
    expect(validateTiers([{ quantity: "", rate: "1" }], { requireRate: true }).messages).toEqual(["Rate 1: Enter a quantity (0 for the default tier)"]);
  });

  test("0 and 1,000,000 are fine; the API refuses fractions", () => {
    expect(
      validateTiers(
        [
          { quantity: "0", rate: "1" },
          { quantity: "1000000", rate: "2" },
        ],
        { requireRate: true },
      ).valid,
    ).toBe(true);
    const r = rateUpdateSchema.safeParse({ inputItem: "A", outputItem: "B", rates: [{ quantity: 2.5, rate: "1" }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe("Rate 1: Quantity must be a whole number");
  });
});

describe('spec 1 §4 "On save": a single tier with quantity 0 is sent as a flat rate, otherwise the array', () => {
  test("flat", () => {
    expect(tiersToPayload([{ quantity: 0, rate: "1/2" }])).toBe("1/2");
    expect(tiersToPayload([{ quantity: "", rate: 1.5 }])).toBe(1.5);
  });
  test("tiers (quantities become numbers, order kept)", () => {
    expect(
      tiersToPayload([
        { quantity: "10", rate: " 2/3 " },
        { quantity: 0, rate: "1" },
      ]),
    ).toEqual([
      { quantity: 10, rate: "2/3" },
      { quantity: 0, rate: "1" },
    ]);
    expect(tiersToPayload([{ quantity: 5, rate: "1" }])).toEqual([{ quantity: 5, rate: "1" }]);
  });
  test("rate data → editor tiers and edited detection", () => {
    expect(rateDataToTiers({ rate: "1/2" })).toEqual([{ quantity: 0, rate: "1/2" }]);
    const tiers = [{ quantity: 5, rate: "1" }];
    expect(rateDataToTiers({ rates: tiers })).toEqual(tiers);
    expect(tiersDiffer([{ quantity: "5", rate: "1" }], tiers)).toBe(false);
    expect(tiersDiffer([{ quantity: 5, rate: "2" }], tiers)).toBe(true);
  });
});

describe('spec 1 §3 "Rate entry payload" schemas', () => {
  test("rateUpdateSchema answers the §5 text as the whole message", () => {
    const r = rateUpdateSchema.safeParse({
      inputItem: "Gold Ring",
      outputItem: "Clay",
      rates: [
        { quantity: 1, rate: "1/2" },
        { quantity: 1, rate: "2" },
      ],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path, i.message])).toEqual([[[], DUPLICATE]]);
  });
  test("a flat rate may come as `rates` or `rate`", () => {
    expect(rateUpdateSchema.parse({ inputItem: "A", outputItem: "B", rates: "1/2" }).rates).toBe("1/2");
    expect(rateUpdateSchema.parse({ inputItem: "A", outputItem: "B", rate: 1.5 }).rates).toBe(1.5);
  });
  test("wrong shapes are rejected", () => {
    expect(rateUpdateSchema.safeParse({ inputItem: "A", outputItem: "B" }).success).toBe(false);
    expect(rateUpdateSchema.safeParse({ inputItem: "A", outputItem: "B", rates: [] }).success).toBe(false);
    expect(rateUpdateSchema.safeParse({ inputItem: "A", outputItem: "B", rates: [{ quantity: "1", rate: "1" }] }).success).toBe(false);
    expect(rateUpdateSchema.safeParse({ inputItem: "A", outputItem: "A", rates: "1" }).error?.issues[0].message).toBe(RATE_MESSAGES.sameGift);
    expect(rateEntrySchema.safeParse({ inputItem: "A", outputItem: "B", rates: "1", status: "yes" }).success).toBe(false);
    expect(rateStatusSchema.safeParse({ inputItem: "A", outputItem: "B", status: 1 }).success).toBe(false);
  });
  test("rateBatchSchema names the first bad entry", () => {
    const r = rateBatchSchema.safeParse({
      updates: [
        { inputItem: "Fire Cannon Ball", outputItem: "Clay", rates: "1" },
        { inputItem: "Gold Ring", outputItem: "Clay", rates: [{ quantity: 0, rate: "x" }] },
      ],
    });
    expect(r.error?.issues[0].message).toBe(`Invalid entry "Gold Ring" → "Clay": ${INVALID_1}`);
    expect(rateBatchSchema.safeParse({ updates: [42] }).error?.issues[0].message).toMatch(/^Invalid entry #1: /);
    expect(rateBatchSchema.safeParse({ updates: "x" }).success).toBe(false);
  });
});

describe('spec 1 §5 "Import" and §7 "Other" export', () => {
  test("input → output → rate data: a rates list, or a single rate with no quantity", () => {
    const r = parseImportText(
      JSON.stringify({
        "Fire Cannon Ball": {
          "Gold Ring": { rate: "1/2" },
          Clay: {
            rates: [
              { quantity: 0, rate: 1 },
              { quantity: 10, rate: "2" },
            ],
            status: false,
          },
        },
      }),
    );
    expect(r).toEqual({
      ok: true,
      updates: [
        { inputItem: "Fire Cannon Ball", outputItem: "Gold Ring", rates: "1/2" },
        {
          inputItem: "Fire Cannon Ball",
          outputItem: "Clay",
          rates: [
            { quantity: 0, rate: 1 },
            { quantity: 10, rate: "2" },
          ],
          status: false,
        },
      ],
    });
  });

  test.each([
    ["not JSON", "{nope"],
    ["an array", "[]"],
    ["empty map", "{}"],
    ["no rate", '{"A":{"B":{"status":true}}}'],
    ["a bare rate", '{"A":{"B":"1/2"}}'],
    ["tier without quantity", '{"A":{"B":{"rates":[{"rate":"1"}]}}}'],
    ["a §5 rule broken", '{"A":{"B":{"rates":[{"quantity":-1,"rate":"1"}]}}}'],
    // Spec 1 §5: "a rates list, or a single rate with no quantity" — a quantity is not dropped silently.
    ["a single rate carrying a quantity", '{"Gold Ring":{"Clay":{"rate":"1/2","quantity":5}}}'],
    ["a single rate carrying quantity 0", '{"Gold Ring":{"Clay":{"rate":"1/2","quantity":0}}}'],
    ["a fractional tier quantity", '{"Gold Ring":{"Clay":{"rates":[{"quantity":1.5,"rate":"1"}]}}}'],
    ["blank", "   "],
  ])("%s → 'Failed to import exchange rates: Invalid data format'", (_label, text) => {
    const r = parseImportText(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toBe("Failed to import exchange rates: Invalid data format");
  });

  test("a refusal lists every failed entry and why, the first 20 with the count (issue 30 A2)", () => {
    const r = parseImportText('{"Gold Ring":{"Clay":{"rate":"1/2","quantity":5},"Silver Ring":{"rate":"1"}},"Clay":["x"]}');
    expect(r).toMatchObject({
      ok: false,
      error: "Failed to import exchange rates: Invalid data format",
      problems: {
        count: 2,
        shown: ['"Gold Ring" → "Clay": a single rate has no quantity (use a rates list)', '"Clay": must map output gifts to their rate data'],
      },
    });
    const known = parseImportText('{"Gold Ring":{"Clay":{"rate":"1"},"Moon":{"rate":"1"}}}', { knownGift: (name) => name !== "Moon" });
    expect(known).toMatchObject({ ok: false, problems: { count: 1, shown: ['"Gold Ring" → "Moon": Unknown gift: Moon'] } });
    const many = parseImportText(JSON.stringify({ A: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`B${i}`, { rate: "x" }])) }));
    expect(many).toMatchObject({ ok: false, problems: { count: 30 } });
    if (!many.ok) expect(many.problems.shown).toHaveLength(20);
    expect(RATE_MESSAGES.importFailedCount(30, 20)).toBe("30 entries failed; the first 20:");
    expect(RATE_MESSAGES.importFailedCount(1, 1)).toBe("1 entry failed:");
  });

  test("export is pretty JSON without client-only flags, and imports back", () => {
    const json = exportRatesJson({ "Gold Ring": { Clay: { _id: "x", rate: "1/2", status: true, hasChanges: true } } });
    expect(json).toBe(JSON.stringify({ "Gold Ring": { Clay: { _id: "x", rate: "1/2", status: true } } }, null, 2));
    expect(parseImportText(json)).toEqual({ ok: true, updates: [{ inputItem: "Gold Ring", outputItem: "Clay", rates: "1/2", status: true }] });
  });
});

describe("spec 1 §8 rate toasts and §4 load texts", () => {
  test("texts", () => {
    expect(RATE_MESSAGES.saveFailed()).toBe("Failed to save exchange rate: Please try again");
    expect(RATE_MESSAGES.saveFailed("boom")).toBe("Failed to save exchange rate: boom");
    expect(RATE_MESSAGES.addFailed()).toBe("Failed to add exchange rate: Please try again.");
    expect(RATE_MESSAGES.statusSaved(false)).toBe("Exchange rate disabled successfully");
    expect(RATE_MESSAGES.statusFailed(true)).toBe("Failed to enable exchange rate: Please try again");
    expect(RATE_MESSAGES.loadRetrying(1)).toBe("Failed to load exchange rates. Retrying... (1/3)");
    expect(RATE_MESSAGES.loadGaveUp).toBe("Failed to load exchange rates after multiple attempts. Please refresh the page.");
    expect(RATE_MESSAGES.deleteAllText("Clay")).toBe('Are you sure you want to delete all exchange rates for "Clay"? This action cannot be undone.');
    expect(RATE_MESSAGES.fixErrors).toBe("Please fix validation errors before saving");
  });
});
