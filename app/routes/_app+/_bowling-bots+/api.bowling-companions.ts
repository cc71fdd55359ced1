import type { ActionFunctionArgs } from "@remix-run/node";
import { BOWLING_ERRORS, companionBodySchema, deletedCompanionsMessage } from "#api/bowling";
import { createCompanion, deleteAllCompanions, listCompanions } from "~/models/companion.server";
import { readAccountBody } from "~/routes/_app+/_characters+/accounts-api.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { companionSchema, deleteCompanionsSchema } from "#api/responses";

/**
 * GET /api/bowling-companions → [{_id, bowling_id, supplier, consumer}] (spec 1 §7: the response is the list, like GET /api/rates answers the map itself);
 * POST {bowling_id, supplier, consumer} → 201 { companion } (400 wrong/unknown accounts,
 * 409 when the bowling account already has one);
 * DELETE (all) → { message: "Deleted N companions", deletedCount } (spec 1 §7 "Companions").
 */
export const loader = apiRoute(async function loader() {
  return Response.json(await listCompanions());
}, BOWLING_ERRORS.fetchCompanions);

export const action = apiRoute(
  async function action({ request }: ActionFunctionArgs) {
    if (request.method === "POST") {
      const body = await readAccountBody(request, companionBodySchema);
      return Response.json({ companion: await createCompanion(body) }, { status: 201 });
    }
    if (request.method === "DELETE") {
      const n = await deleteAllCompanions();
      return Response.json({ message: deletedCompanionsMessage(n), deletedCount: n });
    }
    return methodNotAllowed(["GET", "POST", "DELETE"]);
  },
  { POST: BOWLING_ERRORS.createCompanion, DELETE: BOWLING_ERRORS.deleteCompanions },
);

export const openapi = documented("/api/bowling-companions", "Bowling", {
  GET: {
    summary: "Every companion",
    description: 'Spec 1 §7 "Companions": the list itself (like GET /api/rates answers the map itself).',
    responses: { 200: z.array(companionSchema) },
  },
  POST: {
    summary: "Add a companion",
    description: 'Spec 1 §7 "Companions": a bowling account with its supplier and consumer (400 for wrong or unknown accounts).',
    body: companionBodySchema,
    example: { bowling_id: "66666666", supplier: "44444444", consumer: "55555555" },
    responses: { 201: z.object({ companion: companionSchema }) },
    errors: { 409: "That bowling account has a companion already" },
  },
  DELETE: {
    summary: "Delete every companion",
    description: 'Spec 1 §7 "Companions": `message` is "Deleted N companions".',
    responses: { 200: deleteCompanionsSchema },
  },
});
