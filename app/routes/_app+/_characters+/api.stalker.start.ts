import type { ActionFunctionArgs } from "@remix-run/node";
import { ACCOUNT_ERRORS, ACCOUNT_MESSAGES, stalkerBodySchema } from "#api/accounts";
import type { StalkerStartResponse } from "#api/stalker";
import { startStalker, startWaitMs } from "~/models/stalker.server";
import { apiRoute, methodNotAllowed, readJson } from "~/utils/api.server";

/**
 * POST /api/stalker/start {account_id, takeover?} (spec 2 §7, §4 "Stalker"). The answer says what
 * is known a few seconds after the start (api/stalker.ts): 200 "Stalker started successfully"
 * once it is up, 202 "Stalker is connecting" while the login still runs, 502 with the platform's
 * words when it was refused. Starting a running stalker answers its status. 400 not a
 * stalker-type user, 404 unknown user, 409 another purpose holds the account (`holder`; send
 * `takeover: true`), 503 job engine offline, else "Failed to start stalker" (spec 2 §8).
 */
export const action = apiRoute(async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { account_id, takeover } = await readJson(request, stalkerBodySchema);
  const { tookOver: _took, ...stalker } = await startStalker(account_id, { takeover, waitMs: startWaitMs() });
  if (stalker.state === "error") return Response.json({ ...jsonBody(stalker.error ?? ACCOUNT_ERRORS.startStalker), stalker }, { status: 502 });
  const active = stalker.state === "active";
  const body: StalkerStartResponse = { success: true, message: active ? ACCOUNT_MESSAGES.stalkerStarted : ACCOUNT_MESSAGES.stalkerConnecting, stalker };
  return Response.json(body, { status: active ? 200 : 202 });
}, ACCOUNT_ERRORS.startStalker);

function jsonBody(text: string) {
  return { error: text, message: text };
}

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
