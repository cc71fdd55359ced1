/**
 * Bench: the Bowling Bots refresh load on the HTTP services client.
 *
 * Starts the simulator (its own process by default: the platform is remote, and the client's
 * time should not include the simulator's CPU) with 50 ms latency on every answer, then
 * fetches the four stats of spec 1 §4's refresh flow (gift stats, user pic, status,
 * collection stats; cache skipped) for 200 simulated accounts through GalaxyServices.
 * The floor is what the configured concurrency allows at best:
 * calls ÷ concurrency × latency. Target: ≤ 1.25 × the floor.
 *
 *   node --import tsx bench/galaxy-stats.ts [--accounts 200] [--latency 50] [--concurrency 16] [--in-process]
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { buildServicesConfig, getServicesConfig } from "~/galaxy/services-config";
import { GalaxyServices } from "~/galaxy/services.server";
import { startSimulator } from "#sim/server";
import { freePort } from "./net";

export type StatsBenchResult = {
  accounts: number;
  calls: number;
  latencyMs: number;
  concurrency: number;
  elapsedMs: number;
  floorMs: number;
  ratio: number;
  peakInFlight: number;
  /** CPU time of this process during the run (client, plus the simulator when in-process). */
  clientCpuMs: number;
  /** CPU time of the simulator process during the run (separate process on Linux only). */
  simulatorCpuMs: number | null;
  simulator: "process" | "in-process";
};

type Account = { id: string; password: string };
type SimHandle = {
  servicesUrl: string;
  controlUrl: string;
  accounts: Account[];
  /** CPU ms the simulator process has used so far (Linux /proc), or null when unknown. */
  cpuMs(): number | null;
  close(): Promise<void>;
};

function processCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields 14 and 15 of /proc/<pid>/stat: user and system time in clock ticks (100 Hz).
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) / 100) * 1000;
  } catch {
    return null;
  }
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function control(controlUrl: string, pathName: string, body?: unknown) {
  const res = await fetch(
    `${controlUrl}${pathName}`,
    body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
  );
  if (!res.ok) throw new Error(`simulator control ${pathName}: ${res.status}`);
  return res.json();
}

async function simulatorProcess(): Promise<SimHandle> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "sim/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, GALAXY_SIM_PORT: String(port), GALAXY_SIM_HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("the simulator did not start within 30 s")), 30_000);
    child.once("exit", (code) => reject(new Error(`the simulator exited with ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("services")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.stdout!.resume();
  const base = `http://127.0.0.1:${port}`;
  const controlUrl = `${base}/__sim/`;
  const { accounts } = (await control(controlUrl, "accounts")) as { accounts: Account[] };
  return {
    servicesUrl: `${base}/services/`,
    controlUrl,
    accounts,
    cpuMs: () => processCpuMs(child.pid),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function simulatorInProcess(): Promise<SimHandle> {
  const sim = await startSimulator({ port: 0 });
  return { servicesUrl: sim.servicesUrl, controlUrl: sim.controlUrl, accounts: sim.world.accounts, cpuMs: () => null, close: () => sim.close() };
}

export async function runStatsBench(
  opts: { accounts?: number; latencyMs?: number; concurrency?: number; inProcess?: boolean } = {},
): Promise<StatsBenchResult> {
  const latencyMs = opts.latencyMs ?? 50;
  const wanted = opts.accounts ?? 200;
  const base = getServicesConfig();
  const concurrency = opts.concurrency ?? base.limits.concurrency;
  const config = buildServicesConfig({ ...base, limits: { ...base.limits, concurrency } });
  const sim = opts.inProcess ? await simulatorInProcess() : await simulatorProcess();
  // No database in the bench: every account uses the default web headers.
  const client = new GalaxyServices({ baseUrl: sim.servicesUrl, config, userAgents: async () => null });
  try {
    const accounts = sim.accounts.slice(0, wanted);
    if (accounts.length < wanted) throw new Error(`The simulator has only ${accounts.length} accounts`);
    const fetchFour = (list: Account[]) =>
      Promise.all(
        list.flatMap((a) => {
          const creds = { userID: a.id, password: a.password };
          const o = { skipCache: true };
          return [
            client.giftStats(creds, a.id, o),
            client.userPic(creds, a.id, o),
            client.status(creds, a.id, o),
            client.collectionStats(creds, a.id, undefined, o),
          ];
        }),
      );

    // Warm-up without latency on other accounts' data: opens the keep-alive connections and
    // lets both processes compile their hot paths. Then the per-account buckets refill.
    await control(sim.controlUrl, "faults", { latencyMs: 0 });
    await fetchFour(sim.accounts.slice(-Math.min(40, sim.accounts.length)));
    client.clearCache();
    await new Promise((r) => setTimeout(r, 1100));
    await control(sim.controlUrl, "faults", { latencyMs });

    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, client.stats().inFlight)), 10);
    const cpu = process.cpuUsage();
    const simCpu = sim.cpuMs();
    const start = performance.now();
    await fetchFour(accounts);
    const elapsedMs = performance.now() - start;
    const used = process.cpuUsage(cpu);
    const simCpuAfter = sim.cpuMs();
    clearInterval(sampler);
    const calls = accounts.length * 4;
    const floorMs = (calls / concurrency) * latencyMs;
    return {
      accounts: accounts.length,
      calls,
      latencyMs,
      concurrency,
      elapsedMs,
      floorMs,
      ratio: elapsedMs / floorMs,
      peakInFlight: peak,
      clientCpuMs: (used.user + used.system) / 1000,
      simulatorCpuMs: simCpu === null || simCpuAfter === null ? null : simCpuAfter - simCpu,
      simulator: opts.inProcess ? "in-process" : "process",
    };
  } finally {
    client.close();
    await sim.close();
  }
}

export function formatStatsBench(r: StatsBenchResult): string {
  return [
    `galaxy-stats: ${r.accounts} accounts × 4 stats = ${r.calls} calls, latency ${r.latencyMs} ms, concurrency ${r.concurrency} (simulator ${r.simulator})`,
    `  time   ${r.elapsedMs.toFixed(0)} ms`,
    `  floor  ${r.floorMs.toFixed(0)} ms  (calls ÷ concurrency × latency)`,
    `  ratio  ${r.ratio.toFixed(3)} × floor  (target ≤ 1.25)  ${r.ratio <= 1.25 ? "OK" : "OVER TARGET"}`,
    `  peak calls in flight: ${r.peakInFlight}`,
    `  CPU: client ${r.clientCpuMs.toFixed(0)} ms (${(r.clientCpuMs / r.calls).toFixed(2)} ms a call)` +
      (r.simulatorCpuMs === null
        ? ""
        : `, simulator ${r.simulatorCpuMs.toFixed(0)} ms; machine load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`),
  ].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: { accounts: { type: "string" }, latency: { type: "string" }, concurrency: { type: "string" }, "in-process": { type: "boolean" } },
  });
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  runStatsBench({ accounts: num(values.accounts), latencyMs: num(values.latency), concurrency: num(values.concurrency), inProcess: values["in-process"] })
    .then((r) => {
      console.log(formatStatsBench(r));
      process.exitCode = r.ratio <= 1.25 ? 0 : 1;
    })
    .catch((err) => {
      console.error(err);
      process.exitCode = 1;
    });
}
