/** Gift rates (spec 2 §3): all reads and writes of gift_rates. */
import { dropNonPositive, type GiftRates } from "#api/summary";
import { getDb } from "~/db/client.server";
import { giftRates } from "~/db/schema";

/** The stored rates, name → rate (only rates > 0 are ever stored). */
export async function getGiftRates(): Promise<GiftRates> {
  const db = await getDb();
  const rows = await db.select().from(giftRates);
  return dropNonPositive(Object.fromEntries(rows.map((r) => [r.name, r.rate])));
}

/** Replaces the whole set in one transaction (spec: "A save replaces the whole set"); rates ≤ 0 dropped. */
export async function replaceGiftRates(rates: Record<string, number>): Promise<GiftRates> {
  const kept = dropNonPositive(rates);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(giftRates);
    const rows = Object.entries(kept).map(([name, rate]) => ({ name, rate: rate as number }));
    if (rows.length) await tx.insert(giftRates).values(rows);
  });
  return kept;
}
