/**
 * `npm run bench [rates|galaxy|first-load|characters|create-user|bowling|sessions|relay|lists|streams|degrade|ops|openapi|hosts]`: runs the benchmarks one after the other (they compete for
 * the same two cores otherwise) and prints their figures. Nothing here asserts timings.
 */
import { spawnSync } from "node:child_process";

const all = [
  "rates",
  "galaxy",
  "first-load",
  "characters",
  "create-user",
  "bowling",
  "sessions",
  "relay",
  "lists",
  "streams",
  "degrade",
  "ops",
  "openapi",
  "hosts",
] as const;
const chosen = process.argv.slice(2).filter((a): a is (typeof all)[number] => (all as readonly string[]).includes(a));
const files = {
  rates: "bench/rates.ts",
  galaxy: "bench/galaxy-stats.ts",
  "first-load": "bench/first-load.ts",
  characters: "bench/characters-refresh.ts",
  "create-user": "bench/create-user.ts",
  bowling: "bench/bowling-refresh.ts",
  sessions: "bench/sessions.ts",
  relay: "bench/relay.ts",
  lists: "bench/list-pages.ts",
  streams: "bench/streams.ts",
  degrade: "bench/degrade.ts",
  ops: "bench/ops.ts",
  openapi: "bench/openapi.ts",
  // The multi-host test's scenarios with their figures (needs root; tests/hosts/run.ts).
  hosts: "tests/hosts/run.ts",
};

let failed = false;
for (const name of chosen.length ? chosen : all) {
  console.log(`\n=== bench: ${name}`);
  const r = spawnSync(process.execPath, ["--import", "tsx", files[name]], { stdio: "inherit", env: process.env });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
