/**
 * `npm run bench -- openapi`: issue 33 "Bench and limits": the document is built once per
 * process, then GET /api/openapi.json stays under 10 ms. Prints the first build and the
 * per-answer cost after it (the cached bytes, the ETag check and the Response), in-process.
 * Nothing here asserts timings.
 */
import { performance } from "node:perf_hooks";
import { apiRouteModulesFromTable } from "~/utils/openapi-modules.server";
import { openApiAnswer, servedOpenApi } from "~/utils/openapi.server";

const routes = await apiRouteModulesFromTable();
const modules = Object.fromEntries(routes.map((r) => [r.file, r.module]));
let t = performance.now();
const first = servedOpenApi(() => modules);
const build = performance.now() - t;
const answer = (ifNoneMatch: string | null) => openApiAnswer(() => modules, ifNoneMatch, "gzip, br");
const N = 2_000;
const times: number[] = [];
for (let i = 0; i < N; i++) {
  t = performance.now();
  await answer(null).arrayBuffer();
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!.toFixed(3);
console.log(
  `openapi.json: ${routes.length} route modules, ${(first.body.length / 1024).toFixed(0)} KiB (${(first.gzip.length / 1024).toFixed(0)} KiB gzipped)`,
);
console.log(`  first build: ${build.toFixed(1)} ms`);
console.log(`  after it, ${N} answers (body read): p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms (limit: 10 ms)`);
t = performance.now();
for (let i = 0; i < N; i++) answer(first.etag);
console.log(`  304 (If-None-Match): ${((performance.now() - t) / N).toFixed(4)} ms each`);
process.exit(0);
