import type { ActionFunctionArgs } from "@remix-run/node";
import { ACCOUNT_ERRORS, ACCOUNT_MESSAGES, stalkerBodySchema } from "#api/accounts";
import type { StalkerStopResponse } from "#api/stalker";
import { stopStalker } from "~/models/stalker.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";

/**
 * POST /api/stalker/stop {account_id} (spec 2 §7, §4 "Stalker"): marks it stopped and inactive
 * at once; the worker holding it sends `QUIT :ds` and ends the job. 200 with the status (null
 * when it never ran). Works while Redis is down (the holder polls). 404 unknown user, 400 a
 * non-stalker user without a session, else "Failed to stop stalker" (spec 2 §8).
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { account_id } = await readJson(request, stalkerBodySchema);
  const stalker = await stopStalker(account_id);
  const body: StalkerStopResponse = { success: true, message: ACCOUNT_MESSAGES.stalkerStopped, stalker };
  return Response.json(body, { status: 200 });
}, ACCOUNT_ERRORS.stopStalker);

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
