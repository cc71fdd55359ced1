/** zod schemas of the Gift Rates contract (api/summary.ts); server and lazily loaded client code only. */
import { z } from "zod";
import { GIFT_RATE_NAMES } from "./summary";

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
