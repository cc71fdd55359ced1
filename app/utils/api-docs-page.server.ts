import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The /api reference page (issue 33 item 2): Swagger UI's standalone bundle from the
 * `swagger-ui-dist` package, served by the app itself (it runs offline: no CDN), on its own
 * HTML page outside the Remix app, so none of it touches the app pages' bundles or their
 * first-load budget.
 */
const require = createRequire(import.meta.url);
const PACKAGE_DIR = path.dirname(require.resolve("swagger-ui-dist/package.json"));
export const SWAGGER_UI_VERSION = (require("swagger-ui-dist/package.json") as { version: string }).version;

/** Our initializer: an external script, since the page's CSP lets no inline script run. */
const INIT_JS = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    displayOperationId: false,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    tryItOutEnabled: false,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
`;

/** The files the page loads: name → package file (or our own text) and type. */
const ASSETS: Record<string, { file?: string; text?: string; type: string }> = {
  "swagger-ui-bundle.js": { file: "swagger-ui-bundle.js", type: "text/javascript; charset=utf-8" },
  "swagger-ui.css": { file: "swagger-ui.css", type: "text/css; charset=utf-8" },
  "favicon-32x32.png": { file: "favicon-32x32.png", type: "image/png" },
  "init.js": { text: INIT_JS, type: "text/javascript; charset=utf-8" },
};

const cache = new Map<string, Buffer>();

/** One asset's bytes and type, or null for a name the page does not use. Read once per process. */
export function docsAsset(name: string): { body: Buffer; type: string } | null {
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset) return null;
  let body = cache.get(name);
  if (!body) {
    body = asset.file ? fs.readFileSync(path.join(PACKAGE_DIR, asset.file)) : Buffer.from(asset.text ?? "", "utf8");
    cache.set(name, body);
  }
  return { body, type: asset.type };
}

/**
 * The page's own policy (an /api answer otherwise gets `default-src 'none'`): scripts and
 * styles from this origin only (Swagger UI sets inline styles), the document fetched from here.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export function docsPageHtml(): string {
  const v = encodeURIComponent(SWAGGER_UI_VERSION);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Galaxy Toolbox</title>
<link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png?v=${v}">
<link rel="stylesheet" href="/api/docs/swagger-ui.css?v=${v}">
</head>
<body>
<p style="margin:12px 20px;font-family:sans-serif"><a href="/settings">← Galaxy Toolbox settings</a> · <a href="/api/openapi.json">openapi.json</a></p>
<div id="swagger-ui"><noscript>This page renders /api/openapi.json with JavaScript. Without it, read the document itself: <a href="/api/openapi.json">/api/openapi.json</a>.</noscript></div>
<script src="/api/docs/swagger-ui-bundle.js?v=${v}"></script>
<script src="/api/docs/init.js?v=${v}"></script>
</body>
</html>
`;
}
