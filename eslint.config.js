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
      // Tooltip's code (Popper, floating-ui) loads after hydration through Hint; a direct import
      // would put it back on the page's first load (vite.config.ts, `themeWithoutTooltip`).
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "@radix-ui/themes", importNames: ["Tooltip"], message: "Use Hint from ~/components/ui/hint (loads Tooltip after hydration)." },
            { name: "radix-ui", importNames: ["Tooltip"], message: "Use Hint from ~/components/ui/hint (loads Tooltip after hydration)." },
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
            {
              target: "./app/models",
              from: [
                "./app/routes",
                "./app/components",
                "./jobs/processors",
                "./jobs/relay",
                "./jobs/worker.ts",
                "./jobs/runtime.server.ts",
                "./jobs/session-host.server.ts",
                "./app/galaxy/services.server.ts",
                "./app/galaxy/clay.server.ts",
                "./app/galaxy/daily-stats.server.ts",
                "./app/galaxy/collections-login.server.ts",
              ],
              message:
                "Models read and write the database: no routes, components, job processors or platform HTTP calls (those sit above, in app/galaxy/ or jobs/).",
            },
            {
              target: ["./jobs", "./app/galaxy", "./app/utils", "./app/db", "./app/components", "./api"],
              from: "./app/routes",
              message: "Only routes and the entry modules import route modules: move what both need below (app/models, app/utils, api/).",
            },
            {
              target: ["./jobs", "./app/galaxy", "./app/db", "./api"],
              from: "./app/components",
              message: "Server code imports no React component: move shared data below (app/utils, api/).",
            },
            {
              target: "./app/components",
              from: ["./app/routes/**/*.server.ts", "./app/models/**", "./app/db/**", "./jobs/**", "./app/utils/**/*.server.ts", "./app/galaxy/**/*.server.ts"],
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
