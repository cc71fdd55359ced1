/**
 * First-load weight of every section (printed figures, not asserted). See bench/README.md.
 *
 *   node --import tsx bench/first-load.ts
 *
 * 1. Builds the app into build-bench/ (or reuses BENCH_BUILD_DIR).
 * 2. For each section URL, takes the exact set of JavaScript files the browser loads on a
 *    first (document) visit from Remix's own asset manifest (the server build's `assets`
 *    export, the same object that writes the page's `<link rel="modulepreload">` tags):
 *    the client entry and its imports, plus `module` and `imports` of every matched route
 *    (root, `routes/_app+/_layout`, the section's route). Each file is gzipped with
 *    node:zlib at level 9 (what a precompressing CDN would send; `compression` in server.ts
 *    uses the default level 6, a few per cent larger).
 * 3. Starts the production server (server.ts) with a fresh DATA_DIR (embedded PGlite, no
 *    Redis, no worker), creates the first operator through /setup (a real session cookie)
 *    and three planet sequences (Trading Planets then shows its drag handles), GETs each
 *    section and counts the HTML bytes (uncompressed) and checks that every
 *    `modulepreload` of the page is in the manifest set (so the figure is what the page loads).
 *
 * 4. Opens each section in Chromium (/usr/bin/chromium, or CHROMIUM_PATH) with that session
 *    and waits until the network is idle (no request for 500 ms), then sums every JavaScript
 *    file the page fetched — the preloaded ones and whatever the page imports by itself
 *    before any user action (issue 32 item 4: lazy chunks fetched right after load count).
 *    Each file is gzipped at level 9 as above. The aim is printed beside each figure, with
 *    "MISSED" where a section is over it, and the files fetched after load are named.
 *
 * Environment: BENCH_BUILD_DIR (reuse a build), BENCH_SECTIONS (comma-separated URLs),
 * BENCH_BROWSER=0 (skip step 4).
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import zlib from "node:zlib";
import { freePort, request, startServer } from "./net";
import { removeRedisKeysAtEnd, type Cleanup } from "./db";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** Every section screen of the shell's menu (spec: each section's first load ≤ 150 KB gzip). */
const SECTIONS = (process.env.BENCH_SECTIONS ?? "/exchange-rates,/gifts,/characters,/trading-planets,/galacord,/collections,/logs,/settings").split(",");
const BUDGET_KB = 150;

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; module: string; imports?: string[] };
type AssetsManifest = { entry: { module: string; imports: string[] }; routes: Record<string, ManifestRoute> };

/**
 * The matched route chain for a static URL (every section URL is static): the route whose
 * joined path equals the URL, with its ancestors. Index routes and resource routes (no
 * default export, so their module is an empty chunk) never match a section URL.
 */
export function matchStatic(routes: Record<string, ManifestRoute>, url: string): ManifestRoute[] {
  const fullPath = (r: ManifestRoute): string => {
    const own = (r.path ?? "").replace(/^\/|\/$/g, "");
    const parent = r.parentId ? fullPath(routes[r.parentId]) : "";
    return [parent, own].filter(Boolean).join("/");
  };
  const want = url.replace(/^\/|\/$/g, "");
  const leaf = Object.values(routes).find((r) => !r.index && r.path !== undefined && fullPath(r) === want);
  if (!leaf) throw new Error(`no route matches ${url}`);
  const chain: ManifestRoute[] = [];
  for (let r: ManifestRoute | undefined = leaf; r; r = r.parentId ? routes[r.parentId] : undefined) chain.unshift(r);
  return chain;
}

export function firstLoadFiles(assets: AssetsManifest, url: string): { routes: string[]; files: string[] } {
  const chain = matchStatic(assets.routes, url);
  const files = new Set<string>([assets.entry.module, ...assets.entry.imports]);
  for (const r of chain) for (const f of [r.module, ...(r.imports ?? [])]) files.add(f);
  return { routes: chain.map((r) => r.id), files: [...files] };
}

const children: ChildProcess[] = [];
const cleanups: Cleanup[] = [];

/** kB = 1,000 bytes, as Vite prints them. */
const kb = (n: number) => (n / 1000).toFixed(1);

async function main() {
  console.log(`# First-load weight — ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );

  let buildDir = process.env.BENCH_BUILD_DIR;
  if (!buildDir) {
    buildDir = "build-bench";
    process.stdout.write("building the app into build-bench … ");
    const t = performance.now();
    const built = spawnSync("npx", ["remix", "vite:build"], { cwd: ROOT, env: { ...process.env, BUILD_DIR: buildDir }, stdio: ["ignore", "ignore", "pipe"] });
    if (built.status !== 0) throw new Error(`build failed:\n${built.stderr.toString().slice(-3000)}`);
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  }
  const serverBuild = path.resolve(ROOT, buildDir, "server/index.js");
  const { assets } = (await import(pathToFileURL(serverBuild).href)) as { assets: AssetsManifest };
  const clientDir = path.resolve(ROOT, buildDir, "client");

  const sizes = new Map<string, { raw: number; gzip: number }>();
  const size = (file: string) => {
    let s = sizes.get(file);
    if (!s) {
      const bytes = fs.readFileSync(path.join(clientDir, file));
      s = { raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
      sizes.set(file, s);
    }
    return s;
  };

  // --- The production server, a fresh embedded database, one operator --------------------
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-first-load-"));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    BUILD_DIR: buildDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    RUN_WORKER: "false",
    START_REDIS: "false",
    APP_SECRET: crypto.randomBytes(24).toString("hex"),
    QUEUE_PREFIX: `gt-first-load-${process.pid}`,
  };
  removeRedisKeysAtEnd(cleanups, env.QUEUE_PREFIX!);
  delete env.DATABASE_URL;
  delete env.PGLITE_DIR;
  await startServer(env, children);
  const origin = `http://127.0.0.1:${port}`;
  const password = crypto.randomBytes(12).toString("hex");
  const form = new URLSearchParams({ name: "bench", password, confirmPassword: password }).toString();
  const setup = await request(port, "POST", "/setup", { "content-type": "application/x-www-form-urlencoded", origin }, form);
  const cookie = [setup.headers["set-cookie"] ?? []]
    .flat()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (setup.status !== 302 || !cookie) throw new Error(`/setup → ${setup.status} ${setup.body.toString().slice(0, 300)}`);
  // Trading Planets with sequences: the list renders its drag handles (dnd-kit must not load until a drag starts).
  for (const name of ["Bench one", "Bench two", "Bench three"]) {
    const body = JSON.stringify({ name, sequence: [{ planetType: "ring" }] });
    const made = await request(port, "POST", "/api/planet-sequences", { "content-type": "application/json", origin, cookie }, body);
    if (made.status !== 201) throw new Error(`POST /api/planet-sequences → ${made.status} ${made.body.toString().slice(0, 300)}`);
  }

  console.log(`JS: client entry + every matched route's module and imports (Remix asset manifest of ${buildDir}); gzip = node:zlib level 9, per file, summed`);
  console.log(`HTML: GET as a logged-in operator, empty database but three planet sequences, uncompressed bytes (and gzip level 9)\n`);
  console.log("| section           | JS files | JS raw kB | JS gzip kB | HTML bytes | HTML gzip | largest files (gzip kB)");
  console.log("|-------------------|----------|-----------|------------|------------|-----------|------------------------");
  const notes: string[] = [];
  for (const url of SECTIONS) {
    const { files } = firstLoadFiles(assets, url);
    const per = files.map((f) => ({ f, ...size(f) }));
    const raw = per.reduce((n, x) => n + x.raw, 0);
    const gz = per.reduce((n, x) => n + x.gzip, 0);
    const res = await request(port, "GET", url, { cookie });
    if (res.status !== 200) notes.push(`${url}: status ${res.status}`);
    const html = res.body;
    const preloads = [...html.toString().matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
    const missing = preloads.filter((p) => !files.includes(p));
    const unlisted = files.filter((f) => !preloads.includes(f));
    if (missing.length || unlisted.length)
      notes.push(
        `${url}: page preloads differ from the manifest set (extra on page: ${missing.join(", ") || "none"}; not preloaded: ${unlisted.join(", ") || "none"})`,
      );
    const top = per
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 4)
      .map((x) => `${path.basename(x.f).replace(/-[\w-]{8}\.js$/, "")} ${kb(x.gzip)}`)
      .join(", ");
    const over = gz / 1000 > BUDGET_KB ? " (over 150)" : "";
    console.log(
      `| ${url.padEnd(17)} | ${String(files.length).padStart(8)} | ${kb(raw).padStart(9)} | ${(kb(gz) + over).padStart(10)} | ${String(html.length).padStart(10)} | ${String(zlib.gzipSync(html, { level: 9 }).length).padStart(9)} | ${top}`,
    );
  }
  console.log(`\nAim: at most ${BUDGET_KB} kB gzip of JavaScript for any section's first load.`);
  for (const n of notes) console.log(`note: ${n}`);
  if (process.env.BENCH_BROWSER !== "0") await inBrowser(origin, cookie, assets, size);
}

/** Step 4: what Chromium fetches for each section until the network is idle, without any user action. */
async function inBrowser(origin: string, cookie: string, assets: AssetsManifest, size: (file: string) => { raw: number; gzip: number }) {
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
  try {
    const context = await browser.newContext();
    const [name, value] = cookie.split(";")[0]!.split("=");
    await context.addCookies([{ name: name!, value: value!, url: origin }]);
    console.log(`\n## In Chromium, until the network is idle (no user action): every JavaScript file the page fetched, gzip level 9 per file, summed`);
    console.log("| section           | JS files | JS gzip kB | aim     | fetched after the preloads (gzip kB) | load  |");
    console.log("|-------------------|----------|------------|---------|--------------------------------------|-------|");
    const missed: string[] = [];
    for (const url of SECTIONS) {
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on("request", (req) => {
        if (req.resourceType() === "script" && req.url().startsWith(origin)) scripts.add(new URL(req.url()).pathname);
      });
      await page.goto(`${origin}${url}`, { waitUntil: "networkidle", timeout: 120_000 });
      const preloaded = new Set(firstLoadFiles(assets, url).files);
      const files = [...scripts].filter((f) => f.startsWith("/assets/"));
      const gz = files.reduce((n, f) => n + size(f).gzip, 0);
      const late = files
        .filter((f) => !preloaded.has(f))
        .map((f) => `${path.basename(f).replace(/-[\w-]{8}\.js$/, "")} ${kb(size(f).gzip)}`)
        .join(", ");
      const over = gz / 1000 > BUDGET_KB;
      if (over) missed.push(`${url}: ${kb(gz)} kB gzip > ${BUDGET_KB}`);
      console.log(
        `| ${url.padEnd(17)} | ${String(files.length).padStart(8)} | ${kb(gz).padStart(10)} | ${(over ? "MISSED" : "met").padEnd(7)} | ${(late || "none").padEnd(36)} | ${os.loadavg()[0]!.toFixed(2).padStart(5)} |`,
      );
      await page.close();
    }
    console.log(missed.length ? `\nMISSED (${missed.length}): ${missed.join("; ")}` : "\nEvery section within the aim.");
  } finally {
    await browser.close();
  }
}

async function cleanup() {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined)));
  for (const fn of cleanups) await fn().catch((err: Error) => console.warn("cleanup:", err.message));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main()
    .finally(cleanup)
    .then(
      () => process.exit(0),
      (err: Error) => {
        console.error(err.stack ?? err.message);
        process.exit(1);
      },
    );
}
