import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { logs } from "~/db/schema";
import { errorText } from "~/utils/errors";
import { listLogs, logEvent, redact } from "./log.server";

/** Issue 7 #5: a failed query's SQL and parameters never reach System Logs. */
const SECRET = "hunter2-secret";

/** Runs a real query that PostgreSQL refuses, with SECRET as a parameter, and returns the error. */
async function failedQuery(): Promise<unknown> {
  const db = await getDb();
  try {
    // logs.id is a uuid column: PostgreSQL answers `invalid input syntax for type uuid: "hunter2-secret"`.
    await db.select().from(logs).where(eq(logs.id, SECRET));
  } catch (err) {
    return err;
  }
  throw new Error("the query was expected to fail");
}

async function storedRows() {
  return JSON.stringify(await listLogs({ limit: 1000 }));
}

describe("failed database queries in System Logs", () => {
  it("the raw error really carries the SQL and the value (so the tests below can fail)", async () => {
    const err = (await failedQuery()) as Error;
    expect(err.message).toContain("Failed query:");
    expect(err.message).toContain(SECRET);
  });

  it("errorText keeps the driver's message and code, without SQL, parameters or the quoted value", async () => {
    const text = errorText(await failedQuery());
    expect(text).toMatch(/invalid input syntax for type uuid/);
    expect(text).toContain("22P02");
    expect(text).not.toContain(SECRET);
    expect(text).not.toMatch(/select|from "logs"|params/i);
  });

  it("an insert with an invalid value: the stored row has neither the values nor the statement", async () => {
    const db = await getDb();
    let caught: unknown;
    try {
      // The timestamp parameter is not a timestamp: PostgreSQL refuses the whole insert.
      await db.execute(sql`insert into ${logs} (type, source, message, timestamp) values ('error', 'system', ${`note ${SECRET}`}, ${SECRET})`);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).message).toContain(SECRET);
    await logEvent({ type: "error", source: "system", message: `Saving failed: ${errorText(caught)}`, details: { error: caught } });
    const rows = await storedRows();
    expect(rows).toContain("Saving failed:");
    expect(rows).not.toContain(SECRET);
    expect(rows).not.toMatch(/insert into/i);
  });

  it("logEvent scrubs a message that interpolated err.message, and redact() reduces Error details", async () => {
    const err = (await failedQuery()) as Error;
    await logEvent({ type: "error", source: "system", message: `Loading failed: ${err.message}`, details: { err, nested: [{ text: err.message }] } });
    const [row] = await listLogs({ limit: 1 });
    expect(row!.message).toMatch(/^Loading failed: /);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(SECRET);
    expect(stored).not.toMatch(/select/i);
    expect(redact(err)).toEqual({ name: err.name, message: errorText(err) });
  });
});
