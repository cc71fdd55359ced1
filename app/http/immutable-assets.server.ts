/**
 * The production build's hashed assets (`/assets/*`: scripts, stylesheets, icons) served from
 * memory, each compressed once per encoding (issue 32 item 7; docs/decisions/0052).
 *
 * A file under /assets never changes: its name carries its content's hash, and a new build is a
 * new process. Yet `express.static` behind `compression` paid for every request as if it might:
 * a stat, an open, a read and a close, then Brotli (quality 4) of the whole body again. A first
 * page load asks for ~42 of them. Here the list of files is read
 * once at start, a file's bytes on its first request, and its Brotli and gzip bodies on the first
 * request that accepts them (off the event loop); after that an answer is a lookup and a write.
 *
 * What `express.static` answered is kept: the same Content-Type (Express's own lookup), the
 * year-long immutable Cache-Control, an ETag (per encoding, as a strong one must be) with 304
 * for a matching If-None-Match, HEAD without a body. Anything else (a name not in the build,
 * another method) goes to `next`, where `express.static` answers as before (404, 405).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { RequestHandler, Response } from "express";
import { COMPRESSION_THRESHOLD } from "~/utils/http-security.server";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** What compresses: text. Pictures and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|map|txt|html|xml|wasm)$/i;
const CACHE_CONTROL = "public, max-age=31536000, immutable";

type Encoding = "br" | "gzip";
type Body = { bytes: Buffer; etag: string };
type Asset = {
  type: string;
  /** The bytes' digest, which each encoding's ETag carries. */
  hash: string;
  identity: Body;
  compressible: boolean;
  encoded: Partial<Record<Encoding, Promise<Body>>>;
};

/** The `/assets` handler for `dir` (the build's `client/assets`), mounted at `/assets`. */
export function immutableAssets(dir: string): RequestHandler {
  const root = path.resolve(dir);
  const names = listFiles(root);
  const assets = new Map<string, Promise<Asset>>();

  const load = (name: string, res: Response): Promise<Asset> => {
    let asset = assets.get(name);
    if (!asset) {
      asset = fs.promises.readFile(path.join(root, name)).then((bytes) => {
        const hash = crypto.createHash("sha1").update(bytes).digest("base64url").slice(0, 27);
        return {
          // Express's lookup, as express.static's: the same types and charsets as before.
          type: String(res.type(path.extname(name)).getHeader("Content-Type")),
          hash,
          identity: { bytes, etag: `"${hash}"` },
          compressible: COMPRESSIBLE.test(name) && bytes.length >= COMPRESSION_THRESHOLD,
          encoded: {},
        };
      });
      // A read that failed (the build dir removed under a running server) is tried again next time.
      asset.catch(() => assets.delete(name));
      assets.set(name, asset);
    }
    return asset;
  };

  const encoded = (asset: Asset, encoding: Encoding): Promise<Body> => {
    let body = asset.encoded[encoding];
    if (!body) {
      const raw = asset.identity.bytes;
      const compress =
        encoding === "br"
          ? brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
          : gzip(raw, { level: 9 });
      body = compress.then((bytes) => ({ bytes, etag: `"${asset.hash}-${encoding}"` }));
      asset.encoded[encoding] = body;
    }
    return body;
  };

  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    // req.path is mounted-relative ("/router-abc.js") and already refused by the hygiene layer
    // when it climbs; only names listed from the build are read.
    let name: string;
    try {
      name = decodeURIComponent(req.path).replace(/^\/+/, "");
    } catch {
      return next();
    }
    if (!names.has(name)) return next();
    load(name, res)
      .then(async (asset) => {
        const encoding = asset.compressible ? pickEncoding(req.headers["accept-encoding"]) : "identity";
        const body = encoding === "br" || encoding === "gzip" ? await encoded(asset, encoding) : asset.identity;
        res.setHeader("Content-Type", asset.type);
        res.setHeader("Cache-Control", CACHE_CONTROL);
        res.setHeader("ETag", body.etag);
        if (asset.compressible) res.setHeader("Vary", "Accept-Encoding");
        if (encoding === "br" || encoding === "gzip") res.setHeader("Content-Encoding", encoding);
        if (req.fresh) {
          res.status(304).end();
          return;
        }
        res.setHeader("Content-Length", body.bytes.length);
        if (req.method === "HEAD") res.end();
        else res.end(body.bytes);
      })
      .catch(next);
  };
}

/** Every file under `root`, as its path from there with "/" between the parts. */
function listFiles(root: string): Set<string> {
  let entries: string[];
  try {
    entries = fs.readdirSync(root, { recursive: true, encoding: "utf8" });
  } catch {
    // No build here (yet): every request goes on to express.static, which answers 404.
    return new Set();
  }
  return new Set(entries.filter((e) => fs.statSync(path.join(root, e)).isFile()).map((e) => e.split(path.sep).join("/")));
}

/**
 * Brotli when the browser takes it at least as gladly as gzip, else gzip, else the bytes
 * themselves: as the compression middleware chose (br, then gzip, whatever order the header
 * lists them in; Chromium sends "gzip, deflate, br, zstd").
 */
export function pickEncoding(header: string | undefined): Encoding | "identity" {
  if (!header) return "identity";
  const quality = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = q ? Number(q.slice(2)) : 1;
    if (name) quality.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const of = (encoding: string) => quality.get(encoding) ?? quality.get("*") ?? 0;
  if (of("br") > 0 && of("br") >= of("gzip")) return "br";
  return of("gzip") > 0 ? "gzip" : "identity";
}
