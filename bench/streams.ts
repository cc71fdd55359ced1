/**
 * Live streams up to the caps and back (issue 28 item 3: "Memory returns to its baseline when
 * streams close"). Prints figures; asserts nothing. See bench/README.md "Live streams".
 *
 *   node --import tsx bench/streams.ts          # or: npm run bench streams
 *
 * This process serves the app's gate and `GET /api/events` through `@remix-run/express` and
 * `createHttpServer` (the web process's own server and limits, as server.ts builds them) on
 * a private PostgreSQL database and its own Redis prefix; a child process is the client, so
 * its sockets are not counted here. Each round the client opens streams until the caps
 * refuse (10 operators × 5 API tokens × 20 streams = LIVE_STREAMS_TOTAL, 1000, then one more
 * per token), holds them, and closes them all. Memory (RSS, V8 heap, external) is read after a
 * full GC (--expose-gc) before the first round, with the streams open, and after they close.
 *
 * Environment: BENCH_ROUNDS (3), BENCH_OPERATORS (10), BENCH_TOKENS (5 per operator).
 */
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import http from "node:http";
import os from "node:os";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { privateDatabase, removeRedisKeysAtEnd, type Cleanup } from "./db";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OPERATORS = Number(process.env.BENCH_OPERATORS ?? 10);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 5);
const PER_TOKEN = 20;

type ToClient = { open: { port: number; tokens: string[]; perToken: number } } | { close: true };
type ToServer = { opened: { ok: number; refused: number; other: number } } | { closed: true };

if (process.argv.includes("--client")) client();
else if (typeof globalThis.gc !== "function") {
  // A full GC before each reading: run again with --expose-gc.
  const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", fileURLToPath(import.meta.url)], { stdio: "inherit", env: process.env });
  process.exit(r.status ?? 1);
} else void server();

/** The client: opens streams when asked (each on a connection of its own), closes them all when asked. */
function client() {
  const held: http.ClientRequest[] = [];
  const openOne = (port: number, token: string) =>
    new Promise<number>((resolve) => {
      const req = http.request({ host: "127.0.0.1", port, path: "/api/events", headers: { Authorization: `Bearer ${token}` }, agent: false });
      req.on("error", () => resolve(-1));
      req.on("response", (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          resolve(res.statusCode ?? -1);
          return;
        }
        held.push(req);
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          if (text.length < 200) text += c;
          if (text.includes("event: ready")) resolve(200);
        });
      });
      req.end();
    });
  process.on("message", (m: ToClient) => {
    if ("open" in m) {
      void (async () => {
        const counts = { ok: 0, refused: 0, other: 0 };
        const { port, tokens, perToken } = m.open;
        // Token by token, 25 at a time (one script's worth of parallel opens).
        for (const token of tokens) {
          for (let i = 0; i < perToken + 1; i += 25) {
            const batch = Math.min(25, perToken + 1 - i);
            const statuses = await Promise.all(Array.from({ length: batch }, () => openOne(port, token)));
            for (const s of statuses) counts[s === 200 ? "ok" : s === 429 ? "refused" : "other"]++;
          }
        }
        process.send!({ opened: counts } satisfies ToServer);
      })();
    } else {
      for (const req of held.splice(0)) req.destroy();
      process.send!({ closed: true } satisfies ToServer);
    }
  });
}

async function server() {
  const cleanups: Cleanup[] = [];
  const { url, dbName, dataDir } = await privateDatabase("bench_streams", cleanups);
  const prefix = `bench-streams-${dbName}`;
  Object.assign(process.env, {
    NODE_ENV: "production",
    DATABASE_URL: url.toString(),
    DATA_DIR: dataDir,
    QUEUE_PREFIX: prefix,
    START_REDIS: "false",
    RUN_WORKER: "false",
    APP_SECRET: crypto.randomBytes(32).toString("hex"),
  });
  removeRedisKeysAtEnd(cleanups, prefix);
  try {
    const { expressApp } = await import("#tests/kit/remix");
    const { createHttpServer, httpLimits } = await import("~/http/http-limits.server");
    const { createOperator } = await import("~/models/operator.server");
    const { createApiToken } = await import("~/models/api-token.server");
    const { openStreams } = await import("~/http/stream-limits.server");
    const { closeLive, liveListenerCount } = await import("~/queue/live.server");
    const { closeDb } = await import("~/db/client.server");
    const { getEnv } = await import("~/utils/env.server");

    const tokens: string[] = [];
    for (let o = 0; o < OPERATORS; o++) {
      const op = await createOperator(`bench-${o}`, "bench password 123", { role: o === 0 ? "admin" : "viewer" });
      for (let t = 0; t < TOKENS; t++) tokens.push((await createApiToken(op.id, `stream ${t}`)).token);
    }
    const app = await expressApp((r) => r.file.endsWith("api.events.ts"));
    const srv = createHttpServer(app);
    await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
    const port = (srv.address() as AddressInfo).port;

    const env = getEnv();
    console.log(`# Live streams up to the caps and back — ${new Date().toISOString()}`);
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(
          " ",
        )}; caps ${env.LIVE_STREAMS_PER_CREDENTIAL} per credential, ${env.LIVE_STREAMS_PER_OPERATOR} per operator, ${env.LIVE_STREAMS_TOTAL} in all; ` +
        `${OPERATORS} operators × ${TOKENS} tokens × ${PER_TOKEN + 1} tries; request timeout ${httpLimits().requestTimeoutMs} ms\n`,
    );

    const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--client"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const ask = (m: ToClient) =>
      new Promise<ToServer>((resolve) => {
        child.once("message", (r: ToServer) => resolve(r));
        child.send(m);
      });
    const settle = async () => {
      for (let i = 0; i < 3; i++) {
        globalThis.gc!();
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    // Streams whose clients have gone, given 15 s to end (they end at once when nothing leaks).
    const waitClosed = async () => {
      const deadline = Date.now() + 15_000;
      while (openStreams().total > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };
    const reading = () => {
      const m = process.memoryUsage();
      return { rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20, external: (m.external + m.arrayBuffers) / 2 ** 20 };
    };
    const row = (label: string, r: ReturnType<typeof reading>, extra = "") =>
      console.log(`| ${label} | ${r.rss.toFixed(1)} | ${r.heap.toFixed(1)} | ${r.external.toFixed(1)} | ${extra} |`);

    // A first round unmeasured: the route's modules, Remix's and the bus's first use.
    await ask({ open: { port, tokens: tokens.slice(0, 1), perToken: PER_TOKEN } });
    await ask({ close: true });
    await waitClosed();
    await settle();
    const base = reading();
    console.log("| moment | RSS MB | heap MB | external MB | streams |");
    console.log("|---|---|---|---|---|");
    row("before", base, `${openStreams().total} open, ${liveListenerCount().listeners} bus listeners`);
    for (let round = 1; round <= ROUNDS; round++) {
      const t0 = performance.now();
      const opened = (await ask({ open: { port, tokens, perToken: PER_TOKEN } })) as Extract<ToServer, { opened: unknown }>;
      const openMs = performance.now() - t0;
      await settle();
      const during = reading();
      const n = openStreams().total;
      row(
        `round ${round}: open`,
        during,
        `${n} open (${opened.opened.ok} answered 200, ${opened.opened.refused} 429, ${opened.opened.other} other) in ${(openMs / 1000).toFixed(1)} s; ` +
          `${(((during.heap + during.external - base.heap - base.external) * 1024) / Math.max(1, n)).toFixed(1)} KB heap+external and ` +
          `${(((during.rss - base.rss) * 1024) / Math.max(1, n)).toFixed(1)} KB RSS per stream`,
      );
      await ask({ close: true });
      await waitClosed();
      await settle();
      row(`round ${round}: closed`, reading(), `${openStreams().total} open, ${liveListenerCount().listeners} bus listeners`);
    }
    child.kill();
    srv.closeAllConnections();
    await new Promise((r) => srv.close(r));
    await closeLive();
    await closeDb();
  } finally {
    for (const c of cleanups.reverse()) await c().catch((err: Error) => console.warn(`cleanup: ${err.message}`));
  }
  process.exit(0);
}
