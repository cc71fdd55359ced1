import path from "node:path";
import { UNSAFE_defineRoutes } from "@remix-run/dev";
import { appRoutes } from "~/routes.manifest";
import type { RouteModules } from "./openapi.server";

/**
 * The /api route modules read through the route table (app/routes.manifest.ts, the function
 * the build uses), for programs that run outside Vite: `npm run openapi` and the tests. The
 * served document reads the same modules through Vite's glob (api.openapi[.]json.ts); the
 * contract test holds the two equal.
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
    const module = (await import(/* @vite-ignore */ path.join(appDir, route.file))) as RouteModules[string];
    out.push({ id: route.id, file: route.file, path: full, module });
  }
  return out;
}
