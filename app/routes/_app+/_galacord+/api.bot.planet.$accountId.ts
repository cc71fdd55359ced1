import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { accountIdSchema, planetSchema } from "#api/galacord-schemas";
import { changePlanet } from "~/models/galacord.server";
import { apiRoute, jsonError, methodNotAllowed, readJson } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";

/**
 * POST /api/bot/planet/{accountId} {planet} → { success, message, planet } once the platform
 * confirmed (900). 409 "Not connected to Galaxy" when offline or not a saved account (spec 2 §4); 409 with the platform's reason
 * when the JOIN is refused; 504 when the relay did not answer in time.
 */
export const action = apiRoute(async function action({ request, params }) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const id = accountIdSchema.safeParse(params.accountId);
  if (!id.success) return jsonError(409, RELAY_ERRORS.notConnected);
  const { planet } = await readJson(request, planetSchema);
  return Response.json({ success: true, message: RELAY_MESSAGES.planetChanged, planet: await changePlanet(id.data, planet) });
}, RELAY_ERRORS.changePlanet);
export const loader = apiRoute(() => methodNotAllowed(["POST"]));

export const openapi = documented("/api/bot/planet/{accountId}", "GalaCord", {
  POST: {
    summary: "Move a connected account to another planet",
    description: 'Spec 2 §7 "GalaCord": answers once the platform confirms the move.',
    params: z.object({ accountId: z.string().describe("The Galaxy account id") }),
    body: planetSchema,
    example: { planet: "Mars" },
    responses: { 200: z.object({ success: z.literal(true), message: z.string(), planet: z.string() }) },
    errors: { 404: "No saved account with that id", 409: "Not connected", 502: "The Galaxy platform refused the move or failed" },
  },
});
