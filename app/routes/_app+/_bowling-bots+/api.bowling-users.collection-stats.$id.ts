import type { ActionFunctionArgs } from "@remix-run/node";
import { detailLoader, handleDetail } from "~/routes/_app+/_galaxy+/details-handlers.server";
import { apiRoute } from "~/utils/api.server";
import { documented } from "#api/openapi";
import { z } from "zod";
import { collectionStatsBodySchema } from "#api/galaxy";
import { collectionStatsSchema } from "#api/responses";

/** POST /api/bowling-users/collection-stats/{id} (spec 1 §7); the same handler as /api/user-details/collection-stats/{id}. */
export const action = apiRoute(function action({ request, params }: ActionFunctionArgs) {
  return handleDetail(request, "collection-stats", params.id);
});

export const loader = apiRoute(function loader() {
  return detailLoader("collection-stats");
});

export const openapi = documented("/api/bowling-users/collection-stats/{id}", "Bowling", {
  POST: {
    summary: "An account's collection statistics",
    description:
      "Spec 1 §7: the same call as `POST /api/user-details/collection-stats/{id}`, read from the Galaxy platform with the body's credentials " +
      "(`userID` alone: that stored account's password). Header `X-Skip-Cache: true` asks for a fresh platform call.",
    params: z.object({ id: z.string().describe("The Galaxy account id to read") }),
    body: collectionStatsBodySchema,
    example: { userID: "11111111", password: "secret", collectionId: 178 },
    responses: { 200: collectionStatsSchema },
    errors: { 502: "The Galaxy platform refused or failed the call" },
  },
});
