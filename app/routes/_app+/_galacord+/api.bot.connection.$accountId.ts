import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { accountIdSchema } from "#api/galacord-schemas";
import { deleteAccount } from "~/models/galacord.server";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";

/** DELETE /api/bot/connection/{accountId} → { success, message }: the saved account (and its code) goes; the holder disconnects it. */
export const action = apiRoute(async function action({ request, params }) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const id = accountIdSchema.safeParse(params.accountId);
  if (!id.success) return jsonError(404, RELAY_ERRORS.accountNotFound);
  await deleteAccount(id.data);
  return Response.json({ success: true, message: RELAY_MESSAGES.deleted });
}, RELAY_ERRORS.deleteAccount);
export const loader = apiRoute(() => methodNotAllowed(["DELETE"]));
