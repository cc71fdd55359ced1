import crypto from "node:crypto";
import { buildOpenApiDocument, type OpenApiDocument, type RouteDoc } from "#api/openapi";

/** The app's version as the document's `info.version` (package.json, read once). */
const APP_VERSION = "0.1.0";

export type RouteModules = Record<string, { openapi?: RouteDoc }>;

/** The registrations of these route modules (the catch-all and other non-operations have no path). */
export function registrationsOf(modules: RouteModules): RouteDoc[] {
  return Object.values(modules)
    .map((m) => m.openapi)
    .filter((doc): doc is RouteDoc => !!doc?.path);
}

export function openApiDocumentOf(modules: RouteModules): OpenApiDocument {
  return buildOpenApiDocument(registrationsOf(modules), { version: APP_VERSION });
}

type Served = { body: string; etag: string };
let served: Served | undefined;

/**
 * The document, built once per process on first use (issue 33 "Bench and limits": under
 * 10 ms after the first call; bench/openapi.ts prints the figures) and served as the same
 * bytes with a strong ETag.
 */
export function servedOpenApi(modules: () => RouteModules): Served {
  if (!served) {
    const body = JSON.stringify(openApiDocumentOf(modules()));
    served = { body, etag: `"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
  }
  return served;
}

export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
