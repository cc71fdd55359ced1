import { defineConfig, mergeConfig } from "vitest/config";
import { ISOLATED_FILES } from "./tests/setup/isolated-files";
import EnvironmentGroupingSequencer from "./tests/setup/sequencer";
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
      // Six forks on 2 cores: a job test spends much of its time waiting on a socket or a timer,
      // and three kept the CPU only 55 % busy (2026-11-29: 339 s alone, 244 s with six). Six
      // once starved a fork's event loop past the app's 1.5 s Redis deadlines beside tsc, ESLint
      // and the build, and api-fuzz got "Job engine offline" (503); those deadlines now count
      // Redis's silence, not the process's stalls (app/queue/redis.server.ts `silenceDeadline`).
      // VITEST_FORKS overrides it.
      maxWorkers: Number(process.env.VITEST_FORKS ?? 6),
      // The unit project's files grouped by test environment, so a fork keeps its modules (tests/setup/sequencer.ts).
      sequence: { sequencer: EnvironmentGroupingSequencer },
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
