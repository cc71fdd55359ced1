/**
 * The daily-stats pull (spec 2 §3 "Daily total"; docs/summary.md): the platform's daily-stats
 * service (services-config `undocumented.dailyStats`) read for every bowling account and stored
 * through the daily totals model (app/models/daily-totals.server.ts), one row per account and day.
 */
import { SUMMARY_DAYS } from "#api/summary";
import { bowlingAccountIds, upsertDailyRows, type DailyRow } from "~/models/daily-totals.server";
import { getUsersCredentials } from "~/models/user.server";
import { errorText } from "~/utils/errors";
import type { GalaxyServices } from "../galaxy/services.server";
import { getGalaxyServices } from "~/platform/galaxy-services.server";

export type PullResult = { accounts: number; rows: number; failed: Array<{ accountId: string; error: string }> };

/**
 * Pulls the last `days` days of every bowling account (users of type "bowling") and upserts
 * them. One account's failure does not stop the others; it is reported in `failed`.
 * Called by the hourly `daily-stats-pull` job and by the Bowling Bots refresh (issue 10).
 * An aborted `signal` (a worker closing) ends the pull with its reason and writes nothing:
 * the job runs again.
 */
export async function pullDailyStats(opts: { days?: number; services?: GalaxyServices; skipCache?: boolean; signal?: AbortSignal } = {}): Promise<PullResult> {
  const days = opts.days ?? SUMMARY_DAYS;
  const services = opts.services ?? getGalaxyServices();
  const creds = await getUsersCredentials(await bowlingAccountIds());
  const rows: DailyRow[] = [];
  const failed: PullResult["failed"] = [];
  await Promise.all(
    [...creds.values()].map(async (c) => {
      try {
        const stats = await services.dailyStats({ userID: c.accountId, password: c.password }, c.accountId, days, {
          skipCache: opts.skipCache ?? true,
          ...(opts.signal ? { signal: opts.signal } : {}),
        });
        for (const s of stats) rows.push({ accountId: c.accountId, day: s.date.slice(0, 10), awards: s.awards, ballStats: s.spent });
      } catch (err) {
        failed.push({ accountId: c.accountId, error: errorText(err) });
      }
    }),
  );
  opts.signal?.throwIfAborted();
  const written = await upsertDailyRows(rows);
  return { accounts: creds.size, rows: written, failed };
}
