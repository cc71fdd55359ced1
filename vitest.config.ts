import { defineConfig, mergeConfig } from "vitest/config";
import { ISOLATED_FILES } from "./tests/setup/isolated-files";
import viteConfig from "./vite.config";

const ALL = ["{app,api,jobs,sim,tests,scripts}/**/*.test.{ts,tsx}"];

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      setupFiles: ["./tests/setup/vitest.setup.ts"],
      globalSetup: ["./tests/setup/global-setup.ts"],
      testTimeout: 30_000,
      hookTimeout: 60_000,
      pool: "forks",
      // Six forks on 2 cores: most of a job test's time is waiting on a socket or a timer. With
      // three the run kept the CPU only 55 % busy (measured 2026-11-29: 383 core-s in 339 s,
      // three files at a time all along); six took it to 244 s, every file passing. (2026-11-26,
      // a slower machine: two → three forks, 360 → 301 s.) VITEST_FORKS overrides it.
      maxWorkers: Number(process.env.VITEST_FORKS ?? 6),
      projects: [
        // A fork runs file after file with the modules it has loaded: each file still gets its
        // own database, Redis prefix and data dir, and starts from the first file's environment
        // (tests/setup/vitest.setup.ts, which also drops what modules read from it). Importing the
        // app afresh for every file was a third of the run's CPU (measured 2026-11-26: 459 → 289
        // core-s, 268 → 192 s).
        // *.test.tsx: component tests (a DOM per file via `// @vitest-environment happy-dom`).
        { extends: true, test: { name: "unit", isolate: false, include: ALL, exclude: ["tests/e2e/**", "node_modules/**", ...ISOLATED_FILES] } },
        // vi.mock replaces a module for the rest of the process, and a file that takes the process
        // off PostgreSQL races what earlier files left running: these files get fresh ones.
        { extends: true, test: { name: "isolated", isolate: true, include: ISOLATED_FILES } },
      ],
    },
  }),
);
