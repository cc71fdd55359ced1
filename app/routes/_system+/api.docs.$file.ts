import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, jsonError, methodNotAllowed } from "~/http/api.server";
import { docsAsset } from "~/utils/api-docs-page.server";

/**
 * GET /api/docs/{file}: the reference page's scripts, styles and icon, from the app's own
 * copy of swagger-ui-dist. The page asks for them with `?v=<version>`, so they may be kept.
 */
export const loader = apiRoute(function loader({ params }: LoaderFunctionArgs) {
  const asset = docsAsset(params.file ?? "");
  if (!asset) return jsonError(404, "Not found");
  return new Response(new Uint8Array(asset.body), {
    headers: { "Content-Type": asset.type, "Cache-Control": "private, max-age=86400" },
  });
});

export const action = apiRoute(() => methodNotAllowed(["GET"]));
