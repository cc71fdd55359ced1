#!/usr/bin/env bash
# Every test of the project: types, lint + format, unit + integration (real PostgreSQL and Redis),
# then the browser journeys in Debian's Chromium with JavaScript on and off.
# Needs PostgreSQL on 127.0.0.1:5432 (database `test`, user postgres, trust) and Redis on
# 127.0.0.1:6379 — `.ci/run` starts both when they are not answering.
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
mkdir -p test-results
rm -f test-results/vitest.json test-results/playwright.json
status=0

echo "== typecheck"
npx tsc --noEmit || status=1

echo "== lint (ESLint, then Prettier --check)"
lint=passed
npx eslint . --max-warnings 0 || lint=failed
npx prettier --check . || lint=failed
[ "$lint" = passed ] || status=1

echo "== unit + integration (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json || status=1

echo "== e2e (Playwright in Chromium; projects js and nojs)"
PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json npx playwright test --reporter=list,json || status=1

# One closing line for both runners and the lint step: "N passed, N failed".
LINT_RESULT=$lint node scripts/test-summary.mjs test-results/vitest.json test-results/playwright.json || status=1
exit $status
