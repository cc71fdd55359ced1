/**
 * The programs the tests spawn as real processes (the standalone worker, the operator and
 * backup CLIs), bundled once per `vitest run` into plain ES modules, so a spawned child loads
 * one file instead of `--import tsx` resolving and transforming the app's modules one by one
 * (a worker's start: about 20 s → 13 s on the loaded 2-core machine, measured 2026-11-26).
 *
 * Same source, same esbuild transform as tsx (tsx's own esbuild), npm packages and Node
 * built-ins left as imports; only how the child loads its code differs. The tsx path itself
 * stays under test where it is the behaviour: `app/db/embedded-socket.server.test.ts` spawns
 * `node --import tsx` for the worker and the CLI, `scripts/start.test.ts` runs `npm start`.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The spawned programs, as paths from the repository root. */
export const TEST_BINS = ["jobs/worker.ts", "scripts/operator.ts", "scripts/backup.ts", "scripts/restore.ts"] as const;
export type TestBin = (typeof TEST_BINS)[number];

type Esbuild = typeof import("esbuild");

/** Bundles TEST_BINS under `outDir` (`jobs/worker.ts` → `<outDir>/jobs/worker.mjs`). */
export async function buildTestBins(root: string, outDir: string): Promise<void> {
  // tsx's esbuild: the transform the tsx-spawned programs get (the top-level one is older).
  const esbuild = createRequire(path.join(root, "node_modules/tsx/package.json"))("esbuild") as Esbuild;
  const entries = new Set(TEST_BINS.map((p) => path.join(root, p)));
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [...TEST_BINS],
    outbase: root,
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    // A module the program imports with `import()` stays its own file, loaded when it is asked
    // for, as under tsx: bundled into the entry, its packages' imports would move to the top
    // (discord.js, ~0.4 core-s, in every worker start, though only a relay session uses it).
    splitting: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node}`,
    logLevel: "warning",
    plugins: [
      {
        name: "gt-test-bins",
        setup(build) {
          // npm packages and node: built-ins load from node_modules as usual; `~/`, `#api/`,
          // `#jobs/`… are the tsconfig paths, bundled.
          build.onResolve({ filter: /^[^./~#]/ }, (args) => ({ path: args.path, external: true }));
          // A module that finds files next to itself (the migrations, @bull-board's assets)
          // keeps its own location; an entry keeps the bundle's, for its "am I the entry" check.
          build.onLoad({ filter: /\.(ts|tsx|mts)$/ }, async (args) => {
            let text = await fs.promises.readFile(args.path, "utf8");
            if (!entries.has(args.path) && text.includes("import.meta.")) {
              text = text
                .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
                .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
                .replaceAll("import.meta.filename", JSON.stringify(args.path));
            }
            return { contents: text, loader: args.path.endsWith("x") ? "tsx" : "ts" };
          });
        },
      },
    ],
  });
}

/**
 * The node arguments that run `script` (a TEST_BINS path): its bundle when the vitest run made
 * them (GT_TEST_BIN_DIR, set by tests/setup/vitest.setup.ts), else `--import tsx <script>`
 * (benchmarks and other callers outside vitest).
 */
export function nodeArgsFor(script: TestBin): string[] {
  const dir = process.env.GT_TEST_BIN_DIR;
  if (dir) {
    const bundled = path.join(dir, script.replace(/\.ts$/, ".mjs"));
    if (fs.existsSync(bundled)) return [bundled];
  }
  return ["--import", "tsx", script];
}
