import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { openApiAnswer, type RouteModules } from "~/utils/openapi.server";

/**
 * Every /api route's registration, the `<route>.openapi.server.ts` file beside it (Vite
 * resolves the glob at build time). Called on the first request only: outside Vite
 * (`npm run openapi`, which reads the route table instead) there is no glob.
 */
const routeModules = (): RouteModules => import.meta.glob<RouteModules[string]>("../**/*.openapi.server.ts", { eager: true });

/**
 * GET /api/openapi.json (issue 33): the OpenAPI 3.1 document of every /api operation, built
 * from the routes' own zod schemas once per process, with an ETag (304 when it matches).
 * Same authentication as the rest of /api.
 */
export const loader = apiRoute(function loader({ request }: LoaderFunctionArgs) {
  return openApiAnswer(routeModules, request.headers.get("if-none-match"), request.headers.get("accept-encoding"));
});

export const action = apiRoute(() => methodNotAllowed(["GET"]));
