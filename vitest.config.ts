import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config";

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      include: ["app/**/*.test.{ts,tsx}", "api/**/*.test.ts", "jobs/**/*.test.ts", "sim/**/*.test.ts", "tests/**/*.test.ts", "scripts/**/*.test.ts"],
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
