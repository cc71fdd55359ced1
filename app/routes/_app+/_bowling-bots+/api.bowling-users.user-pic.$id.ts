import type { ActionFunctionArgs } from "@remix-run/node";
import { detailLoader, handleDetail } from "~/routes/_app+/_galaxy+/details-handlers.server";
import { apiRoute } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { credentialsSchema } from "#api/galaxy";
import { userPicSchema } from "#api/responses";

/** POST /api/bowling-users/user-pic/{id} (spec 1 §7); the same handler as /api/user-details/user-pic/{id}. */
export const action = apiRoute(function action({ request, params }: ActionFunctionArgs) {
  return handleDetail(request, "user-pic", params.id);
});

export const loader = apiRoute(function loader() {
  return detailLoader("user-pic");
});

export const openapi = documented("/api/bowling-users/user-pic/{id}", "Bowling", {
  POST: {
    summary: "An account's picture",
    description:
      "Spec 1 §7: the same call as `POST /api/user-details/user-pic/{id}`, read from the Galaxy platform with the body's credentials " +
      "(`userID` alone: that stored account's password). Header `X-Skip-Cache: true` asks for a fresh platform call.",
    params: z.object({ id: z.string().describe("The Galaxy account id to read") }),
    body: credentialsSchema,
    example: { userID: "11111111", password: "secret" },
    responses: { 200: userPicSchema },
    errors: { 502: "The Galaxy platform refused or failed the call" },
  },
});
