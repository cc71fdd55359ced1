import type { ActionFunctionArgs } from "@remix-run/node";
import { RATE_MESSAGES } from "#api/rates";
import { deleteRatePair } from "~/models/rate.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { successSchema } from "#api/responses";

/**
 * DELETE /api/rates/{inputItem}/{outputItem} (spec 1 §7 "Rates"): deletes one pair by its
 * gift names, URL-encoded (`/api/rates/Fire%20Cannon%20Ball/Gold%20Ring`; Remix hands the
 * route the decoded names). → 200 { success: true }; 404 { error } when there is no such pair.
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  if (!(await deleteRatePair(params.inputItem ?? "", params.outputItem ?? ""))) return jsonError(404, RATE_MESSAGES.notFound);
  return Response.json({ success: true });
}, RATE_MESSAGES.deleteFailed());

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["DELETE"]);
});

export const openapi = documented("/api/rates/{inputItem}/{outputItem}", "Exchange rates", {
  DELETE: {
    summary: "Delete a pair by its names",
    description: 'Spec 1 §7 "Rates": deletes one pair by its gift names (URL-encoded).',
    params: z.object({ inputItem: z.string().describe("The input gift's name"), outputItem: z.string().describe("The output gift's name") }),
    responses: { 200: successSchema },
    errors: { 404: "No pair with these names" },
  },
});
