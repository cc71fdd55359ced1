import { asc, eq } from "drizzle-orm";
import { TRADING_ERRORS, type CustomPlanet, type CustomPlanetType } from "#api/trading";
import { getDb } from "~/db/client.server";
import { customPlanets } from "~/db/schema";
import { isUuid } from "~/utils/uuid";
import { AppError } from "~/utils/app-error";
import { publishLive } from "~/queue/live.server";

/** Custom planets (spec 2 §3): names unique per type, case-insensitively (a unique index on lower(name)). */

function toPlanet(row: typeof customPlanets.$inferSelect): CustomPlanet {
  return { _id: row.id, name: row.name, type: row.type };
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

export async function listCustomPlanets(): Promise<CustomPlanet[]> {
  const db = await getDb();
  const rows = await db.select().from(customPlanets).orderBy(asc(customPlanets.createdAt), asc(customPlanets.name));
  return rows.map(toPlanet);
}

export async function createCustomPlanet(input: { name: string; type: CustomPlanetType }): Promise<CustomPlanet> {
  const db = await getDb();
  try {
    const [row] = await db.insert(customPlanets).values(input).returning();
    publishLive("trading", { scope: "planets" });
    return toPlanet(row!);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, TRADING_ERRORS.customPlanetExists);
    throw err;
  }
}

export async function updateCustomPlanet(id: string, input: { name?: string; type?: CustomPlanetType }): Promise<CustomPlanet> {
  if (!isUuid(id)) throw new AppError(404, TRADING_ERRORS.customPlanetNotFound);
  const db = await getDb();
  try {
    const [row] = await db
      .update(customPlanets)
      .set({ ...(input.name !== undefined && { name: input.name }), ...(input.type !== undefined && { type: input.type }) })
      .where(eq(customPlanets.id, id))
      .returning();
    if (!row) throw new AppError(404, TRADING_ERRORS.customPlanetNotFound);
    publishLive("trading", { scope: "planets" });
    return toPlanet(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(409, TRADING_ERRORS.customPlanetExists);
    throw err;
  }
}

export async function deleteCustomPlanet(id: string): Promise<CustomPlanet | null> {
  if (!isUuid(id)) return null;
  const db = await getDb();
  const [row] = await db.delete(customPlanets).where(eq(customPlanets.id, id)).returning();
  if (row) publishLive("trading", { scope: "planets" });
  return row ? toPlanet(row) : null;
}
