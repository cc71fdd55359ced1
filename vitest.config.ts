import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config";

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // *.test.tsx: component tests (a DOM per file via `// @vitest-environment happy-dom`).
      include: ["{app,api,jobs,sim,tests,scripts}/**/*.test.{ts,tsx}"],
      exclude: ["tests/e2e/**", "node_modules/**"],
      setupFiles: ["./tests/setup/vitest.setup.ts"],
      globalSetup: ["./tests/setup/global-setup.ts"],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      pool: "forks",
      maxWorkers: 2,
    },
  }),
);
