import type { ActionFunctionArgs } from "@remix-run/node";
import { handleUserPics } from "~/galaxy/details-handlers.server";
import { methodNotAllowed } from "~/utils/api.server";

/** POST /api/bowling-users/user-pics {userID, password, userIds} → { pics: { [id]: picUrl | null } } (spec 1 §7). */
export function action({ request }: ActionFunctionArgs) {
  return handleUserPics(request);
}

export function loader() {
  return methodNotAllowed(["POST"]);
}
