/** zod schemas of the Gift Rates contract (api/summary.ts); server and lazily loaded client code only. */
import { z } from "zod";
import { GIFT_RATE_NAMES, giftRateInputError, pairsToRates, parseRateInput, type GiftRates, type RatePair } from "./summary";

const rate = z.number({ error: "rate must be a number" }).min(0, "rate must not be negative");

/** POST /api/gift-rates { rates: { [name]: number } }: only the 8 names; negative or non-numeric → 400. */
export const giftRatesBodySchema = z
  .object({
    rates: z.record(z.string(), rate).superRefine((rates, ctx) => {
      for (const name of Object.keys(rates)) {
        if (!(GIFT_RATE_NAMES as readonly string[]).includes(name)) ctx.addIssue({ code: "custom", message: `unknown gift "${name.slice(0, 60)}"` });
      }
    }),
  })
  .strict();

/**
 * The no-JavaScript Gift Rates form (spec 2 §5): fields `prize:<gift>` and `fireballs:<gift>`,
 * whole numbers ≥ 0, empty = 0; the first refused gift is the issue (`<gift>: <reason>`, its
 * path the refused field's name). Gives the rates to save: only pairs with both non-zero, as
 * prize / fireballs.
 */
export const giftRatesFormSchema = z
  .record(z.string(), z.string())
  .superRefine((fields, ctx) => {
    for (const name of GIFT_RATE_NAMES) {
      const prize = fields[`prize:${name}`];
      const refused = giftRateInputError(prize, fields[`fireballs:${name}`]);
      if (refused) {
        // The field it is about (issue 30 A6: the kept form says it there): the prize when the
        // prize alone is refused, else the fireballs.
        const field = giftRateInputError(prize, "") ? `prize:${name}` : `fireballs:${name}`;
        ctx.addIssue({ code: "custom", message: `${name}: ${refused}`, path: [field] });
        return;
      }
    }
  })
  .transform((fields): GiftRates => {
    const pairs: Record<string, RatePair> = {};
    for (const name of GIFT_RATE_NAMES) {
      pairs[name] = { prize: parseRateInput(fields[`prize:${name}`]) ?? 0, fireballs: parseRateInput(fields[`fireballs:${name}`]) ?? 0 };
    }
    return pairsToRates(pairs);
  });
