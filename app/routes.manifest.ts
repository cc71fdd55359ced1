/**
 * The route convention (docs/decisions/0008-route-layout.md): remix-flat-routes "hybrid"
 * folders, one folder per section under the `_app` layout holding the screen, its /api
 * resource routes and a colocated `components/` folder.
 *
 *   app/routes/_app+/_layout.tsx                          the shell (pathless `_app`)
 *   app/routes/_app+/_exchange-rates+/exchange-rates.tsx  /exchange-rates
 *   app/routes/_app+/_exchange-rates+/api.rates.update.ts /api/rates/update
 *   app/routes/_app+/_exchange-rates+/components/…        not routes
 *
 * Used by vite.config.ts (the build) and by tests that need the real route table (the API
 * contract tests, the standing security suite), so all three agree on what is served.
 * Not a `.server` module: Vite's config imports it before any bundling.
 */
import { flatRoutes } from "remix-flat-routes";
import type { UNSAFE_DefineRoutesFunction as DefineRoutesFunction } from "@remix-run/dev";

/** Files under app/routes that are never routes. */
export const IGNORED_ROUTE_FILES = ["**/.*", "**/*.test.{ts,tsx}", "**/*.css", "**/components/**", "**/*.server.{ts,tsx}"];

export function appRoutes(defineRoutes: DefineRoutesFunction, appDir = "app") {
  return flatRoutes("routes", defineRoutes, { appDir, ignoredRouteFiles: IGNORED_ROUTE_FILES });
}
