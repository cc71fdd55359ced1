import type { ActionFunctionArgs } from "@remix-run/node";
import { handleUserPics } from "./details-handlers.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";

/** POST /api/user-details/user-pics {userID, password, userIds} → { pics: { [id]: picUrl | null } } (spec 1 §7). */
export const action = apiRoute(function action({ request }: ActionFunctionArgs) {
  return handleUserPics(request);
});

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});
