import type { ActionFunctionArgs } from "@remix-run/node";
import { RATE_MESSAGES } from "#api/rates";
import { rateBatchEnvelopeSchema } from "#api/rates-schemas";
import { batchUpsert } from "~/models/rate.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";

/**
 * POST /api/rates/batch {updates: [{inputItem, outputItem, rates, status}]} (spec 1 §7
 * "Rates"): new entries and imports. All or nothing: one invalid entry writes none and the
 * 400 names it ('Invalid entry "Gold Ring" → "Clay": Rate 1: Invalid format. …').
 * → 200 { success: true, count } (pairs written; a pair listed twice counts once).
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  // The model validates every entry with rateBatchSchema (once) before writing any.
  const { updates } = await readJson(request, rateBatchEnvelopeSchema);
  const count = await batchUpsert(updates);
  return Response.json({ success: true, count });
}, RATE_MESSAGES.newEntriesFailed());

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
