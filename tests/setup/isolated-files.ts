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
