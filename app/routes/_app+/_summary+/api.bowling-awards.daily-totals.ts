import { SUMMARY_DAYS, SUMMARY_TEXTS } from "#api/summary";
import { dailyTotals } from "~/models/daily-totals.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";
import { errorText } from "~/utils/errors";

/**
 * GET /api/bowling-awards/daily-totals → { dailyTotals: [{ date, awards, ballStats }] }
 * (spec 2 §7, spec 1 §7): the last 7 days (Europe/Moscow) summed over bowling accounts, newest first.
 */
export const loader = apiRoute(async function loader() {
  try {
    return Response.json({ dailyTotals: await dailyTotals(SUMMARY_DAYS) });
  } catch (err) {
    console.warn("[api/daily-totals] failed:", errorText(err));
    return jsonError(500, SUMMARY_TEXTS.loadFailed);
  }
});

export const action = apiRoute(function action() {
  return methodNotAllowed(["GET"]);
});
