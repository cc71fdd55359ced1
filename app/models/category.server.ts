import { asc, eq, sql } from "drizzle-orm";
import { ACCOUNT_ERRORS, categoryValueSchema, type Category } from "#api/accounts";
import { getDb } from "~/db/client.server";
import { categories } from "~/db/schema";
import { isUuid } from "~/utils/uuid";
import { AppError } from "~/utils/app-error";
import { publishLive } from "~/queue/live.server";

/**
 * Categories `{_id, value}` (spec 2 §3): the types a user can have. Free text, trimmed,
 * unique case-insensitively (so "Bowling" cannot sit beside "bowling"). A fresh database
 * offers stalker, trading, bowling, recipients and suppliers (migration 0003).
 */

function toCategory(row: typeof categories.$inferSelect): Category {
  return { _id: row.id, value: row.value };
}

export async function listCategories(): Promise<Category[]> {
  const db = await getDb();
  const rows = await db.select().from(categories).orderBy(asc(categories.createdAt), asc(categories.value));
  return rows.map(toCategory);
}

/** Throws AppError 400 for a blank/long name and 409 when the name exists (any case). */
export async function createCategory(value: string): Promise<Category> {
  const parsed = categoryValueSchema.safeParse(value);
  if (!parsed.success) throw new AppError(400, parsed.error.issues[0]?.message ?? ACCOUNT_ERRORS.createCategory);
  const db = await getDb();
  const name = parsed.data;
  const [existing] = await db
    .select()
    .from(categories)
    .where(sql`lower(${categories.value}) = lower(${name})`)
    .limit(1);
  if (existing) throw new AppError(409, ACCOUNT_ERRORS.categoryExists);
  const [row] = await db.insert(categories).values({ value: name }).onConflictDoNothing().returning();
  if (!row) throw new AppError(409, ACCOUNT_ERRORS.categoryExists);
  publishLive("characters", { scope: "categories" });
  return toCategory(row);
}

export async function deleteCategory(id: string): Promise<Category> {
  if (!isUuid(id)) throw new AppError(404, ACCOUNT_ERRORS.categoryNotFound);
  const db = await getDb();
  const [row] = await db.delete(categories).where(eq(categories.id, id)).returning();
  if (!row) throw new AppError(404, ACCOUNT_ERRORS.categoryNotFound);
  publishLive("characters", { scope: "categories" });
  return toCategory(row);
}
