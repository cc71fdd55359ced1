import { vitePlugin as remix } from "@remix-run/dev";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

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
];

export default defineConfig({
  resolve: { alias },
  server: { port: 3000 },
  // Native server-only packages: the dev optimizer must not try to bundle them for the browser.
  optimizeDeps: { exclude: ["@node-rs/argon2", "@electric-sql/pglite", "pg", "bullmq", "ioredis"] },
  plugins: process.env.VITEST
    ? []
    : [
        remix({
          // Separate build dirs let e2e runs on different ports build side by side.
          buildDirectory: process.env.BUILD_DIR ?? "build",
          ignoredRouteFiles: ["**/*.test.ts", "**/*.test.tsx", "**/.*"],
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
