import type { ActionFunctionArgs } from "@remix-run/node";
import { detailLoader, handleDetail } from "~/routes/_app+/_galaxy+/details-handlers.server";
import { apiRoute } from "~/utils/api.server";

/** POST /api/bowling-users/user-pic/{id} (spec 1 §7); the same handler as /api/user-details/user-pic/{id}. */
export const action = apiRoute(function action({ request, params }: ActionFunctionArgs) {
  return handleDetail(request, "user-pic", params.id);
});

export const loader = apiRoute(function loader() {
  return detailLoader("user-pic");
});
