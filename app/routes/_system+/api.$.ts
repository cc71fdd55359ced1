import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, jsonError } from "~/utils/api.server";

// Any /api path no resource route claims: JSON 404, never the HTML app.
function notFound({ request }: LoaderFunctionArgs | ActionFunctionArgs) {
  return jsonError(404, `No API route for ${request.method} ${new URL(request.url).pathname}`);
}

export const loader = apiRoute(notFound);
export const action = apiRoute(notFound);
