import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { documented } from "#api/openapi";
import { apiRoute, jsonError, methodNotAllowed } from "~/utils/api.server";
import { DOCS_ASSET_NAMES, docsAsset } from "~/utils/api-docs-page.server";

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

export const openapi = documented("/api/docs/{file}", "System", {
  GET: {
    summary: "A file of the reference page",
    description: "Swagger UI's script, stylesheet and icon, and the page's initializer.",
    params: z.object({ file: z.enum(DOCS_ASSET_NAMES as [string, ...string[]]).describe("The file's name") }),
    responses: { 200: { description: "The file", contentType: "application/octet-stream", schema: z.string() } },
    errors: { 404: "No such file" },
  },
});
