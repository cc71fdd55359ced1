import type { ActionFunctionArgs } from "@remix-run/node";
import { detailLoader, handleDetail } from "~/galaxy/details-handlers.server";

/** POST /api/bowling-users/status/{id} (spec 1 §7); the same handler as /api/user-details/status/{id}. */
export function action({ request, params }: ActionFunctionArgs) {
  return handleDetail(request, "status", params.id);
}

export function loader() {
  return detailLoader("status");
}
