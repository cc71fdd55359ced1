import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { accountIdSchema, updateChannelSchema } from "#api/galacord-schemas";
import { updateChannel } from "~/models/galacord.server";
import { apiRoute, jsonError, methodNotAllowed, readJson } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { accountAnswerSchema } from "#api/responses";

/** POST /api/bot/update-channel/{accountId} {channelId} → { success, message, account } (a connected account reconnects). */
export const action = apiRoute(async function action({ request, params }) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const id = accountIdSchema.safeParse(params.accountId);
  if (!id.success) return jsonError(404, RELAY_ERRORS.accountNotFound);
  const { channelId } = await readJson(request, updateChannelSchema);
  return Response.json({ success: true, message: RELAY_MESSAGES.channelUpdated, account: await updateChannel(id.data, channelId) });
}, RELAY_ERRORS.updateChannel);
export const loader = apiRoute(() => methodNotAllowed(["POST"]));

export const openapi = documented("/api/bot/update-channel/{accountId}", "GalaCord", {
  POST: {
    summary: "Move a saved account to another channel",
    description: 'Spec 2 §7 "GalaCord": a connected account reconnects to the new channel.',
    params: z.object({ accountId: z.string().describe("The Galaxy account id") }),
    body: updateChannelSchema,
    example: { channelId: "100000000000000002" },
    responses: { 200: accountAnswerSchema },
    errors: { 404: "No saved account with that id, or unknown channel" },
  },
});
