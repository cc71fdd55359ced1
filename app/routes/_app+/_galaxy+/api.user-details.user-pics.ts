import type { ActionFunctionArgs } from "@remix-run/node";
import { handleUserPics } from "./details-handlers.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { userPicsBodySchema } from "#api/galaxy";
import { userPicsSchema } from "#api/responses";

/** POST /api/user-details/user-pics {userID, password, userIds} → { pics: { [id]: picUrl | null } } (spec 1 §7). */
export const action = apiRoute(function action({ request }: ActionFunctionArgs) {
  return handleUserPics(request);
});

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["POST"]);
});

export const openapi = documented("/api/user-details/user-pics", "Galaxy", {
  POST: {
    summary: "Pictures of several accounts",
    description: "Spec 1 §7: `pics` maps each asked id to its picture URL (null when it has none).",
    body: userPicsBodySchema,
    example: { userID: "11111111", password: "secret", userIds: ["33333333"] },
    responses: { 200: userPicsSchema },
    errors: { 502: "The Galaxy platform refused or failed the call" },
  },
});
