import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { DOCS_CSP, docsPageHtml } from "~/utils/api-docs-page.server";

/** GET /api/docs (issue 33 item 2): the reference page of /api/openapi.json, linked from Settings next to the API tokens. */
export const loader = apiRoute(function loader() {
  return new Response(docsPageHtml(), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": DOCS_CSP, "Cache-Control": "no-store" },
  });
});

export const action = apiRoute(() => methodNotAllowed(["GET"]));
