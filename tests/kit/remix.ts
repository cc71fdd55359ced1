/**
 * A Remix request handler over the app's real route table (app/routes.manifest.ts, the
 * same function the Vite build uses), for tests that go through Remix's own URL decoding
 * and route ranking without a build. Only the chosen routes' modules are loaded; their
 * layouts are placeholders (a resource request runs only its own route's code). Actions are
 * wrapped by the route guard (roles, audit trail) exactly as in production.
 */
import path from "node:path";
import { UNSAFE_defineRoutes } from "@remix-run/dev";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { createRequestHandler as createExpressHandler } from "@remix-run/express";
import express, { type Express } from "express";
import { createAuthGate } from "~/http/auth-gate.server";
import { trackStreamConnections } from "~/http/stream-limits.server";
import { appRoutes } from "~/routes.manifest";
import { guardBuild } from "~/http/route-guard.server";

export type RouteEntry = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean; file: string };

/**
 * The route files are read once per process: remix-flat-routes walks app/routes and matches
 * every file against its globs, and `fullPath` asked for the table once per route (the security
 * suite's fuzz: 52 → 39 core-seconds once read once). The entries are frozen: no caller
 * changes the table the next one reads.
 */
let routeFiles: readonly RouteEntry[] | null = null;
export function routeTable(): RouteEntry[] {
  routeFiles ??= Object.freeze((Object.values(appRoutes(UNSAFE_defineRoutes)) as RouteEntry[]).map((r) => Object.freeze({ ...r })));
  return [...routeFiles];
}

/** The full URL path of a route (pathless layouts add nothing). */
export function fullPath(route: RouteEntry, table = routeTable()): string {
  const byId = new Map(table.map((r) => [r.id, r]));
  const parts: string[] = [];
  for (let r: RouteEntry | undefined = route; r; r = r.parentId ? byId.get(r.parentId) : undefined) if (r.path) parts.unshift(r.path);
  return "/" + parts.join("/");
}

export async function remixHandler(wanted: (route: RouteEntry) => boolean): Promise<(request: Request) => Promise<Response>> {
  // As server.ts does: every action behind the roles guard and the audit trail.
  return createRequestHandler(await remixBuild(wanted), "production");
}

/**
 * The guarded build remixHandler serves (for an Express app: `@remix-run/express`). `entry`
 * replaces the stub document entry, e.g. with app/entry.server.tsx's exports.
 */
export async function remixBuild(wanted: (route: RouteEntry) => boolean, options: { entry?: ServerBuild["entry"]["module"] } = {}): Promise<ServerBuild> {
  const table = routeTable();
  const chosen = table.filter(wanted);
  const routes: ServerBuild["routes"] = { root: { id: "root", path: "", module: { default: () => null } as never } };
  for (const r of chosen) {
    routes[r.id] = {
      id: r.id,
      parentId: r.parentId,
      path: r.path,
      index: r.index,
      caseSensitive: r.caseSensitive,
      module: await import(/* @vite-ignore */ path.resolve("app", r.file)),
    };
  }
  // Layouts above the chosen routes only place them in the tree.
  let added = true;
  while (added) {
    added = false;
    for (const r of table) {
      if (!routes[r.id] && Object.values(routes).some((c) => c?.parentId === r.id)) {
        routes[r.id] = { id: r.id, parentId: r.parentId, path: r.path, index: r.index, module: {} as never };
        added = true;
      }
    }
  }
  const build = {
    mode: "production",
    entry: { module: options.entry ?? { default: () => new Response("document requests are not part of this test", { status: 500 }) } },
    routes,
    assets: { entry: { module: "", imports: [] }, routes: {}, url: "", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "",
    basename: undefined,
    isSpaMode: false,
    future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_singleFetch: true, v3_lazyRouteDiscovery: true },
  } as unknown as ServerBuild;
  return guardBuild(build);
}

/**
 * An Express app as server.ts builds it, over the chosen routes: the `/healthz` probe, the
 * auth gate, then Remix through `@remix-run/express` (whose request signal aborts when the
 * client's socket closes), actions behind the route guard. Serve it over real HTTP.
 */
export async function expressApp(wanted: (route: RouteEntry) => boolean): Promise<Express> {
  const app = express();
  app.set("trust proxy", "loopback");
  app.get("/healthz", (_req, res) => void res.type("text/plain").send("ok"));
  app.use(createAuthGate());
  app.use("/api/events", trackStreamConnections());
  app.all("*", createExpressHandler({ build: guardBuild(await remixBuild(wanted)), mode: "production" }));
  return app;
}
