import type { ActionFunctionArgs } from "@remix-run/node";
import { handleUserPics } from "~/routes/_app+/_galaxy+/details-handlers.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** POST /api/bowling-users/user-pics {userID, password, userIds} → { pics: { [id]: picUrl | null } } (spec 1 §7). */
export const action = apiRoute(function action({ request }: ActionFunctionArgs) {
  return handleUserPics(request);
});

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
