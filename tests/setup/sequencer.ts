import fs from "node:fs";
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import fileSeconds from "./file-seconds.json" with { type: "json" };

const FILE_SECONDS: Record<string, number> = fileSeconds;

/**
 * vitest's own order (the isolated project first, then the longest or largest files first),
 * with the `unit` project's files grouped by their test environment: the node files, then the
 * component tests (`// @vitest-environment happy-dom`).
 *
 * A fork of the unit project keeps its modules from file to file (`isolate: false`), but only
 * while the next file in the queue has its environment: vitest ends a fork whose next file
 * needs another one and starts a new one, which loads the app again. In vitest's order the
 * 21 component tests were scattered among the node files, and a run started 41 forks; grouped,
 * 12 (docs/testing.md "Issue 32 item 7", eighth session).
 *
 * Within a group, the files that take longest go first (`file-seconds.json`, written from a run's
 * report by `node scripts/file-seconds.mjs`). On a fresh clone vitest has no timings of its own
 * and orders by size, so a small file that mostly waits (automation.fence.test: one test, 37 s)
 * started last and the run ended on it alone, a core idle. Longest first, the waits overlap the
 * busy start (tsc, ESLint, the build) and the run ends on short files. A file not listed (new, or
 * under 3 s) keeps vitest's order after the listed ones.
 */
export default class EnvironmentGroupingSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Where each project starts in vitest's order: the projects keep their places.
    const project = new Map<string, number>();
    sorted.forEach((spec, i) => project.set(spec.project.name, project.get(spec.project.name) ?? i));
    const keyed = sorted.map((spec, i) => ({
      spec,
      i,
      project: project.get(spec.project.name)!,
      // An isolated file gets a fresh process anyway; node files first, then each other environment.
      env: spec.project.config.isolate === false ? environmentOf(spec.moduleId).replace(/^node$/, "") : "",
      seconds: FILE_SECONDS[path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join("/")] ?? 0,
    }));
    // Within a project and environment, the files known to take long first (longest first),
    // then vitest's order.
    return keyed.sort((a, b) => a.project - b.project || a.env.localeCompare(b.env) || b.seconds - a.seconds || a.i - b.i).map(({ spec }) => spec);
  }
}

/** The environment a file asks for in its docblock (vitest's `@vitest-environment`), else node. */
function environmentOf(file: string): string {
  const head = fs.readFileSync(file, "utf8").slice(0, 2_000);
  return /@vitest-environment\s+([\w-]+)/.exec(head)?.[1] ?? "node";
}
