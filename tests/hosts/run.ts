/**
 * The multi-host test (issue 29 item 4; docs/deploy.md "The multi-host test";
 * docs/decisions/0030-multi-host-test.md).
 *
 *   node --import tsx tests/hosts/run.ts [scenario …]   figures (npm run bench -- hosts runs all)
 *   node --import tsx tests/hosts/run.ts --short        the npm test variant: asserts, exits 1 on failure
 *
 * Scenarios: sigkill, drain (SIGTERM), vanish, worker-cut, web-cut, redis-restart, collections-cut (default: all of them) and
 * sigkill-1000 (only when named: 1,000 sessions over two workers, one killed).
 *
 * This process (root namespace) checks the machine, finds or makes a production build, builds
 * the hosts as network namespaces (tests/hosts/netns.ts), and runs the controller — this same
 * file with `--inner` — inside the "ctl" namespace, from where it starts every host's process
 * (tests/hosts/cluster.ts) and measures from the outside: the simulator's sockets and 950
 * takeovers (GET /__sim/counters), and what the web answers (/api/stalker/active, /api/health,
 * pages). Whatever happens, the namespaces and every process in them are removed at the end.
 * Figures are printed with their goal; a missed goal says MISSED (not an error).
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { canBuildNamespaces, createTopology, destroyTopology, type Topology } from "./netns";
import { ROOT } from "./cluster";

const SCENARIOS = ["sigkill", "drain", "vanish", "worker-cut", "web-cut", "redis-restart", "collections-cut"] as const;
const OPTIONAL = ["sigkill-1000"] as const;
export type Scenario = (typeof SCENARIOS)[number] | (typeof OPTIONAL)[number];

export type InnerConfig = {
  topo: { prefix: string; addrs: Record<string, string>; names: Record<string, string> };
  dir: string;
  buildDir: string;
  short: boolean;
  scenarios: Scenario[];
};

/** A production build: BUILD_DIR, else the e2e build scripts/test.sh makes (build-e2e-<port>), else build one. */
function findOrBuild(): string {
  const has = (d: string) => fs.existsSync(path.join(ROOT, d, "server.js")) && fs.existsSync(path.join(ROOT, d, "server", "index.js"));
  const candidates = [process.env.HOSTS_BUILD_DIR, `build-e2e-${process.env.E2E_PORT ?? "3100"}`].filter((d): d is string => !!d);
  for (const d of candidates) if (has(d)) return path.resolve(ROOT, d);
  const dir = "build-hosts";
  process.stdout.write(`building the app into ${dir} … `);
  const t = Date.now();
  const r = spawnSync("npx", ["remix", "vite:build"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", BUILD_DIR: dir },
    stdio: ["ignore", "ignore", "pipe"],
  });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stderr.toString().slice(-3000)}`);
  console.log(`${((Date.now() - t) / 1000).toFixed(0)} s`);
  return path.resolve(ROOT, dir);
}

async function outer() {
  // Scenarios as arguments, or in HOSTS_SCENARIOS (npm run bench -- hosts passes no arguments on).
  const args = [...process.argv.slice(2), ...(process.env.HOSTS_SCENARIOS ?? "").split(/[\s,]+/).filter(Boolean)];
  const short = args.includes("--short");
  const named = args.filter((a): a is Scenario => ([...SCENARIOS, ...OPTIONAL] as readonly string[]).includes(a));
  const unknown = args.filter((a) => a !== "--short" && !named.includes(a as Scenario));
  if (unknown.length) throw new Error(`unknown argument(s) ${unknown.join(", ")}; scenarios: ${[...SCENARIOS, ...OPTIONAL].join(", ")}`);
  const can = canBuildNamespaces();
  if (!can.ok) {
    console.log(`multi-host test skipped: ${can.why}`);
    return 0;
  }
  const buildDir = findOrBuild();
  const topo: Topology = createTopology();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${topo.prefix}-`));
  let child: ReturnType<typeof spawn> | undefined;
  const cleanup = () => {
    if (child?.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // gone
      }
    }
    destroyTopology(topo);
    if (!process.env.HOSTS_KEEP_DIR) fs.rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (s: NodeJS.Signals) => {
    cleanup();
    process.exit(s === "SIGINT" ? 130 : 143);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const hosts = ["ctl", "data", "sim", "web", "w1", "w2", "w3"] as const;
    const config: InnerConfig = {
      topo: {
        prefix: topo.prefix,
        addrs: Object.fromEntries(hosts.map((h) => [h, topo.addr(h)])),
        names: Object.fromEntries([...hosts, "sw" as const].map((h) => [h, topo.ns(h)])),
      },
      dir,
      buildDir,
      short,
      scenarios: short ? ["sigkill"] : named.length ? named : [...SCENARIOS],
    };
    // The short variant is bounded (≤ 90 s of its own plus the hosts' start); the bench is not.
    const limitMs = short ? 240_000 : 3 * 3_600_000;
    child = spawn("ip", ["netns", "exec", topo.ns("ctl"), process.execPath, "--import", "tsx", "tests/hosts/run.ts", "--inner", JSON.stringify(config)], {
      cwd: ROOT,
      stdio: "inherit",
      detached: true,
      env: process.env,
    });
    const timer = setTimeout(() => {
      console.log(`multi-host test: stopped after ${limitMs / 1000} s`);
      if (child?.pid) process.kill(-child.pid, "SIGKILL");
    }, limitMs);
    const code = await new Promise<number>((resolve) => child!.once("exit", (c, sig) => resolve(c ?? (sig ? 1 : 0))));
    clearTimeout(timer);
    if (code !== 0 && process.env.HOSTS_KEEP_DIR) console.log(`logs kept in ${dir}`);
    return code;
  } finally {
    cleanup();
  }
}

if (process.argv[2] === "--inner") {
  const { inner } = await import("./scenarios");
  process.exit(await inner(JSON.parse(process.argv[3]!) as InnerConfig));
} else {
  outer().then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(err);
      process.exit(1);
    },
  );
}
