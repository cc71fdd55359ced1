import type { ActionFunctionArgs } from "@remix-run/node";
import { detailLoader, handleDetail } from "~/galaxy/details-handlers.server";

/** POST /api/bowling-users/collection-stats/{id} (spec 1 §7); the same handler as /api/user-details/collection-stats/{id}. */
export function action({ request, params }: ActionFunctionArgs) {
  return handleDetail(request, "collection-stats", params.id);
}

export function loader() {
  return detailLoader("collection-stats");
}
