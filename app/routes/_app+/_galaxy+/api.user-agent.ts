import type { ActionFunctionArgs } from "@remix-run/node";
import { handleUserAgents } from "./details-handlers.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/**
 * POST /api/user-agent (spec 1 §7): a map of account id → {headers, sek, device, id, nick}.
 * → { success: true, registered, skipped }; entries without or with unparsable headers are
 * skipped and logged (spec 1 §5). Failure: 500 { error: "Failed to set user agents" }.
 */
export const action = apiRoute(function action({ request }: ActionFunctionArgs) {
  return handleUserAgents(request);
});

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
