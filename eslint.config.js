// ESLint flat config: what each choice means and why is in docs/decisions/0013-lint-and-format.md.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { defineConfig } from "eslint/config";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
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

  // Last: turn off every stylistic rule that Prettier owns.
  prettier,
);
