/**
 * List pages at scale (issue 20; printed figures, not asserted). See bench/README.md.
 *
 *   node --import tsx bench/list-pages.ts          # or: npm run bench lists
 *
 * For each list page (a "part"), on its own fresh database and its own server process (so a
 * part's 10-row baseline holds nothing another part seeded), the table behind it is grown to
 * 10, 1,000 and 10,000 (and for /logs 1,000,000) rows, and the page is requested from the real production server
 * (server.ts: helmet, compression off for the measurement — no Accept-Encoding — the auth
 * gate with a Bearer token, Remix): document bytes and median server render of sequential
 * requests after warm-ups, with the ratio to the 10-row page in the same run. For /logs at
 * the largest size it also times GET /api/logs with each filter the API offers.
 *
 * Aims (issue 32, "Deliver" 1): the render ≤ 1.5 × the 10-row render up to 1,000 rows and
 * ≤ 2 × at 10,000 (issue 20: ≤ 1.5 × at 1M log entries), documents ≤ 300 KB; GET /api/logs
 * with any filter ≤ 30 ms at 1M rows. Each row prints "met" or "MISSED" and the machine's
 * load average when it was taken (figures from a loaded machine are marked by it).
 *
 * Environment: BENCH_DATABASE_URL (a PostgreSQL server where it may create and drop a
 * database; default TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test),
 * BENCH_BUILD_DIR (reuse a production build instead of building into build-bench),
 * BENCH_LISTS (parts, comma-separated; default every part), BENCH_SIZES (override the sizes,
 * e.g. "10,1000,10000" to skip the million), BENCH_REQUESTS (timed requests per size, 15),
 * BENCH_SAVE_HTML (a directory: each size's last document is written there, `<part>-<n>.html`).
 *
 * The server runs without Redis and without the worker (START_REDIS=false, RUN_WORKER=false),
 * so the run leaves no Redis keys; its database is dropped at the end.
 *
 * Parts: characters, gifts, trading-planets, exchange-rates, audit, logs, sessions.
 *
 * Adding a page: a `Part` below — its URL, how to grow its table to n rows (through the
 * models, or SQL where a million rows through the models would take too long), and text
 * that proves the rows are rendered on the server.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { privateDatabase, removeRedisKeysAtEnd, type Cleanup } from "./db";
import { freePort, request } from "./net";
import { benchPairs } from "./rates-data";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 15);
const WARMUP = 3;
const LISTS = (process.env.BENCH_LISTS ?? "characters,gifts,trading-planets,exchange-rates,audit,logs").split(",").filter(Boolean);
const SIZES = process.env.BENCH_SIZES?.split(",").map(Number);

type Sql = (text: string) => Promise<unknown>;
/** What a part may use to grow its table: SQL in this process, or the app's own /api. */
type Seed = { sql: Sql; post: (path: string, body: unknown) => Promise<void> };

type Part = {
  url: string;
  sizes: number[];
  /** Grows the table to `n` rows (it holds `have`). */
  grow(seed: Seed, have: number, n: number): Promise<void>;
  /** Text in the HTML that shows the rows were rendered on the server. */
  rendered(html: string, n: number): boolean;
  /** After the largest size: extra measurements (GET /api/... with filters). */
  extra?(get: (p: string) => Promise<{ status: number; body: Buffer; took: number }>, n: number): Promise<void>;
};

/**
 * Log entries like a busy server's: mostly info/system, a tenth errors, rare debug and
 * discord entries, 2 % cleared, one in twelve about one of 200 accounts, one a second
 * backwards from now (so the newest are the ones a page shows).
 */
function logRows(from: number, to: number) {
  return `
    insert into logs (type, source, message, cleared, details, timestamp)
    select
      case when i % 997 = 0 then 'debug' when i % 10 = 0 then 'error' when i % 31 = 0 then 'disconnect' else 'info' end,
      case when i % 1009 = 0 then 'discord' when i % 13 = 0 then 'bot' when i % 7 = 0 then 'galaxyAuth' else 'system' end,
      'Bench entry ' || i || ': session keepalive answered after ' || (i % 900) || ' ms on planet Bench-' || (i % 40),
      i % 50 = 0,
      case when i % 12 = 0 then jsonb_build_object('accountId', (100000 + i % 200)::text, 'reason', 'bench', 'attempt', i % 5) else null end,
      now() - (${to + 1} - i) * interval '1 second' - interval '1 day'
    from generate_series(${from + 1}, ${to}) i`;
}

const PARTS: Record<string, Part> = {
  logs: {
    url: "/logs",
    sizes: [10, 1000, 10_000, 1_000_000],
    async grow({ sql }, have, n) {
      // In slices, so one statement never holds a million rows of WAL at once.
      for (let from = have; from < n; from += 100_000) await sql(logRows(from, Math.min(n, from + 100_000)));
      await sql("analyze logs");
    },
    rendered: (html) => /Bench entry \d+/.test(html) && html.includes('aria-label="Log entries"'),
    async extra(get, n) {
      const filters = [
        "",
        "?type=error",
        "?type=debug",
        "?source=discord",
        "?source=bot",
        "?type=debug&source=discord",
        "?type=error&source=galaxyAuth",
        "?cleared=true",
        "?cleared=false",
        "?type=debug&cleared=true",
        "?source=discord&cleared=false",
        "?type=disconnect&source=discord&cleared=true",
        "?account=100012",
        "?account=100012&type=error",
      ];
      console.log(`\n### GET /api/logs at ${n.toLocaleString("en-US")} entries (≤ 500 newest per answer), ${REQUESTS} requests each after ${WARMUP} warm-ups`);
      console.log("(HTTP: the whole request through server.ts; query: the same filter's SQL in this process, EXPLAIN ANALYZE execution time)");
      console.log("| query                                                 | entries | JSON bytes | HTTP median | HTTP max | query median |");
      console.log("|-------------------------------------------------------|---------|------------|-------------|----------|--------------|");
      const { logsPageQuery } = await import("~/models/log.server");
      const { getDb } = await import("~/db/client.server");
      const { sql: drizzleSql } = await import("drizzle-orm");
      const db = await getDb();
      for (const q of filters) {
        const times: number[] = [];
        let count = 0;
        let bytes = 0;
        for (let i = 0; i < WARMUP + REQUESTS; i++) {
          const res = await get(`/api/logs${q}`);
          if (res.status !== 200) throw new Error(`/api/logs${q} → ${res.status} ${res.body.toString().slice(0, 200)}`);
          if (i >= WARMUP) times.push(res.took);
          count = (JSON.parse(res.body.toString()) as { logs: unknown[] }).logs.length;
          bytes = res.body.length;
        }
        // The SQL GET /api/logs runs (listLogs: the newest 500), timed by PostgreSQL itself.
        const p = new URLSearchParams(q);
        const filter = {
          type: (p.get("type") ?? undefined) as never,
          source: (p.get("source") ?? undefined) as never,
          account: p.get("account") ?? undefined,
          cleared: p.has("cleared") ? p.get("cleared") === "true" : undefined,
        };
        const exec: number[] = [];
        for (let i = 0; i < 7; i++) {
          const res = (await db.execute(drizzleSql`explain (analyze, format json) ${logsPageQuery(db, filter, 499)}`)) as unknown as {
            rows: Array<Record<string, unknown>>;
          };
          const plan = Object.values(res.rows[0]!)[0] as Array<{ "Execution Time": number }>;
          exec.push(plan[0]!["Execution Time"]);
        }
        console.log(
          `| ${`/api/logs${q}`.padEnd(53)} | ${String(count).padStart(7)} | ${String(bytes).padStart(10)} | ${ms(median(times)).padStart(11)} | ${ms(Math.max(...times)).padStart(8)} | ${ms(median(exec)).padStart(12)} |`,
        );
      }
    },
  },
  "trading-planets": {
    url: "/trading-planets",
    sizes: [10, 1000, 10_000],
    // n sequences (5 planets each) and n ads, 2 in 3 of category ads, the rest msg; texts like an operator's.
    async grow({ sql }, have, n) {
      await sql(`
        insert into planet_sequences (name, steps, seconds, position)
        select 'Bench route ' || i,
          jsonb_build_array(
            jsonb_build_object('id', 'b' || i || '-1', 'planetType', 'cannon', 'shuffle', true),
            jsonb_build_object('id', 'b' || i || '-2', 'planetType', 'ring', 'shuffle', true),
            jsonb_build_object('id', 'b' || i || '-3', 'planetType', 'bowling', 'shuffle', false),
            jsonb_build_object('id', 'b' || i || '-4', 'planetType', 'english', 'shuffle', true),
            jsonb_build_object('id', 'b' || i || '-5', 'planetType', 'russian', 'shuffle', false)),
          6 + i % 5, i
        from generate_series(${have + 1}, ${n}) i`);
      await sql(`
        insert into ads (ads_message, category, is_active, created_at)
        select 'Bench ad ' || i || ': [WTS] Fire Cannon Ball x' || (i % 90 + 10) || ' ⭐ PM me for the Capybara set, fast trade 🚀',
          case when i % 3 = 2 then 'msg' else 'ads' end, i % 7 <> 0, now() - (${n + 1} - i) * interval '1 second'
        from generate_series(${have + 1}, ${n}) i`);
    },
    rendered: (html) => /Bench ad \d+/.test(html) && /Bench route \d+/.test(html),
  },
};

/** CPU time (user + system) a process has used so far, in ms (Linux /proc; NaN elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks of 1/100 s
  } catch {
    return Number.NaN;
  }
}

PARTS["exchange-rates"] = {
  url: "/exchange-rates",
  sizes: [10, 1000, 10_000],
  // Through the app: POST /api/rates/batch with bench/rates-data.ts's pairs (the server is
  // started with bench/rates-preload.ts, which admits its synthetic gift names; see
  // "How 1,000 and 5,000 pairs exist at all"). Each size starts from an empty table, as
  // the pair sets of two sizes differ.
  async grow({ sql, post }, _have, n) {
    await sql("delete from exchange_rates");
    const pairs = benchPairs(n);
    if (pairs.length !== n) throw new Error(`bench/rates-data.ts makes ${pairs.length} pairs, not ${n}`);
    for (let i = 0; i < pairs.length; i += 5000) await post("/api/rates/batch", { updates: pairs.slice(i, i + 5000) });
  },
  // The page holds the first 40 pairs (issue 20, RATE_PAGE_SIZE): the last of those is
  // rendered, and beyond one page the pager counts every pair.
  rendered: (html, n) => {
    const last = benchPairs(Math.min(n, 40)).at(-1)!;
    return html.includes(last.inputItem) && html.includes(last.outputItem) && (n <= 40 || html.includes(`of ${n.toLocaleString("en")}</`));
  },
};

PARTS.audit = {
  url: "/audit",
  sizes: [10, 1000, 10_000],
  // Entries like a busy team's: a few operators, rate and account changes, newest one a second apart.
  async grow({ sql }, have, n) {
    await sql(`
      insert into audit_log (at, operator, action, target, details)
      select now() - (${n + 1} - i) * interval '1 second',
        case i % 3 when 0 then 'bench-ann' when 1 then 'bench-bob' else 'bench-cy' end,
        case i % 4 when 0 then 'rate.update' when 1 then 'account.create' when 2 then 'sequence.update' else 'ad.delete' end,
        'bench-target-' || i, jsonb_build_object('bench', i)
      from generate_series(${have + 1}, ${n}) i`);
    await sql("analyze audit_log");
  },
  rendered: (html, n) => html.includes(`bench-target-${n}`),
};

/** The eight gifts of spec 2 §3, as the platform's gift stats name them (type, name). */
const BENCH_GIFTS: Array<[number, string]> = [
  [1, "Clay"],
  [2, "Fire Cannon Ball"],
  [3, "Skeleton Key"],
  [4, "Silver Ring"],
  [5, "Electric Bowling Ball"],
  [6, "Red Bowling Ball"],
  [7, "Green Bowling Ball"],
  [8, "Collection Capybara"],
];

/**
 * Characters like an operator's fleet: one in twenty a stalker, then trading, bowling,
 * recipients and suppliers; every one with a picture, a status (a third online in a room)
 * and the eight gift stats with the platform's absolute picture URLs, as a refresh stores them.
 * Nicks sort in seeding order ("Bench char 000001", …).
 */
function characterRows(from: number, to: number) {
  const gifts = BENCH_GIFTS.map(
    ([type, name]) =>
      `jsonb_build_object('type', ${type}, 'name', '${name}', 'img', 'https://galaxy.mobstudio.ru/services/img/gift/${name.toLowerCase().replace(/ /g, "-")}.svg', 'amount', (i * ${type * 7}) % 97)`,
  ).join(", ");
  return [
    `insert into users (account_id, nick, password, type)
     select (70000000 + i)::text, 'Bench char ' || lpad(i::text, 6, '0'), 'bench-not-a-secret',
       case when i % 20 = 1 then 'stalker' when i % 4 = 0 then 'trading' when i % 4 = 1 then 'bowling' when i % 4 = 2 then 'recipients' else 'suppliers' end
     from generate_series(${from + 1}, ${to}) i`,
    `insert into character_details (account_id, pic_url, pic_at, is_online, room, status_source, status_at, gifts, gifts_at)
     select (70000000 + i)::text, 'https://galaxy.mobstudio.ru/services/img/avatar/' || (70000000 + i) || '.jpg', now(),
       i % 3 = 0, case when i % 3 = 0 then 'Planet Bench-' || (i % 40) else null end, 'service', now(),
       jsonb_build_array(${gifts}), now()
     from generate_series(${from + 1}, ${to}) i`,
  ];
}

PARTS.characters = {
  url: "/characters",
  sizes: [10, 1000, 10_000],
  async grow({ sql }, have, n) {
    for (const statement of characterRows(have, n)) await sql(statement);
    await sql("analyze users");
    await sql("analyze character_details");
  },
  // The first stalker (account 70000001) heads the first group; its gift grid is in the HTML.
  rendered: (html) => html.includes('data-account="70000001"') && html.includes("Gifts of Bench char 000001"),
};

/**
 * Bowling accounts like a refreshed fleet's (issue 20: "a couple of hundred bowling
 * accounts"): each with a picture, a status, the seven gift types the rows show plus two more,
 * a Capybara collection of 8 items, and one in three with a companion (2 suppliers and 2
 * recipients exist). Inserted by SQL: the refresh job would need the platform.
 */
function bowlingRows(from: number, to: number) {
  const ids = `from generate_series(${from + 1}, ${to}) i`;
  const gifts = [11, 12, 13, 1, 4, 8, 15, 2, 3]
    .map(
      (t) =>
        `jsonb_build_object('type', ${t}, 'name', 'Bench gift ${t}', 'img', 'https://galaxy.mobstudio.ru/img/gifts/bench-${t}.png', 'amount', (i * ${t}) % 400)`,
    )
    .join(", ");
  const items = (row: number) =>
    `(select jsonb_agg(jsonb_build_object('imageUrl', 'https://galaxy.mobstudio.ru/img/collections/151/' || k || '.png', 'count', ((i + k) % 5)::text, 'goodsID', k, 'index', k)) from generate_series(${row * 4}, ${row * 4 + 3}) k)`;
  return [
    `insert into users (account_id, nick, password, type) select (300000000 + i)::text, 'Bench bowler ' || lpad(i::text, 5, '0'), 'x', 'bowling' ${ids}`,
    `insert into character_details (account_id, pic_url, pic_at, is_online, room, status_source, status_at, gifts, gifts_at, collection, collection_at)
       select (300000000 + i)::text, 'https://galaxy.mobstudio.ru/img/avatars/' || i || '.jpg', now(), i % 3 = 0,
              case when i % 5 = 0 then 'Bowling Alley ' || (i % 7) end, 'service', now(), jsonb_build_array(${gifts}), now(),
              jsonb_build_object('firstRow', ${items(0)}, 'secondRow', ${items(1)}), now() ${ids}`,
    `insert into bowling_companions (bowling_id, supplier, consumer)
       select (300000000 + i)::text, '39000000' || (i % 2), '39100000' || (i % 2) ${ids} where i % 3 = 0`,
  ];
}

PARTS.gifts = {
  url: "/gifts",
  sizes: [10, 1000, 10_000],
  async grow({ sql }, have, n) {
    if (have === 0)
      await sql(`insert into users (account_id, nick, password, type) values
        ('390000000', 'Bench supplier A', 'x', 'suppliers'), ('390000001', 'Bench supplier B', 'x', 'suppliers'),
        ('391000000', 'Bench recipient A', 'x', 'recipients'), ('391000001', 'Bench recipient B', 'x', 'recipients')`);
    for (const statement of bowlingRows(have, n)) await sql(statement);
    await sql("analyze users; analyze character_details; analyze bowling_companions");
  },
  // The first bowler's row (nick order) with its gift chips.
  rendered: (html) => html.includes('data-account="300000001"') && html.includes("Bench bowler 00001") && html.includes('data-type="15"'),
};

/**
 * Sessions like a busy fleet's (issue 31): of every purpose, mostly stalkers, one in five a
 * trading run, one in ten a Collections connection, one in ten a GalaCord relay connection
 * with counters; most active on a worker that has no beat in this run (so the page shows them
 * "Worker lost", the worst case: every row joins a holder), some stopped, a few failed with
 * the platform's words, a few retrying. Each has a Characters user for its nick.
 */
function sessionRows(from: number, to: number) {
  const ids = `from generate_series(${from + 1}, ${to}) i`;
  return [
    `insert into users (account_id, nick, password, type) select (80000000 + i)::text, 'Bench session ' || lpad(i::text, 5, '0'), 'x', 'stalker' ${ids}`,
    `insert into sessions (purpose, key, account_id, desired, actual, since, error, attempt, next_retry_at, holder, info)
       select
         case when i % 10 = 3 then 'relay-link' when i % 10 = 7 then 'collections' when i % 5 = 0 then 'trader' else 'stalker' end,
         (80000000 + i)::text, (80000000 + i)::text,
         case when i % 9 = 0 then 'stop' else 'run' end,
         case when i % 17 = 0 then 'failed' when i % 9 = 0 then 'stopped' when i % 13 = 0 then 'reconnecting' else 'active' end,
         now() - i * interval '1 minute',
         case when i % 17 = 0 then 'Login failed: Invalid credentials' when i % 13 = 0 then 'Connection lost; retry 2 of 3' end,
         case when i % 13 = 0 then 2 else 0 end,
         case when i % 13 = 0 then now() + interval '1 hour' end,
         case when i % 9 = 0 or i % 17 = 0 then null else 'bench-worker-' || (i % 2) end,
         case when i % 10 = 3 then jsonb_build_object('queued', i % 4, 'dropped', i % 3, 'toGalaxy', i, 'toDiscord', i * 3, 'lastMessageAt', now()) else '{}'::jsonb end
       ${ids}`,
  ];
}

PARTS.sessions = {
  url: "/sessions",
  sizes: [10, 1000],
  async grow({ sql }, have, n) {
    for (const statement of sessionRows(have, n)) await sql(statement);
    await sql("analyze users; analyze sessions");
  },
  // Rows with their nicks, and the pager's count of every session.
  rendered: (html, n) => html.includes('data-session="') && html.includes("Bench session 0") && html.includes(`of ${n.toLocaleString("en-US")}`),
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

const children: ChildProcess[] = [];
const cleanups: Cleanup[] = [];

function startServer(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    // rates-preload only widens the gift list the rates API accepts (for the exchange-rates part).
    const child = spawn(process.execPath, ["--import", "tsx", "--import", "./bench/rates-preload.ts", "server.ts"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let log = "";
    child.stdout!.on("data", (c: Buffer) => {
      log += c.toString();
      if (log.includes("listening on")) resolve(child);
    });
    child.stderr!.on("data", (c: Buffer) => (log += c.toString()));
    child.on("exit", (code) => reject(new Error(`server.ts exited (${code}):\n${log.slice(-2000)}`)));
    setTimeout(() => reject(new Error(`server.ts did not start in 120 s:\n${log.slice(-2000)}`)), 120_000).unref();
  });
}

const loadAverage = () => os.loadavg()[0]!.toFixed(2);

/** Issue 32's aim for the render ratio at `n` rows (issue 20's 1.5 × at the million). */
const ratioAim = (n: number) => (n > 1000 && n <= 10_000 ? 2 : 1.5);
const BYTES_AIM = 300_000;

async function main() {
  console.log(`# List pages at scale — ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  console.log(`${REQUESTS} sequential requests per size after ${WARMUP} warm-ups; no Accept-Encoding (document bytes as rendered)`);
  console.log("Each part runs on its own fresh database and server process; `load` is the 1-minute load average when the row was taken.\n");

  let buildDir = process.env.BENCH_BUILD_DIR;
  if (!buildDir) {
    buildDir = "build-bench";
    process.stdout.write("building the app into build-bench … ");
    const t = performance.now();
    const built = spawnSync("npx", ["remix", "vite:build"], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", BUILD_DIR: buildDir },
      stdio: ["ignore", "ignore", "pipe"],
    });
    if (built.status !== 0) throw new Error(`build failed:\n${built.stderr.toString().slice(-3000)}`);
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s\n`);
  }
  const missed: string[] = [];
  for (const name of LISTS) {
    const part = PARTS[name];
    if (!part) throw new Error(`unknown list "${name}" (known: ${Object.keys(PARTS).join(", ")})`);
    const partCleanups: Cleanup[] = [];
    try {
      await runPart(name, part, buildDir, partCleanups, missed);
    } finally {
      for (const child of children.splice(0)) {
        if (child.exitCode === null) {
          child.kill("SIGTERM");
          await new Promise((r) => child.once("exit", r));
        }
      }
      const { closeDb } = await import("~/db/client.server");
      await closeDb();
      for (const fn of partCleanups) await fn().catch((err: Error) => console.warn("cleanup:", err.message));
    }
  }
  console.log(missed.length ? `MISSED aims (${missed.length}):\n${missed.map((m) => `  - ${m}`).join("\n")}` : "Every aim met.");
}

/** One part on a database of its own, with a server of its own (issue 32 item 6: no part sees another's rows). */
async function runPart(name: string, part: Part, buildDir: string, partCleanups: Cleanup[], missed: string[]) {
  const { url, dbName, dataDir } = await privateDatabase(`gt_bench_${name.replace(/-/g, "_")}`, partCleanups);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    APP_SECRET: process.env.APP_SECRET ?? crypto.randomBytes(24).toString("hex"),
    QUEUE_PREFIX: `gt-bench-${dbName}`,
    RUN_WORKER: "false",
    START_REDIS: "false",
  };
  Object.assign(process.env, env);
  removeRedisKeysAtEnd(partCleanups, env.QUEUE_PREFIX!);

  // The app's modules read the environment on first use: re-read it and reopen the database for this part.
  const { resetEnv } = await import("~/utils/env.server");
  const { getDb, closeDb } = await import("~/db/client.server");
  resetEnv();
  await closeDb();
  const { createOperator } = await import("~/models/operator.server");
  const { createApiToken } = await import("~/models/api-token.server");
  const { sql: drizzleSql } = await import("drizzle-orm");
  const operator = await createOperator("bench", crypto.randomBytes(12).toString("hex"));
  const { token } = await createApiToken(operator.id, "bench");
  const auth = { authorization: `Bearer ${token}` };
  const db = await getDb();
  const sql: Sql = (text) => db.execute(drizzleSql.raw(text));

  const port = await freePort();
  const server = await startServer({ ...env, BUILD_DIR: buildDir, PORT: String(port), HOST: "127.0.0.1" });
  const post = async (p: string, body: unknown) => {
    const res = await request(port, "POST", p, { ...auth, "content-type": "application/json" }, JSON.stringify(body));
    if (res.status !== 200) throw new Error(`${p} → ${res.status} ${res.body.toString().slice(0, 300)}`);
  };
  const get = async (p: string) => {
    const t = performance.now();
    const res = await request(port, "GET", p, auth);
    return { ...res, took: performance.now() - t };
  };

  // The server logs its own start, and creating the operator writes the audit trail: clear both so the sizes are exact.
  if (name === "logs") await sql("delete from logs");
  if (name === "audit") await sql("delete from audit_log");
  console.log(`## ${part.url} (database ${dbName})`);
  console.log("(render: wall time of one request; CPU: the server process's user+system time per request, steadier on a shared machine)");
  console.log(
    "| rows      | document bytes | median render | ratio to 10 rows | aim    | p90      | CPU/request | CPU ratio | seed      | rows on the server | load  |",
  );
  console.log(
    "|-----------|----------------|---------------|------------------|--------|----------|-------------|-----------|-----------|--------------------|-------|",
  );
  let have = 0;
  let base = NaN;
  let cpuBase = NaN;
  const sizes = SIZES ?? part.sizes;
  for (const n of sizes) {
    const t = performance.now();
    await part.grow({ sql, post }, have, n);
    have = n;
    const seeded = (performance.now() - t) / 1000;
    const times: number[] = [];
    let html = "";
    let cpuStart = 0;
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      if (i === WARMUP) cpuStart = cpuMs(server.pid);
      const res = await get(part.url);
      if (res.status !== 200) throw new Error(`${part.url} → ${res.status}`);
      if (i >= WARMUP) times.push(res.took);
      html = res.body.toString();
    }
    const cpu = (cpuMs(server.pid) - cpuStart) / REQUESTS;
    if (process.env.BENCH_SAVE_HTML) fs.writeFileSync(path.join(process.env.BENCH_SAVE_HTML, `${name}-${n}.html`), html);
    const med = median(times);
    if (Number.isNaN(base)) base = med;
    if (Number.isNaN(cpuBase)) cpuBase = cpu;
    const p90 = [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.9)]!;
    const bytes = Buffer.byteLength(html);
    const aim = ratioAim(n);
    const verdicts: string[] = [];
    if (med / base > aim) verdicts.push(`render ${(med / base).toFixed(2)} × > ${aim} ×`);
    if (bytes > BYTES_AIM) verdicts.push(`${bytes.toLocaleString("en-US")} bytes > ${BYTES_AIM.toLocaleString("en-US")}`);
    const rendered = part.rendered(html, n);
    if (!rendered) verdicts.push("rows not rendered on the server");
    for (const v of verdicts) missed.push(`${part.url} at ${n.toLocaleString("en-US")} rows: ${v} (load ${loadAverage()})`);
    console.log(
      `| ${n.toLocaleString("en-US").padEnd(9)} | ${bytes.toLocaleString("en-US").padStart(14)} | ${ms(med).padStart(13)} | ${`${(med / base).toFixed(2)} ×`.padStart(16)} | ${(verdicts.length ? "MISSED" : "met").padEnd(6)} | ${ms(p90).padStart(8)} | ${ms(cpu).padStart(11)} | ${`${(cpu / cpuBase).toFixed(2)} ×`.padStart(9)} | ${`${seeded.toFixed(1)} s`.padStart(9)} | ${(rendered ? "yes" : "NO").padEnd(18)} | ${loadAverage().padStart(5)} |`,
    );
  }
  await part.extra?.(get, have);
  console.log("");
}

async function cleanup() {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined)));
  for (const fn of cleanups) await fn().catch((err: Error) => console.warn("cleanup:", err.message));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main()
    .finally(cleanup)
    .then(
      () => process.exit(0),
      (err: Error) => {
        console.error(err.stack ?? err.message);
        process.exit(1);
      },
    );
}
