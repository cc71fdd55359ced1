/**
 * Hosts as Linux network namespaces on one machine (docs/decisions/0030-multi-host-test.md).
 *
 * One "switch" namespace routes between the hosts: each host namespace has one veth (`eth0`,
 * 10.229.<n>.2/24) whose peer sits in the switch (10.229.<n>.1, the host's default route), and
 * the switch forwards. Nothing is attached to the root namespace, so nothing leaves: the
 * addresses exist only inside this run's namespaces, and a concurrent run has its own switch
 * and names (prefix `gh<4 hex>-`).
 *
 * Partitions are policy rules in the switch: `ip rule add from A to B blackhole` drops the
 * forwarded packets silently (no ICMP, no reset), which is what a cut cable or a dead
 * host looks like to both ends. (This kernel has no netem and there is no iptables.)
 */
import { execFileSync, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** One file per live run (its prefix, holding the owner's pid): a run killed with SIGKILL is swept by the next. */
const OWNERS = "/run/galaxy-hosts-test";

export const HOSTS = ["ctl", "data", "sim", "web", "w1", "w2", "w3"] as const;
export type HostName = (typeof HOSTS)[number];

export type Topology = {
  prefix: string;
  ns: (host: HostName | "sw") => string;
  addr: (host: HostName) => string;
};

function ip(args: string[]) {
  execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/** Whether this machine lets us build namespaces: root, `ip netns`, policy rules. */
export function canBuildNamespaces(): { ok: true } | { ok: false; why: string } {
  if (process.getuid?.() !== 0) return { ok: false, why: "needs root" };
  const probe = `ghprobe${crypto.randomBytes(2).toString("hex")}`;
  const r = spawnSync("ip", ["netns", "add", probe], { encoding: "utf8" });
  if (r.status !== 0) return { ok: false, why: `needs root with network namespaces (ip netns add: ${(r.stderr || r.error?.message || "").trim()})` };
  spawnSync("ip", ["netns", "del", probe]);
  return { ok: true };
}

/** Removes the namespaces of earlier runs whose owner process is gone (killed before its cleanup). */
export function sweepAbandoned() {
  let files: string[] = [];
  try {
    files = fs.readdirSync(OWNERS);
  } catch {
    return;
  }
  for (const prefix of files) {
    const pid = Number(fs.readFileSync(path.join(OWNERS, prefix), "utf8"));
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      // gone
    }
    if (alive) continue;
    destroyTopology({ prefix });
    // Its hosts' files too (tests/hosts/run.ts keeps them in <tmp>/<prefix>-*).
    for (const f of fs.readdirSync(os.tmpdir())) if (f.startsWith(`${prefix}-`)) fs.rmSync(path.join(os.tmpdir(), f), { recursive: true, force: true });
  }
}

export function createTopology(hosts: readonly HostName[] = HOSTS): Topology {
  sweepAbandoned();
  const prefix = `gh${crypto.randomBytes(2).toString("hex")}`;
  fs.mkdirSync(OWNERS, { recursive: true });
  fs.writeFileSync(path.join(OWNERS, prefix), String(process.pid));
  const index = (h: HostName) => HOSTS.indexOf(h) + 1;
  const topo: Topology = {
    prefix,
    ns: (host) => `${prefix}-${host}`,
    addr: (host) => `10.229.${index(host)}.2`,
  };
  try {
    ip(["netns", "add", topo.ns("sw")]);
    ip(["-n", topo.ns("sw"), "link", "set", "lo", "up"]);
    execFileSync("ip", ["netns", "exec", topo.ns("sw"), "sysctl", "-qw", "net.ipv4.ip_forward=1"]);
    for (const h of hosts) {
      const n = index(h);
      const ns = topo.ns(h);
      ip(["netns", "add", ns]);
      ip(["-n", ns, "link", "set", "lo", "up"]);
      ip(["-n", topo.ns("sw"), "link", "add", `h${n}`, "type", "veth", "peer", "name", "eth0", "netns", ns]);
      ip(["-n", topo.ns("sw"), "addr", "add", `10.229.${n}.1/24`, "dev", `h${n}`]);
      ip(["-n", topo.ns("sw"), "link", "set", `h${n}`, "up"]);
      ip(["-n", ns, "addr", "add", `10.229.${n}.2/24`, "dev", "eth0"]);
      ip(["-n", ns, "link", "set", "eth0", "up"]);
      ip(["-n", ns, "route", "add", "default", "via", `10.229.${n}.1`]);
    }
  } catch (err) {
    destroyTopology(topo);
    throw err;
  }
  return topo;
}

/** Kills every process left in this run's namespaces, then deletes them. Safe to call twice. */
export function destroyTopology(topo: Pick<Topology, "prefix">) {
  const list = spawnSync("ip", ["netns", "list"], { encoding: "utf8" }).stdout ?? "";
  const mine = list
    .split("\n")
    .map((l) => l.split(" ")[0])
    .filter((n) => n.startsWith(`${topo.prefix}-`));
  for (const ns of mine) {
    const pids = (spawnSync("ip", ["netns", "pids", ns], { encoding: "utf8" }).stdout ?? "").split(/\s+/).filter(Boolean);
    for (const pid of pids) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  for (const ns of mine) spawnSync("ip", ["netns", "del", ns]);
  fs.rmSync(path.join(OWNERS, topo.prefix), { force: true });
}

/** Rules added by `cut`/`isolate`, so `heal` removes exactly those. */
const rules = new Map<string, string[][]>();

function rule(topo: Topology, op: "add" | "del", args: string[]) {
  ip(["-n", topo.ns("sw"), "rule", op, ...args, "blackhole"]);
}

/** Silently drops everything between `a` and `b` (both ways) until `heal(topo, key)`. */
export function cut(topo: Topology, a: HostName, b: HostName): string {
  const key = `cut:${a}:${b}`;
  const added = [
    ["from", topo.addr(a), "to", topo.addr(b)],
    ["from", topo.addr(b), "to", topo.addr(a)],
  ];
  for (const r of added) rule(topo, "add", r);
  rules.set(key, added);
  return key;
}

/** Drops everything to and from `host`: the host vanishes from the network. */
export function isolate(topo: Topology, host: HostName): string {
  const key = `isolate:${host}`;
  const added = [
    ["from", topo.addr(host)],
    ["to", topo.addr(host)],
  ];
  for (const r of added) rule(topo, "add", r);
  rules.set(key, added);
  return key;
}

export function heal(topo: Topology, key: string) {
  for (const r of rules.get(key) ?? []) rule(topo, "del", r);
  rules.delete(key);
}
