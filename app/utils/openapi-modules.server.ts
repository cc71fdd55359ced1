import fs from "node:fs";
import path from "node:path";
import { UNSAFE_defineRoutes } from "@remix-run/dev";
import { appRoutes } from "~/routes.manifest";
import type { RouteModules } from "./openapi.server";

/**
 * Every /api route of the route table (app/routes.manifest.ts, the function the build uses)
 * with its registration, the `<route>.openapi.server.ts` file beside it (`{}` when it has
 * none), for programs that run outside Vite: `npm run openapi`, the tests and the bench. The
 * served document reads the same files through Vite's glob (api.openapi[.]json.ts); the
 * contract test holds the two equal.
 *
 * Why a file beside the route and not an export of the route module: Remix keeps a route
 * module's other exports in the browser build (it strips only loader, action and headers),
 * so registrations there would put zod schemas, and the server modules some of them use, into
 * client chunks. A `.server.ts` file is never a route and never reaches the browser.
 */
export async function apiRouteModulesFromTable(
  appDir = path.resolve("app"),
): Promise<Array<{ id: string; file: string; path: string; module: RouteModules[string] }>> {
  const table = Object.values(appRoutes(UNSAFE_defineRoutes)) as Array<{ id: string; parentId?: string; path?: string; file: string }>;
  const byId = new Map(table.map((r) => [r.id, r]));
  const out = [];
  for (const route of table) {
    const parts: string[] = [];
    for (let r: (typeof table)[number] | undefined = route; r; r = r.parentId ? byId.get(r.parentId) : undefined) if (r.path) parts.unshift(r.path);
    const full = "/" + parts.join("/");
    if (full !== "/api" && !full.startsWith("/api/")) continue;
    const registration = path.join(appDir, route.file.replace(/\.tsx?$/, ".openapi.server.ts"));
    const module = fs.existsSync(registration) ? ((await import(/* @vite-ignore */ registration)) as RouteModules[string]) : {};
    out.push({ id: route.id, file: route.file, path: full, module });
  }
  return out;
}
