import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeEach, inject, vi } from "vitest";

// Without isolation a fork runs file after file (vitest.config.ts): each file starts from the
// environment the first one saw, whatever the file before set or forgot to put back.
const first = globalThis as { __gtFirstEnv?: Record<string, string | undefined> };
if (first.__gtFirstEnv) {
  for (const key of Object.keys(process.env)) if (!(key in first.__gtFirstEnv)) delete process.env[key];
  Object.assign(process.env, first.__gtFirstEnv);
} else first.__gtFirstEnv = { ...process.env };

/**
 * Each test file gets its own PostgreSQL database, Redis key prefix and data dir, so files
 * run in parallel (and several developers can run tests at once) without touching each other.
 * The database is a copy of the run's migrated template (tests/setup/global-setup.ts), so
 * the app's migrate() on first use finds nothing to do.
 * The app modules read DATABASE_URL lazily, so setting it here is enough.
 */
const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const dbName = `gt_test_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
// FILE_COPY: the template's few files copied as they are, half the time (and CPU) of the
// default WAL_LOG, which writes every block to the WAL (docs/testing.md "The template database").
await admin.query(`create database ${dbName} template ${inject("templateDatabase")} strategy file_copy`);
await admin.end();

const url = new URL(base);
url.pathname = `/${dbName}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gt-test-"));
Object.assign(process.env, {
  NODE_ENV: "test",
  DATABASE_URL: url.toString(),
  DATA_DIR: dataDir,
  QUEUE_PREFIX: `gt-test-${dbName}`,
  REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
  START_REDIS: "false",
  RUN_WORKER: "false",
  APP_SECRET: "test-secret-test-secret-test-secret-0123456789",
  // The bundled worker and CLIs that tests spawn (tests/setup/test-bins.ts).
  GT_TEST_BIN_DIR: inject("testBinDir"),
  // The platform's "recently left" window (decision 0042) at 2 s instead of 10 s, the simulator's
  // and the app's alike: every test runs with it, at a fifth of the wait.
  SIM_RELOGIN_WINDOW_MS: "2000",
  GALAXY_RELOGIN_WINDOW_MS: "2000",
});

// The modules outlive a file too: forget what they read from the environment the file before set.
{
  const { resetEnv } = await import("~/utils/env.server");
  resetEnv();
  // Work the file before left running may have opened the database again after it closed it
  // (its own, dropped since): this file opens its own on first use.
  const { closeDb } = await import("~/db/client.server");
  await closeDb().catch(() => {});
  // A file before may have closed this fork's session host (its last Worker detached): a host is
  // closing only within the file that closed it (jobs/session-host.server.ts hands back what a
  // closing host still fetches).
  const { recall } = await import("~/utils/remember.server");
  const sessionHost = recall<{ state?: { closing?: boolean } }>("session-host");
  if (sessionHost?.state) sessionHost.state.closing = false;
  const { resetGalaxyServices } = await import("~/platform/galaxy-services.server");
  resetGalaxyServices();
  // The user-agent registry's copy in memory is of the file before's database: the simulator's
  // world has the same account ids in every file, so a record a file before registered would
  // be read back as this file's (connection-deps.server.test saw one in a CI run).
  const { resetUserAgentMemory } = await import("~/models/user-agent.server");
  resetUserAgentMemory();
}

// Component tests (a DOM per file): testing-library's waitFor / findBy* wait up to 5 s, not its
// default 1 s, which a render on a busy 2-core CI machine can outlast. They return as soon as
// what they wait for is there, so a fast run is as fast as before.
if (typeof document !== "undefined") {
  const { configure } = await import("@testing-library/react");
  configure({ asyncUtilTimeout: 5_000 });
}

// Rule 12 of CONVENTIONS: a console.error during a test fails it.
let errors: unknown[][] = [];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});
afterEach(() => {
  vi.mocked(console.error).mockRestore?.();
  if (errors.length) {
    const text = errors.map((a) => a.map(String).join(" ")).join("\n");
    errors = [];
    throw new Error(`console.error was called during the test:\n${text}`);
  }
});

afterAll(async () => {
  // Nothing a file switched on outlives it: fake timers, spies, stubbed globals.
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  const { closeDb } = await import("~/db/client.server");
  await closeDb().catch(() => {});
  const { closeQueues } = await import("~/queue/queues.server").catch(() => ({ closeQueues: async () => {} }));
  await closeQueues().catch(() => {});
  // This file's Redis keys (queues, schedulers, live bus state) go with its database.
  const { deleteKeys } = await import("#jobs/test-helpers");
  await deleteKeys(process.env.REDIS_URL!, process.env.QUEUE_PREFIX!).catch(() => {});
  const a = new pg.Client({ connectionString: base });
  await a.connect();
  await a.query(`drop database if exists ${dbName} with (force)`);
  await a.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
