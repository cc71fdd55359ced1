import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb, dbKind, getDb } from "./client.server";
import { logs } from "./schema";
import { resetEnv } from "~/utils/env.server";

// Issue "Foundation" item 2: with no DATABASE_URL the app stores everything in an embedded
// PGlite database under ./data; with DATABASE_URL it uses that PostgreSQL server.
describe("database client", () => {
  const realUrl = process.env.DATABASE_URL;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-pglite-"));

  afterAll(async () => {
    await closeDb();
    process.env.DATABASE_URL = realUrl;
    delete process.env.PGLITE_DIR;
    resetEnv();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("uses the real PostgreSQL server when DATABASE_URL is set, migrated", async () => {
    const db = await getDb();
    expect(await dbKind()).toBe("postgres");
    const r = await db.execute(sql`select count(*)::int as n from information_schema.tables where table_name = 'logs'`);
    expect((r as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);
    await closeDb();
  });

  it("falls back to embedded PGlite files when DATABASE_URL is unset, and keeps data across reopen", async () => {
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DIR = path.join(dir, "pglite");
    resetEnv();
    const db = await getDb();
    expect(await dbKind()).toBe("pglite");
    await db.insert(logs).values({ type: "info", source: "system", message: "stored in pglite" });
    await closeDb();
    expect(fs.existsSync(path.join(dir, "pglite", "PG_VERSION"))).toBe(true);

    const again = await getDb();
    const rows = await again.select().from(logs);
    expect(rows.map((r) => r.message)).toContain("stored in pglite");
  }, 60_000);
});
