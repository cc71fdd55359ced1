import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { accountIdSchema, updateChannelSchema } from "#api/galacord-schemas";
import { updateChannel } from "~/models/galacord.server";
import { apiRoute, jsonError, methodNotAllowed, readJson } from "~/utils/api.server";

/** POST /api/bot/update-channel/{accountId} {channelId} → { success, message, account } (a connected account reconnects). */
export const action = apiRoute(async function action({ request, params }) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const id = accountIdSchema.safeParse(params.accountId);
  if (!id.success) return jsonError(404, RELAY_ERRORS.accountNotFound);
  const { channelId } = await readJson(request, updateChannelSchema);
  return Response.json({ success: true, message: RELAY_MESSAGES.channelUpdated, account: await updateChannel(id.data, channelId) });
}, RELAY_ERRORS.updateChannel);
export const loader = apiRoute(() => methodNotAllowed(["POST"]));
