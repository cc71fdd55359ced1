import crypto from "node:crypto";
import zlib from "node:zlib";
import { buildOpenApiDocument, type OpenApiDocument, type RouteDoc } from "#api/openapi";

/** The app's version as the document's `info.version` (package.json, read once). */
const APP_VERSION = "0.1.0";

/** A route's registration: one path, or several when one route module serves several documented paths (`{kind}`). */
export type RouteModules = Record<string, { openapi?: RouteDoc | RouteDoc[] }>;

/** The registrations of these route modules (the catch-all and other non-operations have no path). */
export function registrationsOf(modules: RouteModules): RouteDoc[] {
  return Object.values(modules)
    .flatMap((m) => (m.openapi ? [m.openapi].flat() : []))
    .filter((doc) => !!doc.path);
}

export function openApiDocumentOf(modules: RouteModules): OpenApiDocument {
  return buildOpenApiDocument(registrationsOf(modules), { version: APP_VERSION });
}

type Served = { body: Buffer; gzip: Buffer; etag: string };
let served: Served | undefined;

/**
 * The document, built once per process on first use (issue 33 "Bench and limits": under
 * 10 ms after the first call; `npm run bench -- openapi` prints the figures) and served as the
 * same bytes, gzipped ahead for clients that accept it, with a strong ETag.
 */
export function servedOpenApi(modules: () => RouteModules): Served {
  if (!served) {
    const body = Buffer.from(JSON.stringify(openApiDocumentOf(modules())), "utf8");
    served = {
      body,
      // Compressed once here, not per answer by the compression middleware (http-security.server.ts PRECOMPRESSED).
      gzip: zlib.gzipSync(body, { level: 9 }),
      etag: `"${crypto.createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
    };
  }
  return served;
}

export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** The answer to GET /api/openapi.json: 304 on a matching ETag, else the bytes (gzipped when accepted). */
export function openApiAnswer(modules: () => RouteModules, ifNoneMatch: string | null, acceptEncoding: string | null): Response {
  const { body, gzip, etag } = servedOpenApi(modules);
  const headers: Record<string, string> = { ETag: etag, "Cache-Control": "private, no-cache", Vary: "Accept-Encoding" };
  if (etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  const zipped = /\bgzip\b/i.test(acceptEncoding ?? "");
  const bytes = zipped ? gzip : body;
  return new Response(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), {
    headers: { ...headers, "Content-Type": "application/json; charset=utf-8", ...(zipped ? { "Content-Encoding": "gzip" } : {}) },
  });
}
