import type { ActionFunctionArgs } from "@remix-run/node";
import { TRADING_ERRORS } from "#api/trading";
import { bulkSequenceSchema, createSequenceSchema } from "#api/trading-schemas";
import { createSequence, listSequences, setSequencesActive } from "~/models/planet-sequence.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { readTradingJson } from "~/routes/_app+/_trading-planets+/trading-api.server";

/**
 * GET  /api/planet-sequences → { sequences } in list order (spec 2 §7 "Trading planets").
 * POST /api/planet-sequences {name, sequence, seconds?, closedPlanetsLevel?, openPlanetsLevel?, isActive?} → 201 { sequence }.
 * PUT  /api/planet-sequences {ids, updates: {isActive}} → { sequences } (bulk active, all or nothing).
 */
export const loader = apiRoute(async () => {
  return Response.json({ sequences: await listSequences() });
}, TRADING_ERRORS.fetchSequences);

export const action = apiRoute(
  async ({ request }: ActionFunctionArgs) => {
    if (request.method === "POST") {
      const { _id: _ignored, ...input } = await readTradingJson(request, createSequenceSchema);
      return Response.json({ sequence: await createSequence(input) }, { status: 201 });
    }
    if (request.method === "PUT") {
      const { ids, updates } = await readTradingJson(request, bulkSequenceSchema);
      return Response.json({ sequences: await setSequencesActive(ids, updates.isActive) });
    }
    return methodNotAllowed(["GET", "POST", "PUT"]);
  },
  { POST: TRADING_ERRORS.createSequence, PUT: TRADING_ERRORS.updateSequences },
);
