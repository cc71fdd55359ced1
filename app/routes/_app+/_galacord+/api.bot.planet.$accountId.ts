import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { accountIdSchema, planetSchema } from "#api/galacord-schemas";
import { changePlanet } from "~/models/galacord.server";
import { apiRoute, jsonError, methodNotAllowed, readJson } from "~/utils/api.server";

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
