import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest, with the seconds each took in a fresh-clone CI run beside five
 * other forks and the checks (2026-11-29, `test-results/vitest.json`; api-fuzz since cut to
 * about two fifths). Only their order matters.
 */
export const HEAVY_FILES: Record<string, number> = {
  "jobs/processors/automation.fault.test.ts": 165,
  "scripts/start.test.ts": 161,
  "jobs/worker.test.ts": 121,
  "tests/security/api-fuzz.test.ts": 110,
  "jobs/processors/automation.test.ts": 98,
  "jobs/processors/collections-session.test.ts": 92,
  "tests/security/read-only.test.ts": 86,
  "jobs/session-host.share.test.ts": 84,
  "scripts/backup.test.ts": 77,
  "tests/security/field-fuzz.test.ts": 72,
  "jobs/processors/relay.test.ts": 72,
  "jobs/session-host.fault.test.ts": 71,
  "app/models/backup.server.test.ts": 63,
  "jobs/processors/bowling.test.ts": 62,
  "jobs/processors/trader.fault.test.ts": 55,
  "jobs/processors/relay.fault.test.ts": 53,
  "jobs/processors/trader.test.ts": 51,
  "jobs/processors/automation.fence.test.ts": 48,
  "tests/security/audit-targets.test.ts": 45,
  "tests/openapi/contract.test.ts": 45,
  "app/routes/_app+/_collections+/collections.test.ts": 41,
};

/**
 * Vitest's order, except on a machine that has not run the files yet (a fresh clone, as CI is),
 * where vitest knows no durations and starts the largest files first. That put the longest file
 * of the run late: for its last minute or two one fork ran while the other cores had nothing
 * left (2026-11-29: api-fuzz from 373 s to 650 s of a 666 s run). There the files above go first
 * within their project, longest first; the rest keep vitest's order after them.
 */
export class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const key = (f: TestSpecification) => relative(this.ctx.config.root, f.moduleId);
    if (sorted.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${key(f)}`))) return sorted;
    const projectAt = new Map<string, number>();
    sorted.forEach((f, i) => projectAt.has(f.project.name) || projectAt.set(f.project.name, i));
    const rank = sorted.map((f, i) => ({ f, i, project: projectAt.get(f.project.name)!, weight: HEAVY_FILES[key(f)] ?? 0 }));
    rank.sort((a, b) => a.project - b.project || b.weight - a.weight || a.i - b.i);
    return rank.map((r) => r.f);
  }
}
