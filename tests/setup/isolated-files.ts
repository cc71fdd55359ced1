/**
 * Test files that replace a module with `vi.mock`: a mocked module stays replaced for the rest
 * of the process, so these run in vitest's isolated project, each in a fresh one
 * (vitest.config.ts). tests/setup/isolated-files.test.ts fails a file that mocks outside it.
 */
export const MOCKING_FILES = [
  "app/components/summary/summary-panel.test.tsx",
  "app/routes/_app+/_layout.test.ts",
  "app/routes/_app+/_bowling-bots+/components/bowling-screen.test.tsx",
];

/**
 * Test files that take this process off PostgreSQL (no DATABASE_URL: the embedded database,
 * `setEmbeddedMode`). In a shared fork, work a file before left running (a timer, a queue's
 * handler) calls getDb() in the window where DATABASE_URL is gone and opens, or serves, the
 * embedded database itself: one full run handed the describe PostgreSQL's handle (dbVia()
 * undefined), another a served socket that the "no running app" worker then joined and never
 * left (the test's 180 s timeout). These run alone in fresh processes too.
 */
export const EMBEDDED_FILES = ["app/db/client.server.test.ts", "app/db/embedded-socket.server.test.ts"];

/** Everything vitest's isolated project runs (vitest.config.ts). */
export const ISOLATED_FILES = [...MOCKING_FILES, ...EMBEDDED_FILES];
