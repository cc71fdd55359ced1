import { vitePlugin as remix } from "@remix-run/dev";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, transformWithEsbuild, type Plugin } from "vite";
import { appRoutes } from "./app/routes.manifest";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const alias = [
  { find: /^~\//, replacement: fileURLToPath(new URL("./app/", import.meta.url)) },
  { find: /^#api\//, replacement: fileURLToPath(new URL("./api/", import.meta.url)) },
  { find: /^#jobs\//, replacement: fileURLToPath(new URL("./jobs/", import.meta.url)) },
  { find: /^#sim\//, replacement: fileURLToPath(new URL("./sim/", import.meta.url)) },
  { find: /^#tests\//, replacement: fileURLToPath(new URL("./tests/", import.meta.url)) },
];

/**
 * Build warnings that say nothing about our code, dropped so `npm start` prints only real ones
 * (issue 19: the start-up log is quiet):
 * - EMPTY_BUNDLE: Remix makes a client chunk for every route, and resource routes (every
 *   `/api` route, exports) have no client code;
 * - INVALID_ANNOTATION in node_modules: zod 4's comments next to `@__PURE__` that Rollup cannot
 *   place (it drops the comment, nothing else);
 * - "dynamic import will not move module into another chunk": our lazy parts
 *   (`lazyComponent`) import a component statically for the server render and dynamically for
 *   the browser, on purpose; the client build splits them as intended, the server bundle is
 *   one file anyway.
 */
export function harmlessBuildWarning(warning: { code?: string; id?: string; message: string; plugin?: string }): boolean {
  if (warning.code === "EMPTY_BUNDLE") return true;
  if (warning.code === "INVALID_ANNOTATION" && /[\\/]node_modules[\\/]/.test(warning.id ?? warning.message)) return true;
  if (warning.plugin === "vite:reporter" && /dynamic import will not move module into another chunk/.test(warning.message)) return true;
  return false;
}

/**
 * Client build only: Radix Themes' `Theme` imports Tooltip from "radix-ui" for its
 * `Tooltip.Provider`, and that keeps all of Tooltip (Popper, floating-ui, dismissable layer,
 * focus scope: ~17 kB gzip) on every page's first load, though no tooltip shows before
 * hydration. Here `Theme` gets a provider that renders its children
 * (`app/components/ui/tooltip-provider-stub.ts`); tooltips go through `Hint`
 * (`app/components/ui/hint.tsx`), which loads Tooltip after hydration with its own provider.
 * ESLint forbids importing `Tooltip` from @radix-ui/themes anywhere else. The server build
 * and the dev server keep the real module. Figures: bench/README.md "First-load weight".
 */
export function themeWithoutTooltip(): Plugin {
  const stub = fileURLToPath(new URL("./app/components/ui/tooltip-provider-stub.ts", import.meta.url));
  return {
    name: "gt-theme-without-tooltip",
    apply: "build",
    transform(code, id, options) {
      if (options?.ssr || !/[\\/]@radix-ui[\\/]themes[\\/]dist[\\/]esm[\\/]components[\\/]theme\.js$/.test(id)) return null;
      const named = /import\{([^}]*)\}from"radix-ui";/.exec(code);
      const binding = named && /(?:^|,)Tooltip as (\w+)/.exec(named[1]);
      if (!named || !binding) throw new Error(`${id}: no 'Tooltip as x' import from "radix-ui" (Radix Themes changed; see themeWithoutTooltip)`);
      const rest = named[1].split(",").filter((part) => !part.startsWith("Tooltip as "));
      const imports = `import{${rest.join(",")}}from"radix-ui";import*as ${binding[1]} from${JSON.stringify(stub)};`;
      return { code: code.replace(named[0], imports), map: null };
    },
  };
}

/** Where `remix vite:build` writes (BUILD_DIR lets e2e runs and benchmarks build side by side). */
const buildDirectory = process.env.BUILD_DIR ?? "build";

/**
 * With the server build: `server.ts` as plain JavaScript in `<build dir>/server.js`, so the
 * production web process runs on `node` alone (`npm start` spawns it; docs/decisions/0021).
 * Under tsx every module of the server bundle passes through tsx's loader hooks, which kept
 * ~180 MB more resident in the web process (bench/README.md "Memory under a burst").
 * server.ts imports only packages and, for types, the app entry; the transform strips types.
 */
export function serverEntryAsJs(): Plugin {
  let ssr = false;
  return {
    name: "gt-server-entry-js",
    apply: "build",
    configResolved(config) {
      ssr = !!config.build.ssr;
    },
    async closeBundle() {
      if (!ssr) return;
      const source = fileURLToPath(new URL("./server.ts", import.meta.url));
      const out = await transformWithEsbuild(fs.readFileSync(source, "utf8"), source, { loader: "ts", format: "esm", target: "node20" });
      fs.writeFileSync(path.join(buildDirectory, "server.js"), out.code);
    },
  };
}

export default defineConfig({
  resolve: { alias },
  // Never serve the data dir (embedded database, master key) or env files through the dev server.
  server: { port: 3000, fs: { deny: [".env", ".env.*", "*.{crt,pem,key}", "**/data/**", "**/data-*/**"] } },
  // Native server-only packages: the dev optimizer must not try to bundle them for the browser.
  optimizeDeps: { exclude: ["@node-rs/argon2", "@electric-sql/pglite", "pg", "bullmq", "ioredis"] },
  build: {
    // The icon sprite (app/components/ui/icons.svg) must stay a file: `<use href>` cannot
    // point into a data: URL, which is what Vite makes of small assets.
    assetsInlineLimit: (file) => (file.endsWith(".svg") ? false : undefined),
    rollupOptions: {
      // @dnd-kit's packages declare no `sideEffects` and have none at module level. Saying so
      // lets the client bundle drop them where only a server-side binding imports them
      // (lazyComponent's `import.meta.env.SSR ? Component : undefined`, e.g. the sequence
      // form), so they load with the lazy part, not with the page (bench/first-load.ts).
      treeshake: { moduleSideEffects: (id) => !/[\\/]node_modules[\\/]@dnd-kit[\\/]/.test(id) },
      onwarn: (warning, warn) => {
        if (!harmlessBuildWarning(warning)) warn(warning);
      },
    },
  },
  plugins: process.env.VITEST
    ? []
    : [
        themeWithoutTooltip(),
        serverEntryAsJs(),
        remix({
          // Separate build dirs let e2e runs on different ports build side by side.
          buildDirectory,
          // Every file is routed by app/routes.manifest.ts (remix-flat-routes), not the default convention.
          ignoredRouteFiles: ["**/*"],
          routes: async (defineRoutes) => appRoutes(defineRoutes),
          future: {
            v3_fetcherPersist: true,
            v3_relativeSplatPath: true,
            v3_throwAbortReason: true,
            v3_singleFetch: true,
            v3_lazyRouteDiscovery: true,
          },
        }),
      ],
});
