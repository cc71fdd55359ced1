#!/usr/bin/env bash
# Every test of the project: types, lint + format, unit + integration (real PostgreSQL and Redis),
# then the browser journeys in Debian's Chromium with JavaScript on and off.
# Needs PostgreSQL on 127.0.0.1:5432 (database `test`, user postgres, trust) and Redis on
# 127.0.0.1:6379 — `.ci/run` starts both when they are not answering.
#
# The CPU-bound checks that wait on nothing (tsc, ESLint, Prettier and the production build
# the journeys run against) start together, and vitest with them; each check's output is kept
# and printed whole after vitest's, in this order, under its own heading, with its own exit
# status. Once that build is there the journeys' app servers start, and the multi-host test runs,
# both beside vitest; then Playwright on that build (E2E_PREBUILT=1, E2E_WORLDS_UP=1).
# docs/testing.md has the figures.
set -uo pipefail
cd "$(dirname "$0")/.."
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
mkdir -p test-results
rm -f test-results/vitest.json test-results/playwright.json
status=0
logs=$(mktemp -d)
# The worlds' server process (tests/e2e/serve-worlds.ts), started by the build's follower below.
worlds_pid() { cat "$logs/worlds.pid" 2>/dev/null; }
stop_worlds() {
  local pid
  pid=$(worlds_pid)
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  rm -f "$logs/worlds.pid"
}
tail_pid=
follower_pid=
trap '[ -z "$follower_pid" ] || kill "$follower_pid" 2>/dev/null; stop_worlds; [ -z "$tail_pid" ] || kill "$tail_pid" 2>/dev/null; rm -rf "$logs"' EXIT
port=${E2E_PORT:-3100}

# stage NAME COMMAND…: runs in the background, output to $logs/NAME.log, exit status to $logs/NAME.rc.
stage() {
  local name=$1
  shift
  ( "$@" >"$logs/$name.log" 2>&1; echo $? >"$logs/$name.rc" ) &
}
# show NAME HEADING: waits for the stage, prints its heading and output; fails when it failed.
show() {
  while [ ! -f "$logs/$1.rc" ]; do sleep 0.2; done
  [ -z "$2" ] || echo "$2"
  cat "$logs/$1.log"
  return "$(cat "$logs/$1.rc")"
}

# The production build the journeys, the multi-host test and scripts/start.test.ts run on, made
# by `npm start`'s own build step (scripts/build.ts): start.test reads its output as npm start's
# and starts the demo on it instead of building the app a second time (START_TEST_BUILD).
stage build env NODE_ENV=production BUILD_DIR="build-e2e-$port" node --import tsx scripts/build.ts
export START_TEST_BUILD="build-e2e-$port:$logs/build"
# TypeScript 7 (the native compiler; typescript-eslint keeps 5.9), on one thread: the other
# stages fill the second core (decision 0049).
stage tsc node node_modules/typescript-native/bin/tsc --noEmit --singleThreaded
stage eslint npx eslint . --max-warnings 0
stage prettier npx prettier --check .

# What needs only the build follows it, beside vitest (whose forks leave a core idle for seconds
# at a time while their tests wait on timers; docs/testing.md "Issue 32 item 7"): the journeys'
# app servers (tests/e2e/serve-worlds.ts: three servers on new embedded databases, ~10–20 s;
# Playwright then finds them answering, E2E_WORLDS_UP=1, with no webServer of its own) and the
# multi-host test's short variant (docs/testing.md "Multi-host test": hosts as network
# namespaces, one worker SIGKILLed; "skipped: needs root" where namespaces cannot be made),
# whose figures are taken beside vitest's load. One run id for the servers and the journeys
# (their Redis prefix). The servers' stderr is shown from the journeys' start on.
export E2E_RUN_ID=${E2E_RUN_ID:-$(date +%s%N)}
(
  while [ ! -f "$logs/build.rc" ]; do sleep 0.2; done
  [ "$(cat "$logs/build.rc")" = 0 ] || exit 0
  node --import tsx tests/e2e/serve-worlds.ts >"$logs/worlds.log" 2>"$logs/worlds.err" &
  echo $! >"$logs/worlds.pid"
  HOSTS_BUILD_DIR="build-e2e-$port" timeout -k 10 300 node --import tsx tests/hosts/run.ts --short >"$logs/hosts.log" 2>&1
  echo $? >"$logs/hosts.rc"
) &
follower_pid=$!

# vitest starts beside them: a quarter of its time is waiting on sockets and timers, which the
# checks fill (docs/testing.md "Issue 19 D"). Their output follows vitest's, each whole.
echo "== unit + integration (vitest)"
# A bound on the whole run (it takes ~4 min here): once, a fork sat idle before its last file
# and vitest waited on it for good (docs/testing.md "Issue 19 D"); CI then fails, it does not hang.
timeout -k 10 1200 npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json 2>&1 | tee "$logs/vitest.log"
vitest_rc=${PIPESTATUS[0]}
[ "$vitest_rc" != 124 ] || echo "vitest did not finish within 1200 s and was stopped"
[ "$vitest_rc" = 0 ] || status=1

show tsc "== typecheck" || status=1
lint=passed
show eslint "== lint (ESLint, then Prettier --check)" || lint=failed
show prettier "" || lint=failed
[ "$lint" = passed ] || status=1

built=false
if show build "" >/dev/null; then
  built=true
fi

echo "== multi-host (worker SIGKILL across network namespaces)"
if [ "$built" = true ]; then
  show hosts "" || status=1
fi

# Waits for the worlds (their own bound: 240 s, as Playwright's webServer had); false when they ended first.
worlds_ready() {
  local waited=0
  while ! grep -q "worlds ready" "$logs/worlds.log" 2>/dev/null; do
    kill -0 "$(worlds_pid)" 2>/dev/null || return 1
    [ "$waited" -lt 2400 ] || return 1
    sleep 0.1
    waited=$((waited + 1))
  done
}

echo "== e2e (Playwright in Chromium; projects js and nojs)"
if [ "$built" = true ]; then
  # The servers' stderr so far, then as it comes (as Playwright's webServer showed it).
  tail -n +1 -f "$logs/worlds.err" &
  tail_pid=$!
  if worlds_ready; then
    PLAYWRIGHT_JSON_OUTPUT_NAME=test-results/playwright.json E2E_PREBUILT=1 E2E_WORLDS_UP=1 npx playwright test --reporter=list,json || status=1
  else
    echo "The journeys' app servers did not start (tests/e2e/serve-worlds.ts):"
    cat "$logs/worlds.log"
    status=1
  fi
  stop_worlds
  kill "$tail_pid" 2>/dev/null
  tail_pid=
else
  echo "The production build failed:"
  cat "$logs/build.log"
  status=1
fi

# One closing line for both runners and the lint step: "N passed, N failed".
LINT_RESULT=$lint VITEST_RC=$vitest_rc VITEST_LOG="$logs/vitest.log" node scripts/test-summary.mjs test-results/vitest.json test-results/playwright.json || status=1
exit $status
