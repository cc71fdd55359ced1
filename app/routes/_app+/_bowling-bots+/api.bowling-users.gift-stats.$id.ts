import type { ActionFunctionArgs } from "@remix-run/node";
import { detailLoader, handleDetail } from "~/routes/_app+/_galaxy+/details-handlers.server";
import { apiRoute } from "~/utils/api.server";

/** POST /api/bowling-users/gift-stats/{id} (spec 1 §7); the same handler as /api/user-details/gift-stats/{id}. */
export const action = apiRoute(function action({ request, params }: ActionFunctionArgs) {
  return handleDetail(request, "gift-stats", params.id);
});

export const loader = apiRoute(function loader() {
  return detailLoader("gift-stats");
});
