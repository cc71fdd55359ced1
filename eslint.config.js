// ESLint flat config: what each choice means and why is in docs/decisions/0013-lint-and-format.md.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { defineConfig } from "eslint/config";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import tseslint from "typescript-eslint";

// Decision 0022's layers as paths (issue 30 C1: one folder, one layer).
/** Entry modules: they start a process and may import anything. */
const ENTRIES = [
  "./server.ts",
  "./app/boot.server.ts",
  "./app/root.tsx",
  "./app/entry.server.tsx",
  "./app/entry.client.tsx",
  "./jobs/worker.ts",
  "./jobs/runtime.server.ts",
  "./scripts",
];
/** The worker side (consumers): the session host, fencing, processors, the relay (the producers are app/queue). */
const WORKER_SIDE = ["./jobs/*.ts", "./jobs/processors/**", "./jobs/relay/**"];
const WORKER_TARGETS = ["./jobs/session-host.server.ts", "./jobs/fence.server.ts", "./jobs/worker-log.server.ts", "./jobs/processors", "./jobs/relay"];
/** Everything under routes and the entries. */
const BELOW_ROUTES = [
  "./app/http",
  ...WORKER_TARGETS,
  "./app/queue",
  "./app/platform",
  "./app/models",
  "./app/galaxy",
  "./app/utils",
  "./app/db",
  "./app/components",
  "./api",
  "./app/data",
];

// Tooltip's code (Popper, floating-ui) loads after hydration through Hint; a direct import
// would put it back on the page's first load (vite.config.ts, `themeWithoutTooltip`).
const TOOLTIP_IMPORTS = [
  { name: "@radix-ui/themes", importNames: ["Tooltip"], message: "Use Hint from ~/components/ui/hint (loads Tooltip after hydration)." },
  { name: "radix-ui", importNames: ["Tooltip"], message: "Use Hint from ~/components/ui/hint (loads Tooltip after hydration)." },
];

export default defineConfig(
  {
    ignores: [
      "**/node_modules/",
      "build/",
      "build-*/",
      "data/",
      "data-*/",
      "bench-results/",
      "test-results/",
      "playwright-report/",
      "blob-report/",
      "drizzle/meta/",
      ".cache/",
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },

  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    rules: {
      // `_`-prefixed names are deliberately unused (Express error handlers, positional callback args, rest omits).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "no-restricted-imports": ["error", { paths: TOOLTIP_IMPORTS }],
    },
  },
  {
    // The journeys take `test` from their fixtures: the reused context's kept HTTP cache
    // (docs/decisions/0053), simFaults, clockPage. (This replaces the rule above for these files.)
    files: ["tests/e2e/**/*.spec.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            ...TOOLTIP_IMPORTS,
            { name: "@playwright/test", importNames: ["test", "expect"], message: "Import test and expect from ./fixtures (tests/e2e/fixtures.ts)." },
          ],
        },
      ],
    },
  },
  {
    // Plain JS files here are Node scripts and configs.
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: globals.node },
  },

  // React: only where JSX lives.
  {
    files: ["**/*.tsx"],
    plugins: { react, "jsx-a11y": jsxA11y },
    languageOptions: {
      ...react.configs.flat.recommended.languageOptions,
      globals: globals.browser,
    },
    settings: { react: { version: "18.3" } },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat["jsx-runtime"].rules,
      // Types are checked by TypeScript; prop-types would duplicate them.
      "react/prop-types": "off",
      ...jsxA11y.flatConfigs.recommended.rules,
      // Radix Themes inputs render an <input>/<textarea>; tell the rule they are controls a <label> can wrap.
      "jsx-a11y/label-has-associated-control": ["error", { controlComponents: ["TextArea", "TextField.Root", "Switch", "Checkbox"] }],
    },
  },
  {
    // Hooks can live in .ts files too (app/hooks, shared helpers).
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      // An error, not a warning: `npm run lint` runs with --max-warnings 0 anyway, and a deliberate
      // omission must be an eslint-disable line that names its reason.
      "react-hooks/exhaustive-deps": "error",
    },
  },

  // Downward-only layers (docs/architecture.md "Layers", docs/decisions/0022): no runtime import
  // cycles (type-only imports are erased, so they may point back), and each layer imports only
  // the layers below it.
  {
    files: ["**/*.{ts,tsx}"],
    // A test file is in no cycle (no module imports one); a cycle among what it imports is
    // found where those modules are linted. Walking the graph again from each of the ~190
    // test files was most of the rule's time.
    ignores: ["**/*.test.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "tsconfig.json" })],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
  {
    // Tests drive a layer from above (a route's action, a worker), so the zones skip them.
    files: ["**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            // Decision 0022, one folder one layer (issue 30 C1). From the top: entries › routes
            // (app/routes) › the HTTP edge (app/http) and the worker side (WORKER_SIDE) › platform
            // calls (app/platform) › models (app/models) › the queue producers (app/queue) › the
            // Galaxy transport (app/galaxy), app/utils, app/db, api/, app/data, and the browser kit
            // (app/components). Each zone names what a layer must not import. (A zone's `from` is
            // all globs or all paths: import-x refuses a mix.)
            {
              target: BELOW_ROUTES,
              from: "./app/routes",
              message: "Only routes and the entry modules import route modules: move what both need below (app/http, app/models, app/utils, api/).",
            },
            {
              target: BELOW_ROUTES,
              from: ENTRIES,
              message: "Entry modules start the process; nothing below imports them.",
            },
            {
              target: "./app/http",
              from: [...WORKER_SIDE, "./app/platform/**"],
              message: "The HTTP edge reads requests and calls models and the queue producers (app/queue), not the worker side or the platform calls.",
            },
            {
              target: WORKER_TARGETS,
              from: "./app/http",
              message: "The worker side answers no HTTP request: no app/http module (what both need sits below, in app/utils or app/models).",
            },
            {
              target: "./app/platform",
              from: ["./app/http/**", ...WORKER_SIDE],
              message:
                "Platform calls act for a stored account through models and the Galaxy transport; the HTTP edge and the worker side call them, not the other way round.",
            },
            {
              target: "./app/models",
              from: ["./app/http/**", "./app/platform/**", ...WORKER_SIDE, "./app/galaxy/services.server.ts*", "./app/galaxy/connection.server.ts*"],
              message:
                "Models read and write the database: no HTTP edge, no platform calls (app/platform), no Galaxy HTTP call or game connection (app/galaxy/services.server.ts, connection.server.ts), no worker side; the queue producers are app/queue.",
            },
            {
              target: "./app/queue",
              from: ["./app/models/**", "./app/platform/**", "./app/http/**", "./app/galaxy/**", "./app/db/**", "./app/data/**", ...WORKER_SIDE],
              message: "The queue producers sit below models: Redis, queues, the live bus and session control only (utils, api/ below them).",
            },
            {
              target: ["./app/utils", "./app/db", "./api", "./app/data"],
              from: ["./app/http", "./app/platform", "./app/models", "./jobs", "./app/queue", "./app/galaxy"],
              message: "app/utils, app/db, api/ and app/data are the ground floor: no model, job, platform, Galaxy or HTTP-edge module.",
            },
            {
              target: "./app/galaxy",
              from: ["./app/models", "./app/db"],
              message:
                "The Galaxy transport reads no table and imports no model: what it needs from the app (user-agent records, System Logs, logouts) is handed to it from above (app/platform).",
            },
            {
              target: "./app/galaxy",
              from: ["./app/http", "./app/platform", "./jobs", "./app/queue"],
              message: "The Galaxy transport imports no job, queue, platform call or HTTP-edge module.",
            },
            {
              target: ["./app/galaxy", "./app/utils", "./app/platform", "./app/http", "./jobs", "./app/queue", "./api", "./app/components"],
              from: "./app/db/schema",
              message: "Only models query tables (app/models): call the model's function.",
            },
            {
              // app/http/section.server.ts reads the section list (app/components/shell/sections.ts, plain data).
              target: ["./app/galaxy", "./app/utils", "./app/db", "./api", "./app/data", "./jobs", "./app/queue", "./app/models", "./app/platform"],
              from: "./app/components",
              message: "Server code imports no React component: move shared data below (app/utils, api/).",
            },
            {
              target: "./app/components",
              from: [
                "./app/routes/**/*.server.ts",
                "./app/http/**",
                "./app/models/**",
                "./app/platform/**",
                "./app/db/**",
                "./jobs/**",
                "./app/queue/**",
                "./app/utils/**/*.server.ts",
                "./app/galaxy/**/*.server.ts",
              ],
              message: "Components run in the browser: no server modules (pass what they need from the route's loader).",
            },
          ],
        },
      ],
    },
  },

  // Last: turn off every stylistic rule that Prettier owns.
  prettier,
);
