import type { ActionFunctionArgs } from "@remix-run/node";
import { BOWLING_ERRORS } from "#api/bowling";
import { removeBowlingUser } from "~/models/bowling-user.server";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { publicUserSchema } from "#api/responses";

/**
 * DELETE /api/bowling-users/{id} (spec 1 §7), id = `_id` or account id of a bowling account
 * → { success: true, user }; 404 "Bowling user not found" (also for accounts of other types).
 * Its details row, selections and companion go with it.
 */
export const action = apiRoute(async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed(["DELETE"]);
  const user = await removeBowlingUser(params.id ?? "");
  return Response.json({ success: true, user });
}, BOWLING_ERRORS.deleteUser);

export const loader = apiRoute(function loader() {
  return methodNotAllowed(["DELETE"]);
});

export const openapi = documented("/api/bowling-users/{id}", "Bowling", {
  DELETE: {
    summary: "Delete a bowling account",
    description: "Spec 1 §7: deletes the bowling account whose `_id` or account id is `id`.",
    params: z.object({ id: z.string().describe("The account's `_id` or Galaxy account id") }),
    responses: { 200: z.object({ success: z.literal(true), user: publicUserSchema }) },
    errors: { 404: "Bowling user not found (also for accounts of other types)" },
  },
});
