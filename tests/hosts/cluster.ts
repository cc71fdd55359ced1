/**
 * The hosts' processes for the multi-host test, started from the controller (which runs in
 * the "ctl" namespace; tests/hosts/run.ts): a private PostgreSQL and redis-server in "data",
 * the Galaxy simulator in "sim", the web (the production build's `server.js`) in "web",
 * workers (`jobs/worker.ts`, what `npm run worker` runs) in w1, w2, w3. Each process gets
 * exactly its host's environment from the recipe (tests/hosts/recipe.ts) plus PATH and HOME,
 * and its own process group, so a "SIGKILL of the worker" kills everything it started.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fill, hostEnv, POSTGRES_CONF, REDIS_CONF, type Placeholders } from "./recipe";
import type { HostName, Topology } from "./netns";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Debian's PostgreSQL binaries (the newest installed version); PG_BIN overrides. */
const PG_BIN =
  process.env.PG_BIN ??
  (() => {
    const root = "/usr/lib/postgresql";
    const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb"))) : [];
    const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
    return newest ? path.join(root, newest, "bin") : "/usr/lib/postgresql/15/bin";
  })();
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type Proc = {
  name: string;
  host: HostName;
  child: ChildProcess;
  log: string;
  exited: Promise<void>;
  alive: () => boolean;
  /** Signals the whole process group. */
  signal: (s: NodeJS.Signals) => void;
  tail: (lines?: number) => string;
};

export type ClusterOptions = {
  topo: Topology;
  dir: string;
  buildDir: string;
  simAccounts: number;
};

export class Cluster {
  readonly procs: Proc[] = [];
  readonly values: Placeholders;
  simUrl = "";
  webUrl = "";
  #redisDir: string;

  constructor(readonly opts: ClusterOptions) {
    const data = opts.topo.addr("data");
    this.values = {
      DATA: data,
      PG_PASSWORD: "pg-" + path.basename(opts.dir),
      REDIS_PASSWORD: "redis-" + path.basename(opts.dir),
      APP_SECRET: `hosts-test-secret-${path.basename(opts.dir)}-0123456789abcdef`,
      GALAXY_WS_URL: `ws://${opts.topo.addr("sim")}:6680/`,
      GALAXY_SERVICES_URL: `http://${opts.topo.addr("sim")}:6680/services/`,
      GIFT_IMAGE_BASE_URL: `http://${opts.topo.addr("sim")}:6680/img/gifts/`,
    };
    this.#redisDir = path.join(opts.dir, "redis");
  }

  /** The environment a host's app process gets: the recipe, plus what the harness must differ in. */
  env(role: "web" | "worker", host: HostName): Record<string, string> {
    // HOST: the recipe puts a reverse proxy on each web host in front of 127.0.0.1; the
    // harness has none and calls the web directly from the ctl host. DATA_DIR: a private
    // scratch directory per host on this one machine.
    const overrides: Record<string, string> = { DATA_DIR: path.join(this.opts.dir, `${host}-data`) };
    if (role === "web") Object.assign(overrides, { HOST: "0.0.0.0", BUILD_DIR: this.opts.buildDir });
    return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", ...hostEnv(role, this.values, overrides) };
  }

  start(name: string, host: HostName, cmd: string[], env: Record<string, string>, opts: { cwd?: string } = {}): Proc {
    const child = spawn("ip", ["netns", "exec", this.opts.topo.ns(host), ...cmd], {
      cwd: opts.cwd ?? ROOT,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const logFile = fs.createWriteStream(path.join(this.opts.dir, `${name}.log`), { flags: "a" });
    const p: Proc = {
      name,
      host,
      child,
      log: "",
      exited: new Promise((resolve) => child.once("exit", () => resolve())),
      alive: () => child.exitCode === null && child.signalCode === null,
      signal: (s) => {
        try {
          process.kill(-child.pid!, s);
        } catch {
          // gone already
        }
      },
      tail: (n = 30) => p.log.split("\n").slice(-n).join("\n"),
    };
    const onData = (c: Buffer) => {
      p.log += c.toString();
      if (p.log.length > 400_000) p.log = p.log.slice(-200_000);
      // Output can still arrive after 'exit' (a grandchild of the process group, buffered pipes).
      if (!logFile.writableEnded) logFile.write(c);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    // The log ends once the pipes are closed ('close'), not at 'exit': a late chunk crashed the
    // harness with "write after end" after a 1,000-session run.
    logFile.on("error", () => {});
    child.once("close", () => logFile.end());
    this.procs.push(p);
    return p;
  }

  async waitFor(p: Proc, what: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    const t = Date.now();
    for (;;) {
      const m = what.exec(p.log);
      if (m) return m;
      if (!p.alive()) throw new Error(`${p.name} exited before "${what.source}":\n${p.tail(40)}`);
      if (Date.now() - t > timeoutMs) throw new Error(`${p.name}: no "${what.source}" within ${timeoutMs} ms:\n${p.tail(40)}`);
      await sleep(100);
    }
  }

  async startPostgres() {
    const dir = path.join(this.opts.dir, "pg");
    fs.mkdirSync(dir, { recursive: true });
    const pw = path.join(this.opts.dir, "pgpass");
    fs.writeFileSync(pw, this.values.PG_PASSWORD);
    spawnSync("chown", ["-R", "postgres:postgres", dir, pw]);
    fs.chmodSync(this.opts.dir, 0o755);
    const init = spawnSync(
      "runuser",
      [
        "-u",
        "postgres",
        "--",
        `${PG_BIN}/initdb`,
        "-D",
        dir,
        "-U",
        "galaxy",
        `--pwfile=${pw}`,
        "--auth-host=scram-sha-256",
        "--auth-local=trust",
        "-E",
        "UTF8",
      ],
      { encoding: "utf8" },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
    fs.appendFileSync(path.join(dir, "pg_hba.conf"), "host all all 10.229.0.0/16 scram-sha-256\n");
    fs.appendFileSync(
      path.join(dir, "postgresql.conf"),
      // The recipe's lines, then the harness's: a socket directory of its own, and no fsync
      // (a throw-away database on a shared machine; durability is not what is measured).
      [...POSTGRES_CONF.map((l) => fill(l, this.values)), `unix_socket_directories = '${dir}'`, "fsync = off", "synchronous_commit = off", ""].join("\n"),
    );
    const pg = this.start(
      "postgres",
      "data",
      [
        "runuser",
        "-u",
        "postgres",
        "--",
        `${PG_BIN}/postgres`,
        "-D",
        dir,
        ...(process.env.HOSTS_PG_LOG_STATEMENTS ? ["-c", "log_statement=all", "-c", "log_line_prefix=%m %a "] : []),
      ],
      { PATH: process.env.PATH ?? "" },
    );
    await this.waitFor(pg, /ready to accept connections/, 60_000);
    const created = spawnSync(`${PG_BIN}/psql`, ["-h", this.values.DATA, "-U", "galaxy", "-d", "postgres", "-c", "create database galaxy"], {
      env: { ...process.env, PGPASSWORD: this.values.PG_PASSWORD },
      encoding: "utf8",
    });
    if (created.status !== 0) throw new Error(`create database failed: ${created.stderr}`);
    return pg;
  }

  startRedis(): Promise<Proc> {
    fs.mkdirSync(this.#redisDir, { recursive: true });
    const conf = path.join(this.opts.dir, "redis.conf");
    fs.writeFileSync(conf, [...REDIS_CONF.map((l) => fill(l, this.values)), `dir ${this.#redisDir}`, "daemonize no", 'logfile ""', ""].join("\n"));
    const redis = this.start("redis", "data", ["redis-server", conf], { PATH: process.env.PATH ?? "" });
    return this.waitFor(redis, /Ready to accept connections/, 30_000).then(() => redis);
  }

  async startSim() {
    const sim = this.start("sim", "sim", [process.execPath, "--import", "tsx", "tests/hosts/sim-host.ts"], {
      PATH: process.env.PATH ?? "",
      SIM_HOST: this.opts.topo.addr("sim"),
      SIM_PORT: "6680",
      SIM_EXTRA_ACCOUNTS: String(this.opts.simAccounts),
    });
    await this.waitFor(sim, /"ready":true/, 90_000);
    this.simUrl = `http://${this.opts.topo.addr("sim")}:6680`;
    return sim;
  }

  async startWeb() {
    const web = this.start("web", "web", [process.execPath, path.join(this.opts.buildDir, "server.js")], this.env("web", "web"));
    await this.waitFor(web, /listening on/, 120_000);
    this.webUrl = `http://${this.opts.topo.addr("web")}:3000`;
    return web;
  }

  /** A worker host's `npm run worker` (node --import tsx jobs/worker.ts); resolves with its worker id once it processes. */
  async startWorker(host: "w1" | "w2" | "w3") {
    // HOSTS_WORKER_PROF=<dir>: each worker writes a V8 CPU profile there when it exits (stopAll lets them exit).
    const prof = process.env.HOSTS_WORKER_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.HOSTS_WORKER_PROF}`] : [];
    const w = this.start(host, host, [process.execPath, ...prof, "--import", "tsx", "jobs/worker.ts"], this.env("worker", host));
    const m = await this.waitFor(w, /\[jobs\] worker (\S+) processing/, 120_000);
    return Object.assign(w, { workerId: m[1] });
  }

  async stopAll() {
    if (process.env.HOSTS_WORKER_PROF) {
      // Profiles are written on a clean exit only: SIGTERM the workers first.
      const workers = this.procs.filter((p) => p.alive() && /^w\d$/.test(p.name));
      for (const p of workers) p.signal("SIGTERM");
      await Promise.all(workers.map((p) => Promise.race([p.exited, sleep(30_000)])));
    }
    for (const p of [...this.procs].reverse()) if (p.alive()) p.signal("SIGKILL");
    await Promise.all(this.procs.map((p) => Promise.race([p.exited, sleep(5_000)])));
  }
}
