/**
 * Issue 30 C4 / decision 0023: an /api route that fails for an unexpected reason lets the error
 * through to `apiRoute`, which answers 500 with the call's spec text and logs the error
 * scrubbed (`errorText`: no SQL, no parameters). Eight routes caught it themselves and five of
 * them logged the driver's raw message — the statement and its parameters included.
 *
 * Each case breaks the table its route reads (a column renamed, put back afterwards), so the
 * query fails for real inside the model.
 */
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, test, vi } from "vitest";
import { apiArgs, errorBody } from "#tests/kit/api";
import { ACCOUNT_ERRORS } from "#api/accounts";
import { LOG_ERRORS } from "#api/logs";
import { GIFT_RATE_ERRORS, SUMMARY_TEXTS } from "#api/summary";
import { TRADER_MESSAGES } from "#api/trading";
import { getDb } from "~/db/client.server";
import { loader as stalkerActive } from "./_characters+/api.stalker.active";
import { loader as logsList } from "./_logs+/api.logs";
import { action as logsClear } from "./_logs+/api.logs.clear.$id";
import { action as logsCleanup } from "./_logs+/api.logs.cleanup";
import { loader as dailyTotals } from "./_summary+/api.bowling-awards.daily-totals";
import { action as giftRatesSave, loader as giftRatesList } from "./_summary+/api.gift-rates";
import { loader as traderStatus } from "./_trading-planets+/api.trader.status";

type Handler = (args: { request: Request; params: Record<string, string | undefined>; context: object }) => Promise<Response>;

const ID = "0190f0f0-0000-7000-8000-000000000001";

/** A route, the request that reaches its model, the column to break, and the spec's failure text. */
const CASES: { name: string; handler: Handler; request: () => Request; params?: Record<string, string>; table: string; column: string; text: string }[] = [
  {
    name: "GET /api/logs",
    handler: logsList as Handler,
    request: () => new Request("http://localhost/api/logs?type=error"),
    table: "logs",
    column: "type",
    text: LOG_ERRORS.loadFailed,
  },
  {
    name: "POST /api/logs/clear/{id}",
    handler: logsClear as Handler,
    request: () => new Request(`http://localhost/api/logs/clear/${ID}`, { method: "POST" }),
    params: { id: ID },
    table: "logs",
    column: "cleared",
    text: LOG_ERRORS.clearFailed,
  },
  {
    name: "DELETE /api/logs/cleanup",
    handler: logsCleanup as Handler,
    request: () => new Request("http://localhost/api/logs/cleanup", { method: "DELETE" }),
    table: "logs",
    column: "cleared",
    text: LOG_ERRORS.cleanupFailed,
  },
  {
    name: "GET /api/stalker/active",
    handler: stalkerActive as Handler,
    request: () => new Request("http://localhost/api/stalker/active"),
    table: "sessions",
    column: "purpose",
    text: ACCOUNT_ERRORS.fetchData,
  },
  {
    name: "GET /api/trader/status",
    handler: traderStatus as Handler,
    request: () => new Request("http://localhost/api/trader/status"),
    table: "users",
    column: "type",
    text: TRADER_MESSAGES.fetchStatus,
  },
  {
    name: "GET /api/gift-rates",
    handler: giftRatesList as Handler,
    request: () => new Request("http://localhost/api/gift-rates"),
    table: "gift_rates",
    column: "rate",
    text: GIFT_RATE_ERRORS.loadFailed,
  },
  {
    name: "POST /api/gift-rates",
    handler: giftRatesSave as Handler,
    request: () =>
      new Request("http://localhost/api/gift-rates", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ rates: { Clay: 2 } }),
      }),
    table: "gift_rates",
    column: "rate",
    text: GIFT_RATE_ERRORS.saveFailed,
  },
  {
    name: "GET /api/bowling-awards/daily-totals",
    handler: dailyTotals as Handler,
    request: () => new Request("http://localhost/api/bowling-awards/daily-totals"),
    table: "daily_awards",
    column: "awards",
    text: SUMMARY_TEXTS.loadFailed,
  },
];

let restore: (() => Promise<unknown>) | null = null;
afterEach(async () => {
  await restore?.();
  restore = null;
  vi.restoreAllMocks();
});

describe("an unexpected failure is answered by apiRoute: 500 with the spec's text, logged without SQL or parameters (decision 0023)", () => {
  test.each(CASES)("$name", async ({ handler, request, params, table, column, text }) => {
    const db = await getDb();
    // Authenticate first: the token's own tables stay whole.
    const args = await apiArgs(request(), params);
    await db.execute(sql.raw(`ALTER TABLE "${table}" RENAME COLUMN "${column}" TO "${column}_broken"`));
    restore = () => db.execute(sql.raw(`ALTER TABLE "${table}" RENAME COLUMN "${column}_broken" TO "${column}"`));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});

    const res = await handler({ ...args, params: params ?? {} });

    expect(res.status).toBe(500);
    expect(await res.json()).toEqual(errorBody(text));
    const logged = warn.mock.calls.map((call) => call.map(String).join(" ")).join("\n");
    expect(logged).toContain(text);
    expect(logged).toMatch(new RegExp(`${column}\\b.* does not exist \\(42703\\)`));
    expect(logged).not.toMatch(/Failed query|params:|select .* from|insert into|update "|delete from/i);
  });
});
