import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { documented } from "#api/openapi";
import { apiRoute, methodNotAllowed } from "~/utils/api.server";
import { etagMatches, servedOpenApi, type RouteModules } from "~/utils/openapi.server";

/**
 * Every /api route module, for their `openapi` registrations (Vite resolves the glob at build
 * time; the modules are in the server bundle anyway). Called on the first request only: this
 * module is one of them, and outside Vite (`npm run openapi`, which reads the route table
 * instead) there is no glob.
 */
const routeModules = (): RouteModules => ({
  ...import.meta.glob<RouteModules[string]>(["../**/api.*.ts", "!../**/*.test.ts", "!../**/*.server.ts"], { eager: true }),
  // The glob leaves out the module that calls it.
  [import.meta.url]: { openapi },
});

/**
 * GET /api/openapi.json (issue 33): the OpenAPI 3.1 document of every /api operation, built
 * from the routes' own zod schemas once per process, with an ETag (304 when it matches).
 * Same authentication as the rest of /api.
 */
export const loader = apiRoute(function loader({ request }: LoaderFunctionArgs) {
  const { body, etag } = servedOpenApi(routeModules);
  const headers = { ETag: etag, "Cache-Control": "private, no-cache" };
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
});

export const action = apiRoute(() => methodNotAllowed(["GET"]));

export const openapi = documented("/api/openapi.json", "System", {
  GET: {
    summary: "This document",
    description:
      "The OpenAPI 3.1 document of every /api operation, generated from the zod schemas the routes validate with. " +
      "Built once per process; sent with an `ETag` (a matching `If-None-Match` gets 304). Generate a typed client with " +
      "`npx openapi-typescript openapi.json -o galaxy-toolbox-api.d.ts` (docs/api.md).",
    responses: {
      200: z
        .looseObject({ openapi: z.literal("3.1.0"), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })
        .describe("The OpenAPI document"),
    },
  },
});
