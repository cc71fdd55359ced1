import type { ActionFunctionArgs } from "@remix-run/node";
import { ACCOUNT_ERRORS, ACCOUNT_MESSAGES, stalkerBodySchema } from "#api/accounts";
import type { StalkerStartResponse } from "#api/stalker";
import { startStalker } from "~/models/stalker.server";
import { UserError } from "~/models/user.server";
import { apiRoute, jsonError, methodNotAllowed, readJson } from "~/utils/api.server";

/**
 * POST /api/stalker/start {account_id} (spec 2 §7, §4 "Stalker"): 202 with the session's
 * status (state "connecting" until the holder sees 900). Starting a running stalker is a
 * no-op that answers its status. 400 not a stalker-type user, 404 unknown user, 503 job
 * engine offline, else "Failed to start stalker" (spec 2 §8).
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { account_id } = await readJson(request, stalkerBodySchema);
  try {
    const stalker = await startStalker(account_id);
    const body: StalkerStartResponse = { success: true, message: ACCOUNT_MESSAGES.stalkerStarted, stalker };
    return Response.json(body, { status: 202 });
  } catch (err) {
    if (err instanceof Response) throw err;
    if (err instanceof UserError) return jsonError(err.status, err.message);
    console.warn("[api/stalker] start failed:", (err as Error).message);
    return jsonError(500, ACCOUNT_ERRORS.startStalker);
  }
});

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
