import type { ActionFunctionArgs } from "@remix-run/node";
import { TRADING_ERRORS } from "#api/trading";
import { bulkSequenceSchema, createSequenceSchema } from "#api/trading-schemas";
import { createSequence, listSequences, setSequencesActive } from "~/models/planet-sequence.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { readTradingJson } from "~/routes/_app+/_trading-planets+/trading-api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { sequenceSchema } from "#api/responses";

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

export const openapi = documented("/api/planet-sequences", "Trading planets", {
  GET: {
    summary: "Every planet sequence",
    description: 'Spec 2 §7 "Trading planets": in list order.',
    responses: { 200: z.object({ sequences: z.array(sequenceSchema) }) },
  },
  POST: {
    summary: "Add a planet sequence",
    description: 'Spec 2 §7 "Trading planets": names are unique (409).',
    body: createSequenceSchema,
    example: {
      name: "Morning run",
      sequence: [{ planetType: "Mars", shuffle: false }],
      seconds: 10,
      closedPlanetsLevel: 1,
      openPlanetsLevel: 1,
      isActive: true,
    },
    responses: { 201: z.object({ sequence: sequenceSchema }) },
    errors: { 409: "A sequence with that name exists" },
  },
  PUT: {
    summary: "Turn several sequences on or off",
    description: "All or nothing: 404 when any id is unknown.",
    body: bulkSequenceSchema,
    example: { ids: ["00000000-0000-0000-0000-000000000000"], updates: { isActive: false } },
    responses: { 200: z.object({ sequences: z.array(sequenceSchema) }) },
    errors: { 404: "A sequence id is unknown" },
  },
});
