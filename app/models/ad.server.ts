import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { TRADING_ERRORS, type Ad, type AdCategory } from "#api/trading";
import { getDb } from "~/db/client.server";
import { ads } from "~/db/schema";
import { isUuid } from "~/utils/uuid";
import { AppError } from "~/utils/app-error";
import { publishLive } from "~/queue/live.server";

/** Ads and messages (spec 2 §3): text stored exactly as given (emoji, symbols, spacing). */

function toAd(row: typeof ads.$inferSelect): Ad {
  return { _id: row.id, adsMessage: row.adsMessage, category: row.category, isActive: row.isActive };
}

export async function listAds(): Promise<Ad[]> {
  const db = await getDb();
  const rows = await db.select().from(ads).orderBy(asc(ads.createdAt), asc(ads.id));
  return rows.map(toAd);
}

/**
 * One page of a category (issue 20 "Bounded pages"): `size` ads in list order (oldest first)
 * from `page` (1-based; past the end: the last page) and the category's total. With `query`
 * (issue 32 item 2, `?adQ=`): the ads whose text holds it, case-insensitively, and their count.
 */
export async function listAdsPage(category: AdCategory, page: number, size: number, query = ""): Promise<{ ads: Ad[]; total: number; page: number }> {
  const db = await getDb();
  const q = query.trim().toLowerCase();
  const where = and(eq(ads.category, category), q ? sql`strpos(lower(${ads.adsMessage}), ${q}) > 0` : undefined);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(ads)
    .where(where);
  const total = count?.n ?? 0;
  const last = Math.max(1, Math.ceil(total / size));
  const shown = Math.min(Math.max(1, Math.floor(page) || 1), last);
  const rows = await adsPageQuery(db, where, size, (shown - 1) * size);
  return { ads: rows.map(toAd), total, page: shown };
}

/** One page in list order, walked in `ads_category_order_index` (exported for the plan test). */
export function adsPageQuery(db: Awaited<ReturnType<typeof getDb>>, where: SQL | undefined, limit: number, offset: number) {
  return db.select().from(ads).where(where).orderBy(asc(ads.createdAt), asc(ads.id)).limit(limit).offset(offset);
}

export async function createAd(input: { adsMessage: string; category: AdCategory; isActive: boolean }): Promise<Ad> {
  const db = await getDb();
  const [row] = await db.insert(ads).values(input).returning();
  publishLive("trading", { scope: "ads" });
  return toAd(row!);
}

export async function updateAd(id: string, input: { adsMessage?: string; category?: AdCategory; isActive?: boolean }): Promise<Ad> {
  if (!isUuid(id)) throw new AppError(404, TRADING_ERRORS.adNotFound);
  const db = await getDb();
  const [row] = await db
    .update(ads)
    .set({
      ...(input.adsMessage !== undefined && { adsMessage: input.adsMessage }),
      ...(input.category !== undefined && { category: input.category }),
      ...(input.isActive !== undefined && { isActive: input.isActive }),
    })
    .where(eq(ads.id, id))
    .returning();
  if (!row) throw new AppError(404, TRADING_ERRORS.adNotFound);
  publishLive("trading", { scope: "ads" });
  return toAd(row);
}

export async function deleteAd(id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const db = await getDb();
  const rows = await db.delete(ads).where(eq(ads.id, id)).returning({ id: ads.id });
  if (rows.length) publishLive("trading", { scope: "ads" });
  return rows.length > 0;
}

/** Deletes several ads in one transaction; 404 and nothing deleted when one is missing. */
export async function deleteAds(ids: string[]): Promise<number> {
  const unique = [...new Set(ids)];
  if (!unique.length || !unique.every(isUuid)) throw new AppError(404, TRADING_ERRORS.adNotFound);
  const db = await getDb();
  const n = await db.transaction(async (tx) => {
    const rows = await tx.delete(ads).where(inArray(ads.id, unique)).returning({ id: ads.id });
    if (rows.length !== unique.length) throw new AppError(404, TRADING_ERRORS.adNotFound);
    return rows.length;
  });
  publishLive("trading", { scope: "ads" });
  return n;
}
