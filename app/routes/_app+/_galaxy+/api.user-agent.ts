import type { ActionFunctionArgs } from "@remix-run/node";
import { handleUserAgents } from "./details-handlers.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { userAgentMapSchema } from "#api/galaxy";
import { userAgentSchema } from "#api/responses";

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

export const openapi = documented("/api/user-agent", "Galaxy", {
  POST: {
    summary: "Register accounts' user agents",
    description:
      "Spec 1 §7: a map of account id → `{headers, sek, device, id, nick}`. Entries without or with unparsable headers are skipped and logged (spec 1 §5). " +
      "`sek` is stored, never sent back or logged.",
    body: userAgentMapSchema,
    example: { "33333333": { headers: { "X-Galaxy-Platform": "web" }, device: "web", nick: "Kazensar" } },
    responses: { 200: userAgentSchema },
  },
});
