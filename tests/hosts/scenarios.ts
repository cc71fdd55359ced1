/**
 * The multi-host test's controller: runs inside the "ctl" namespace (tests/hosts/run.ts
 * starts it), starts the hosts (tests/hosts/cluster.ts) and runs the scenarios, measuring
 * from the outside only: the simulator's sockets per host and its 950 takeovers
 * (GET /__sim/counters), the web's answers (/api/stalker/active, /api/health, pages) and
 * System Logs rows for the probe jobs. Nothing here asks a worker what it thinks.
 *
 * Fields are read tolerantly (other work changes /api/health and the session states): a
 * figure depends only on `connections` of /api/stalker/active, the HTTP status and
 * `status` of /api/health, and the simulator's counters.
 */
import crypto from "node:crypto";
import os from "node:os";
import { chromium, type Browser } from "@playwright/test";
import pg from "pg";
import { Cluster, sleep, type Proc } from "./cluster";
import { cut, heal, isolate, type HostName, type Topology } from "./netns";
import type { InnerConfig, Scenario } from "./run";

type Counts = {
  logins: number;
  takeovers: number;
  openSockets: number;
  onlineAccounts: number;
  doubledAccounts: number;
  byRemote: Record<string, string[]>;
};
type WorkerProc = Proc & { workerId: string };
type Figure = { name: string; value: number | null; unit: string; goal: string; ok: boolean | null; note?: string };

const secs = (ms: number) => Number((ms / 1000).toFixed(2));

export async function inner(config: InnerConfig): Promise<number> {
  const topo: Topology = {
    prefix: config.topo.prefix,
    ns: (h) => config.topo.names[h]!,
    addr: (h) => config.topo.addrs[h]!,
  };
  const figures: Figure[] = [];
  const fig = (f: Figure) => {
    figures.push(f);
    const v = f.value === null ? "n/a" : `${f.value}${f.unit ? ` ${f.unit}` : ""}`;
    const verdict = f.ok === null ? "" : f.ok ? "  ok" : "  MISSED";
    console.log(`  ${f.name}: ${v}   (goal ${f.goal})${verdict}${f.note ? `  — ${f.note}` : ""}`);
  };
  const N = config.short ? 20 : 100;
  const needAccounts = config.scenarios.includes("sigkill-1000") ? 1000 : N;
  const cluster = new Cluster({ topo, dir: config.dir, buildDir: config.buildDir, simAccounts: needAccounts });
  const failures: string[] = [];
  const t0 = Date.now();
  const workers: Partial<Record<"w1" | "w2" | "w3", WorkerProc>> = {};
  let db: pg.Client | undefined;
  let browser: Browser | undefined;
  try {
    console.log(`# multi-host test ${config.short ? "(short: worker SIGKILL, 20 stalkers)" : `— ${new Date().toISOString()}`}`);
    console.log(
      `namespaces ${topo.prefix}-*: ${Object.entries(config.topo.addrs)
        .map(([h, a]) => `${h} ${a}`)
        .join(", ")}; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    await Promise.all([cluster.startPostgres(), cluster.startRedis(), cluster.startSim()]);
    await cluster.startWeb();
    workers.w1 = await cluster.startWorker("w1");
    workers.w2 = await cluster.startWorker("w2");
    console.log(`hosts up in ${secs(Date.now() - t0)} s (PostgreSQL, Redis on data; simulator; web; workers w1, w2)`);

    // The controller reaches the data host like any host of the recipe.
    Object.assign(process.env, cluster.env("worker", "ctl"));
    const { createOperator } = await import("~/models/operator.server");
    const { createApiToken } = await import("~/models/api-token.server");
    const { upsertUser } = await import("~/models/user.server");
    const op = await createOperator("hosts", crypto.randomBytes(12).toString("hex"), { role: "admin" });
    const { token } = await createApiToken(op.id, "hosts");
    db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();

    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const web = async (method: string, p: string, body?: unknown, timeoutMs = 10_000) => {
      const t = Date.now();
      try {
        const res = await fetch(`${cluster.webUrl}${p}`, {
          method,
          headers: auth,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await res.text();
        return { status: res.status, text, ms: Date.now() - t };
      } catch (err) {
        return { status: 0, text: (err as Error).message, ms: Date.now() - t };
      }
    };
    const simGet = async <T>(p: string): Promise<T> => (await (await fetch(`${cluster.simUrl}${p}`, { signal: AbortSignal.timeout(10_000) })).json()) as T;
    const counts = () => simGet<Counts>("/__sim/counters");
    const activeIds = async (): Promise<Set<string> | null> => {
      const r = await web("GET", "/api/stalker/active", undefined, 5_000);
      if (r.status !== 200) return null;
      return new Set((JSON.parse(r.text) as { connections: string[] }).connections);
    };
    const heldBy = (c: Counts, host: HostName) => new Set(c.byRemote[topo.addr(host)] ?? []);

    type Account = { id: string; nick: string; password: string; kind?: string };
    const accounts = (await simGet<{ accounts: Account[] }>("/__sim/accounts?kind=stalker")).accounts.slice(-needAccounts);
    let stored = 0;
    const ensureStalkers = async (n: number) => {
      for (; stored < n; stored++)
        await upsertUser({ accountId: accounts[stored]!.id, nick: accounts[stored]!.nick, password: accounts[stored]!.password, type: "stalker" });
      return accounts.slice(0, n).map((a) => a.id);
    };
    /** Starts stalkers through the web's API (20 at a time; each answer waits for the login up to SESSION_START_WAIT_MS). */
    const startStalkers = async (ids: string[]) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (next < ids.length) {
            const id = ids[next++]!;
            const r = await web("POST", "/api/stalker/start", { account_id: id }, 30_000);
            if (r.status >= 300) throw new Error(`POST /api/stalker/start ${id} → ${r.status} ${r.text.slice(0, 200)}`);
          }
        }),
      );
    };
    const stopStalkers = async (ids: string[]) => {
      for (const id of ids) await web("POST", "/api/stalker/stop", { account_id: id }, 30_000);
      await until(async () => (await counts()).onlineAccounts === 0, 60_000, "all stalker sockets closed at the simulator");
    };
    /** Waits until every id is logged in at the simulator (from `hosts` when given) and listed by /api/stalker/active. */
    const allActive = async (ids: string[], hosts?: HostName[]) => {
      const c = await counts();
      const online = new Set(hosts ? hosts.flatMap((h) => [...heldBy(c, h)]) : Object.values(c.byRemote).flat());
      if (!ids.every((id) => online.has(id))) return false;
      const api = await activeIds();
      return !!api && ids.every((id) => api.has(id));
    };
    const until = async (cond: () => Promise<boolean>, timeoutMs: number, what: string) => {
      const t = Date.now();
      for (;;) {
        if (await cond().catch(() => false)) return Date.now() - t;
        if (Date.now() - t > timeoutMs) throw new Error(`not within ${timeoutMs / 1000} s: ${what}`);
        await sleep(200);
      }
    };
    const describe = async (ids: string[]) => {
      const c = await counts();
      return `w1 ${ids.filter((id) => heldBy(c, "w1").has(id)).length}, w2 ${ids.filter((id) => heldBy(c, "w2").has(id)).length}, w3 ${ids.filter((id) => heldBy(c, "w3").has(id)).length} sockets`;
    };
    /** Both workers hold some of `ids` (the fair shares spread them); waits for it. */
    const spread = async (ids: string[]) => {
      await until(async () => allActive(ids), config.short ? 60_000 : 180_000, `all ${ids.length} stalkers active`);
      await until(
        async () => {
          const c = await counts();
          return heldBy(c, "w1").size > 0 && heldBy(c, "w2").size > 0;
        },
        config.short ? 20_000 : 60_000,
        "stalkers on both workers",
      ).catch(() => undefined);
    };

    /**
     * Samples every 250 ms until `done`: seconds during which an account had two logged-in
     * sockets at the platform from live hosts (a host in `dead` holds nothing: its sockets may
     * linger at the platform, but no process is behind them), the largest number of such
     * accounts, 950 takeovers, and the seconds during which /api/stalker/active listed a
     * session that no live host had a socket for.
     */
    const watch = async (ids: string[], done: (c: Counts, api: Set<string> | null) => boolean, timeoutMs: number, dead: HostName[] = []) => {
      const start = Date.now();
      const base = await counts();
      const deadAddrs = new Set(dead.map((h) => topo.addr(h)));
      const idSet = new Set(ids);
      let doubledMs = 0;
      let maxDoubled = 0;
      let lyingMs = 0;
      let maxLying = 0;
      let last = Date.now();
      /** Per second since the start: how many of `ids` the survivors hold at the simulator (the figure's shape, printed for large runs). */
      const timeline: number[] = [];
      for (;;) {
        const [c, api] = await Promise.all([counts(), activeIds()]);
        const now = Date.now();
        const second = Math.floor((now - start) / 1000);
        let live = 0;
        for (const [addr, held] of Object.entries(c.byRemote)) if (!deadAddrs.has(addr)) for (const id of held) if (idSet.has(id)) live++;
        timeline[second] = live;
        const dt = now - last;
        last = now;
        const sockets = new Map<string, number>();
        for (const [addr, held] of Object.entries(c.byRemote)) if (!deadAddrs.has(addr)) for (const id of held) sockets.set(id, (sockets.get(id) ?? 0) + 1);
        const doubled = [...sockets.values()].filter((x) => x > 1).length;
        const lying = api ? ids.filter((id) => api.has(id) && !sockets.has(id)).length : 0;
        if (doubled > 0) doubledMs += dt;
        if (lying > 0) lyingMs += dt;
        maxDoubled = Math.max(maxDoubled, doubled);
        maxLying = Math.max(maxLying, lying);
        const finished = done(c, api);
        if (finished || now - start > timeoutMs) {
          return { ms: finished ? now - start : null, doubledMs, maxDoubled, lyingMs, maxLying, takeovers: c.takeovers - base.takeovers, timeline };
        }
        await sleep(250);
      }
    };
    const restartWorker = async (h: "w1" | "w2" | "w3") => {
      workers[h] = await cluster.startWorker(h);
    };

    /**
     * An operator's open page (Chromium, logged in by the controller's token): All Characters
     * with rows of `watched`. Resolves with the time (ms after `t0()`) at which the page first
     * showed one of them as not active — "Worker lost · waiting for a worker", or "Moving to
     * worker …" once another worker took it — recorded in the page by a MutationObserver, so a
     * state shown briefly between two renders still counts; null when it never did within 30 s.
     */
    const openPage = async (watched: string[]) => {
      browser ??= await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
      const context = await browser.newContext({ extraHTTPHeaders: { authorization: `Bearer ${token}` }, viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${cluster.webUrl}/characters`, { waitUntil: "load" });
      // Scripts as text: tsx names the functions it compiles (__name), which the page does not have.
      const ids = JSON.stringify(watched);
      const onPage = (await page.evaluate(`${ids}.filter((id) => document.querySelector('[data-account="' + id + '"]'))`)) as string[];
      if (!onPage.length) throw new Error("no row of the doomed worker's stalkers on the first page of All Characters");
      const phaseOf = `((id) => document.querySelector('[data-account="' + id + '"] [data-phase]')?.getAttribute("data-phase"))`;
      // Every watched row shows its stalker active before the signal (the screen told the truth until then).
      await page.waitForFunction(`${JSON.stringify(onPage)}.every((id) => ${phaseOf}(id) === "active")`, undefined, { timeout: 30_000 });
      // From now on the page changes only through its live stream (no reload below).
      await page.evaluate(`(() => {
        window.__shownLostAt = null;
        const check = () => {
          if (window.__shownLostAt !== null) return;
          for (const id of ${JSON.stringify(onPage)}) {
            const phase = ${phaseOf}(id);
            if (phase && phase !== "active") {
              window.__shownLostAt = Date.now();
              window.__shownText = document.querySelector('[data-account="' + id + '"]')?.innerText ?? "";
              return;
            }
          }
        };
        new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
      })()`);
      return {
        rows: onPage.length,
        /** Waits up to 30 s after `since` for the page to have shown it; then closes the page. */
        shown: async (since: number) => {
          try {
            await page.waitForFunction(`window.__shownLostAt !== null`, undefined, { timeout: Math.max(1_000, since + 30_000 - Date.now()) });
            const [at, text] = (await page.evaluate(`[window.__shownLostAt, window.__shownText]`)) as [number, string];
            return { ms: at - since, text };
          } catch {
            return { ms: null, text: "" };
          } finally {
            await context.close().catch(() => undefined);
          }
        },
      };
    };

    /** SIGKILL (or isolate, then SIGKILL; or SIGTERM: a drain) w1 while w1 and w2 hold `n` stalkers. */
    const killScenario = async (title: string, n: number, how: "kill" | "vanish" | "drain") => {
      const ids = await ensureStalkers(n);
      await startStalkers(ids);
      await spread(ids);
      await sleep(2_000);
      const before = await describe(ids);
      const c0 = await counts();
      const onW1 = ids.filter((id) => heldBy(c0, "w1").has(id));
      console.log(`\n## ${title}: ${n} stalkers (${before}); load average ${os.loadavg()[0]!.toFixed(2)}`);
      // Which /api/health worker is w1 (by its pid: `ip netns exec` execs the worker in place).
      type HealthWorker = { pid: number; state: string };
      const healthWorkers = async () => {
        const h = await web("GET", "/api/health", undefined, 3_000);
        try {
          return (JSON.parse(h.text) as { workers?: HealthWorker[] }).workers ?? [];
        } catch {
          return [];
        }
      };
      const w1Pid = workers.w1!.child.pid;
      const listedBefore = (await healthWorkers()).some((w) => w.pid === w1Pid && w.state === "alive");
      // An open page (the 1,000-session run has too many rows for one page: the figures above cover it).
      const page = how !== "drain" && n <= 100 ? await openPage(onW1) : null;
      let isolation: string | undefined;
      if (how === "vanish") isolation = isolate(topo, "w1");
      const tSignal = Date.now();
      // When the truth flips: every screen and /api joins a session's holder to this list (decision 0027).
      const shownLost =
        how === "drain" || !listedBefore
          ? Promise.resolve(null)
          : (async () => {
              while (Date.now() - tSignal < 30_000) {
                const w = (await healthWorkers()).find((x) => x.pid === w1Pid);
                if (w && w.state !== "alive") return Date.now() - tSignal;
                await sleep(200);
              }
              return null;
            })();
      workers.w1!.signal(how === "drain" ? "SIGTERM" : "SIGKILL");
      if (how !== "drain") await workers.w1!.exited;
      else
        void workers.w1!.exited.then(() =>
          fig({
            name: "w1 exited after SIGTERM",
            value: secs(Date.now() - tSignal),
            unit: "s",
            goal: "< WORKER_SHUTDOWN_TIMEOUT_MS (25 s)",
            ok: Date.now() - tSignal < 25_000,
          }),
        );
      const r = await watch(
        ids,
        (c, api) => ids.every((id) => heldBy(c, "w2").has(id)) && !!api && ids.every((id) => api.has(id)),
        config.short ? 60_000 : 120_000,
        how === "drain" ? [] : ["w1"],
      );
      if (isolation) heal(topo, isolation);
      if (how === "drain") await workers.w1!.exited;
      if (n >= 500 || r.ms === null || r.ms > 10_000) {
        // Where the time went: sessions held by live hosts per second, and the moved sessions' retries.
        console.log(`  held by live hosts, per second after the signal: ${r.timeline.map((v, i) => `${i}:${v ?? "-"}`).join(" ")}`);
        const { rows } = await db!.query<{ attempt: number; error: string | null; n: string }>(
          `select attempt, error, count(*) as n from sessions where purpose = 'stalker' and key = any($1) group by attempt, error order by n desc limit 8`,
          [onW1],
        );
        console.log(
          `  moved sessions by attempt and last error: ${rows.map((x) => `${x.n}× attempt ${x.attempt}${x.error ? ` "${x.error}"` : ""}`).join("; ")}`,
        );
      }
      fig({
        name: "all sessions active on the survivor (simulator and /api/stalker/active)",
        value: r.ms === null ? null : secs(r.ms),
        unit: "s",
        goal: "≤ 10 s",
        ok: r.ms !== null && r.ms <= 10_000,
        note: r.ms === null ? `not within the watch; ${await describe(ids)}` : `${onW1.length} moved`,
      });
      fig({
        name: "seconds with two logged-in sockets for one account (at the simulator)",
        value: secs(r.doubledMs),
        unit: "s",
        goal: "0",
        ok: r.doubledMs === 0,
        note: r.maxDoubled ? `up to ${r.maxDoubled} accounts at once` : undefined,
      });
      fig({
        name: "950 takeovers (a login while the account's old socket was still logged in)",
        value: r.takeovers,
        unit: "",
        // A vanished host's sockets stay open at the platform with no process behind them; the
        // platform tells them 950 when the new holder logs in. Reported, no goal.
        goal: how === "vanish" ? "none: told to the vanished host's dead sockets" : "0",
        ok: how === "vanish" ? null : r.takeovers === 0,
      });
      if (page) {
        const shown = await page.shown(tSignal);
        fig({
          name: "dead holder shown on an open page (All Characters in Chromium, live, no reload), after the signal",
          value: shown.ms === null ? null : secs(shown.ms),
          unit: "s",
          goal: "≤ 6 s",
          ok: shown.ms !== null && shown.ms <= 6_000,
          note: shown.ms === null ? `none of its ${page.rows} rows changed within 30 s` : `a row said: ${shown.text.replace(/\s+/g, " ").slice(0, 90)}`,
        });
        if (config.short && shown.ms === null) failures.push(`the open page kept showing the dead worker's ${page.rows} stalkers active for 30 s`);
      }
      if (how !== "drain") {
        const lostMs = await shownLost;
        fig({
          name: "dead holder shown as lost (/api/health's worker, which every screen and /api joins), after the signal",
          value: lostMs === null ? null : secs(lostMs),
          unit: "s",
          goal: "≤ 6 s",
          ok: lostMs !== null && lostMs <= 6_000,
          note: listedBefore ? undefined : "w1 was not listed alive in /api/health before the signal",
        });
      }
      fig({
        name: "seconds /api/stalker/active listed a session with no logged-in socket (a dead holder, or the new holder still logging in)",
        value: secs(r.lyingMs),
        unit: "s",
        goal: "(reported: spec 2 §7 lists connecting stalkers too)",
        ok: null,
        note: r.maxLying ? `up to ${r.maxLying} sessions` : undefined,
      });
      if (config.short) {
        if (r.ms === null) failures.push(`after SIGKILL of w1, not all ${n} sessions were active on w2 within 60 s (${await describe(ids)})`);
        if (r.maxDoubled > 0) failures.push(`an account had two logged-in sockets at once (up to ${r.maxDoubled} accounts)`);
        if (r.takeovers > 0) failures.push(`${r.takeovers} 950 takeovers at the simulator`);
      }
      await restartWorker("w1");
      return ids;
    };

    for (const scenario of config.scenarios) {
      try {
        await runScenario(scenario);
      } catch (err) {
        console.log(`  ${scenario}: ERROR ${(err as Error).message}`);
        failures.push(`${scenario}: ${(err as Error).message}`);
        // Start over from a known state for the next scenario.
        for (const h of ["w1", "w2"] as const) if (!workers[h]?.alive()) await restartWorker(h).catch(() => undefined);
      }
    }

    async function runScenario(scenario: Scenario) {
      if (scenario === "sigkill") {
        const ids = await killScenario("worker SIGKILL", N, "kill");
        if (!config.short) await stopStalkers(ids);
      } else if (scenario === "sigkill-1000") {
        const ids = await killScenario("worker SIGKILL, 1,000 stalkers over two workers", 1000, "kill");
        await stopStalkers(ids);
      } else if (scenario === "drain") {
        const ids = await killScenario("worker drained (SIGTERM: hands its sessions over)", N, "drain");
        await stopStalkers(ids);
      } else if (scenario === "vanish") {
        const ids = await killScenario("worker host vanishes (isolated, then killed; its sockets never closed)", N, "vanish");
        await stopStalkers(ids);
      } else if (scenario === "worker-cut") {
        const ids = await ensureStalkers(N);
        await startStalkers(ids);
        await spread(ids);
        await sleep(2_000);
        const c0 = await counts();
        const onW1 = ids.filter((id) => heldBy(c0, "w1").has(id));
        console.log(`\n## worker w1 cut from the data host for 30 s, still reaching the platform: ${N} stalkers (${await describe(ids)})`);
        const key = cut(topo, "w1", "data");
        const tCut = Date.now();
        let w1Closed: number | null = null;
        let firstMoved: number | null = null;
        let bothAtOnce = 0;
        while (Date.now() - tCut < 30_000) {
          const c = await counts();
          const w1 = heldBy(c, "w1");
          const w2 = heldBy(c, "w2");
          const t = Date.now() - tCut;
          if (w1Closed === null && onW1.every((id) => !w1.has(id))) w1Closed = t;
          if (firstMoved === null && onW1.some((id) => w2.has(id))) firstMoved = t;
          bothAtOnce = Math.max(bothAtOnce, onW1.filter((id) => w1.has(id) && w2.has(id)).length);
          await sleep(250);
        }
        const during = (await counts()).takeovers - c0.takeovers;
        heal(topo, key);
        const back = await watch(
          ids,
          (c, api) => ids.every((id) => Object.values(c.byRemote).flat().includes(id)) && !!api && ids.every((id) => api.has(id)),
          90_000,
        );
        // Some time for a worker that only notices after the heal to do damage, then count.
        await sleep(5_000);
        const after = (await counts()).takeovers - c0.takeovers - during;
        fig({ name: "950 takeovers during the 30 s cut", value: during, unit: "", goal: "0", ok: during === 0, note: `${onW1.length} sessions were on w1` });
        fig({ name: "950 takeovers after the heal", value: after, unit: "", goal: "0", ok: after === 0 });
        fig({
          name: "w1's sockets all closed, after the cut",
          value: w1Closed === null ? null : secs(w1Closed),
          unit: "s",
          goal: "before another worker logs them in",
          ok: w1Closed !== null && (firstMoved === null || w1Closed <= firstMoved),
        });
        fig({
          name: "first of w1's sessions logged in by w2, after the cut",
          value: firstMoved === null ? null : secs(firstMoved),
          unit: "s",
          goal: "≤ 10 s",
          ok: firstMoved !== null && firstMoved <= 10_000,
        });
        fig({ name: "accounts seen logged in from w1 and w2 at once (largest sample)", value: bothAtOnce, unit: "", goal: "0", ok: bothAtOnce === 0 });
        fig({
          name: "all sessions active again after the heal",
          value: back.ms === null ? null : secs(back.ms),
          unit: "s",
          goal: "≤ 10 s",
          ok: back.ms !== null && back.ms <= 10_000,
          note: back.ms === null ? await describe(ids) : undefined,
        });
        await stopStalkers(ids);
      } else if (scenario === "web-cut") {
        const ids = await ensureStalkers(Math.min(N, 20));
        await startStalkers(ids);
        await until(async () => allActive(ids), 120_000, "stalkers active");
        console.log(`\n## web cut from the data host for 20 s (PostgreSQL and Redis unreachable from the web)`);
        const paths = ["/api/health", "/api/stalker/active", "/characters", "/api/logs?limit=5", "/healthz"];
        const key = cut(topo, "web", "data");
        const tCut = Date.now();
        const answers: { path: string; ms: number; status: number }[] = [];
        // Every second, every path asked at once (each waits up to 15 s), as open pages,
        // monitors and scripts keep asking; each answer's time is recorded.
        const pending: Promise<void>[] = [];
        while (Date.now() - tCut < 20_000) {
          for (const p of paths) pending.push(web("GET", p, undefined, 15_000).then((r) => void answers.push({ path: p, ms: r.ms, status: r.status })));
          await sleep(1_000);
        }
        heal(topo, key);
        const healthyAfter = until(
          async () => {
            const r = await web("GET", "/api/health", undefined, 3_000);
            return r.status === 200 && (JSON.parse(r.text) as { status?: string }).status === "ok";
          },
          60_000,
          "/api/health ok after the heal",
        ).catch(() => null);
        // Answers still outstanding at the heal count too: they were asked while cut.
        await Promise.all(pending);
        const healthy = await healthyAfter;
        const slow = answers.filter((a) => a.ms > 2_000);
        const max = Math.max(...answers.map((a) => a.ms));
        const per = paths
          .map((p) => {
            const xs = answers.filter((a) => a.path === p);
            return `${p} ×${xs.length} max ${secs(Math.max(...xs.map((a) => a.ms)))} s [${[...new Set(xs.map((a) => a.status))].join(",")}]`;
          })
          .join("; ");
        fig({ name: "slowest answer while cut", value: secs(max), unit: "s", goal: "≤ 2 s", ok: max <= 2_000, note: per });
        fig({ name: "answers slower than 2 s while cut", value: slow.length, unit: `of ${answers.length}`, goal: "0", ok: slow.length === 0 });
        fig({
          name: "healthy (/api/health 200 ok) after the heal",
          value: healthy === null ? null : secs(healthy),
          unit: "s",
          goal: "≤ 5 s",
          ok: healthy !== null && healthy <= 5_000,
        });
        await stopStalkers(ids);
      } else if (scenario === "collections-cut") {
        // Collections Auto (3 cycles, every 5 s) whose cycle runs on w1: w1 is cut from the data
        // host in the middle of a send, w2 is there to continue. Counted at the simulator: gift
        // ids asked to be sent twice (present_make requests), and whether Auto finished.
        const { saveProfile, updateState, getState, listActivity } = await import("~/models/collections.server");
        const { startAuto, stopAuto } = await import("~/models/automation.server");
        const all = (await simGet<{ accounts: Account[] }>("/__sim/accounts")).accounts;
        const [sender, recipient] = [all[0]!, all[1]!];
        const profile = await saveProfile(op.id, { accountId: sender.id, nick: sender.nick, password: sender.password, loginMethod: "recovery" });
        await updateState(op.id, { profileId: profile.id, collectionId: 178, recipientId: recipient.id });
        console.log(`\n## Collections Auto (3 cycles, every 5 s) on w1, w1 cut from the data host for 30 s in the middle of a send`);
        // Only w1 runs while Auto starts, so its first cycle is w1's; w2 comes back to take over.
        workers.w2!.signal("SIGTERM");
        await workers.w2!.exited;
        type Req = { action: string; userID: string; params: Record<string, string>; at: number; remoteAddress?: string | null };
        const sends = async () =>
          (await simGet<{ requests: Req[] }>("/__sim/services/requests?action=present_make")).requests.filter((r) => r.userID === sender.id);
        const before = (await sends()).length;
        await startAuto(op.id, { repeat: 3, intervalSeconds: 5 });
        const w2Up = restartWorker("w2");
        await until(async () => (await sends()).length > before, 120_000, "the first gift send of the Auto cycle");
        await w2Up;
        const key = cut(topo, "w1", "data");
        const tCut = Date.now();
        await sleep(30_000);
        heal(topo, key);
        const tHeal = Date.now();
        const done = await until(
          async () => {
            const st = await getState(op.id);
            return !st.auto && st.autoChain === null;
          },
          180_000,
          "Auto finished",
        ).catch(() => null);
        await sleep(3_000);
        const made = (await sends()).slice(before);
        const ids = made.flatMap((r) => Object.keys(r.params).flatMap((k) => /^checked_items\[(\d+)\]$/.exec(k)?.[1] ?? []));
        const twice = ids.length - new Set(ids).size;
        const fromW1WhileCut = made.filter((r) => r.at >= tCut && r.at < tHeal && r.remoteAddress === topo.addr("w1")).length;
        const firstOnW2 = made.find((r) => r.at >= tCut && r.remoteAddress === topo.addr("w2"));
        const firstAfter = made.find((r) => r.at >= tCut);
        const entries = await listActivity(op.id, 200);
        const activity = entries.map((a) => JSON.stringify(a));
        // The issue's measure: the cycle continues on another worker (the line that worker writes
        // once when it takes the cycle back, decision 0028). A send may come later: the cycle may
        // have had nothing left to send, and the next cycle waits its interval.
        const moved = entries
          .filter((a) => /worker lost or cut off/i.test(a.message) && Date.parse(a.at) >= tCut)
          .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))[0];
        console.log(
          "  Activity Log after the cut (s after the cut):\n" +
            entries
              .filter((a) => Date.parse(a.at) >= tCut - 2_000)
              .reverse()
              .slice(0, 20)
              .map((a) => `    ${secs(Date.parse(a.at) - tCut)} ${a.message}`)
              .join("\n"),
        );
        fig({
          name: "cycle continued on another worker (its Activity Log line), after the cut",
          value: moved ? secs(Date.parse(moved.at) - tCut) : null,
          unit: "s",
          goal: "≤ 10 s",
          ok: !!moved && Date.parse(moved.at) - tCut <= 10_000,
        });
        fig({ name: "gift ids asked to be sent twice (present_make)", value: twice, unit: `of ${ids.length} sent`, goal: "0", ok: twice === 0 });
        fig({
          name: "first send by w2 after the cut",
          value: firstOnW2 ? secs(firstOnW2.at - tCut) : null,
          unit: "s",
          goal: "(reported: the cycle's next send, if it had one left)",
          ok: null,
        });
        fig({
          name: "first send by any worker after the cut",
          value: firstAfter ? secs(firstAfter.at - tCut) : null,
          unit: "s",
          goal: "(reported)",
          ok: null,
          note: firstAfter
            ? `by ${firstAfter.remoteAddress === topo.addr("w1") ? "w1" : firstAfter.remoteAddress === topo.addr("w2") ? "w2" : firstAfter.remoteAddress}`
            : undefined,
        });
        fig({ name: "sends by w1 while it was cut from the data host", value: fromW1WhileCut, unit: "", goal: "0", ok: fromW1WhileCut === 0 });
        fig({
          name: "Auto finished (3 cycles), after the heal",
          value: done === null ? null : secs(done),
          unit: "s",
          goal: "(reported)",
          ok: null,
          note: `${activity.filter((t) => /stalled|lost|another worker|moved/i.test(t)).length} Activity Log entries name a lost, stalled or moved worker`,
        });
        await stopAuto(op.id).catch(() => undefined);
      } else if (scenario === "redis-restart") {
        const ids = await ensureStalkers(N);
        await startStalkers(ids);
        await spread(ids);
        console.log(`\n## Redis restart (SIGTERM, AOF kept, started again): ${N} stalkers, 20 probe jobs queued`);
        const run = crypto.randomBytes(3).toString("hex");
        const keys = Array.from({ length: 20 }, (_, k) => `${run}-${k}`);
        for (const key of keys) {
          const r = await web("POST", "/api/jobs/probe", { ms: 1_500, key });
          if (r.status !== 202) throw new Error(`POST /api/jobs/probe → ${r.status} ${r.text.slice(0, 200)}`);
        }
        const redis = cluster.procs.find((p) => p.name === "redis" && p.alive())!;
        redis.signal("SIGTERM");
        await redis.exited;
        const tDown = Date.now();
        await cluster.startRedis();
        const tUp = Date.now();
        const back = await watch(
          ids,
          (c, api) => ids.every((id) => Object.values(c.byRemote).flat().includes(id)) && !!api && ids.every((id) => api.has(id)),
          90_000,
        );
        // Probe jobs: each must write "Probe job probe-<key> completed" exactly once.
        const count = async () => {
          const { rows } = await db!.query<{ message: string }>(`select message from logs where message like $1`, [`Probe job probe-${run}-%`]);
          const per = new Map<string, number>();
          for (const r of rows) {
            const k = /probe-(\S+) completed/.exec(r.message)?.[1];
            if (k) per.set(k, (per.get(k) ?? 0) + 1);
          }
          return per;
        };
        await until(async () => (await count()).size >= keys.length, 60_000, "every probe job done").catch(() => undefined);
        await sleep(3_000);
        const per = await count();
        const lost = keys.filter((k) => !per.has(k)).length;
        const doubled = [...per.values()].filter((n) => n > 1).length;
        fig({ name: "Redis down", value: secs(tUp - tDown), unit: "s", goal: "(how long the restart took)", ok: null });
        fig({
          name: "sessions back after Redis is up",
          value: back.ms === null ? null : secs(back.ms),
          unit: "s",
          goal: "≤ 5 s",
          ok: back.ms !== null && back.ms <= 5_000,
        });
        fig({ name: "950 takeovers", value: back.takeovers, unit: "", goal: "0", ok: back.takeovers === 0 });
        fig({ name: "probe jobs lost", value: lost, unit: `of ${keys.length}`, goal: "0", ok: lost === 0 });
        fig({ name: "probe jobs run twice", value: doubled, unit: `of ${keys.length}`, goal: "0", ok: doubled === 0 });
        await stopStalkers(ids);
      }
    }
  } catch (err) {
    failures.push((err as Error).message);
    console.log(`ERROR ${(err as Error).message}`);
  } finally {
    await browser?.close().catch(() => undefined);
    await db?.end().catch(() => undefined);
    if (process.env.DATABASE_URL) {
      const { closeDb } = await import("~/db/client.server");
      const { closeQueues } = await import("~/queue/queues.server");
      await closeQueues().catch(() => undefined);
      await closeDb().catch(() => undefined);
    }
    if (failures.length) {
      for (const p of cluster.procs) if (["web", "w1", "w2"].includes(p.name)) console.log(`--- last lines of ${p.name}:\n${p.tail(15)}`);
    }
    await cluster.stopAll();
  }
  const missed = figures.filter((f) => f.ok === false).length;
  console.log(`\n${figures.length} figures, ${missed} MISSED; ${secs(Date.now() - t0)} s in all`);
  if (config.short) {
    if (failures.length) {
      console.log(`multi-host test FAILED:\n- ${failures.join("\n- ")}`);
      return 1;
    }
    console.log("multi-host test passed: after SIGKILL of one worker all sessions were active on the other, never two sockets for one account");
    return 0;
  }
  if (failures.length) console.log(`errors:\n- ${failures.join("\n- ")}`);
  return failures.length ? 1 : 0;
}
