import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { detailLoader, handleDetail } from "./details-handlers.server";
import { apiRoute } from "~/utils/api.server";

/**
 * POST /api/user-details/{gift-stats|user-pic|status|collection-stats}/{id} (spec 1 §7).
 * Body {userID, password} (collection-stats also takes an optional collectionId 151/161/178);
 * header X-Skip-Cache. See api/galaxy.ts for the answers; an unknown kind is a 404.
 */
export const action = apiRoute(function action({ request, params }: ActionFunctionArgs) {
  return handleDetail(request, params.kind, params.id);
});

export const loader = apiRoute(function loader({ params }: LoaderFunctionArgs) {
  return detailLoader(params.kind);
});
