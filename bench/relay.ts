/**
 * Bench: GalaCord relay latency through both simulators (issue 13 "Proof": "relay latency
 * p50/p99 each way at 20 messages/s for 60 s through both simulators, and the count of
 * messages lost (aim: 0 of all sent)").
 *
 * A real worker process (`node --import tsx jobs/worker.ts`) holds the relay session: the
 * discord.js Client (logged in to the Discord simulator) and one relay connection (Galaxy
 * simulator) mapped to #relay. In this process:
 *  - Galaxy → Discord: a second Galaxy client on the relay account's planet says a numbered
 *    line every 1/rate s; arrival = the Discord simulator's record of the webhook post.
 *  - Discord → Galaxy: a seeded Discord user posts a numbered message every 1/rate s through
 *    the simulator's control endpoint; arrival = the PRIVMSG the listener sees on the planet.
 * Both directions run at the same time. Pacing of Discord → Galaxy lines is set so the rate
 * fits (RELAY_LINE_INTERVAL_MS, printed): the production default (one line per 1.5 s after a
 * burst of 3) is a platform-safety limit, not a throughput target. Prints figures; asserts nothing.
 *
 *   node --import tsx bench/relay.ts [--rate 20] [--seconds 60]
 */
import crypto from "node:crypto";
import os from "node:os";
import { parseArgs } from "node:util";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "#jobs/test-helpers";
import { startDiscordSimulator } from "#sim/discord/server";
import { SEED } from "#sim/discord/state";
import { startSimulator } from "#sim/server";
import { privateDatabase } from "./db";

const { values } = parseArgs({ options: { rate: { type: "string", default: "20" }, seconds: { type: "string", default: "60" } } });
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const LINE_INTERVAL_MS = Math.max(1, Math.floor(1000 / RATE / 1.25));

function pct(sorted: number[], p: number) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const cleanups: (() => Promise<void>)[] = [];
  const children: WorkerChild[] = [];
  try {
    console.log(`# GalaCord relay benchmark — ${new Date().toISOString()}`);
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}; ${RATE} msg/s each way for ${SECONDS} s\n`,
    );
    const { url, dbName, dataDir } = await privateDatabase("gt_bench_relay", cleanups);
    const galaxy = await startSimulator({ port: 0, pingIntervalMs: 0 });
    const discord = await startDiscordSimulator({ port: 0 });
    cleanups.unshift(async () => {
      await galaxy.close();
      await discord.close();
    });
    const env = {
      NODE_ENV: "production",
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      APP_SECRET: crypto.randomBytes(24).toString("hex"),
      QUEUE_PREFIX: `gt-bench-${dbName}`,
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      RUN_WORKER: "false",
      START_REDIS: "false",
      GALAXY_WS_URL: galaxy.wsUrl,
      DISCORD_TOKEN: discord.token,
      DISCORD_API_URL: discord.apiBase,
      RELAY_LINE_INTERVAL_MS: String(LINE_INTERVAL_MS),
      RELAY_LINE_BURST: "5",
    };
    Object.assign(process.env, env);
    cleanups.push(async () => deleteKeys(env.REDIS_URL, env.QUEUE_PREFIX));

    const { connectNew, getBotStatus, getSavedAccount, startBot, stopBot } = await import("~/models/galacord.server");
    const { GalaxyConnection } = await import("~/galaxy/connection.server");
    const { closeDb } = await import("~/db/client.server");
    const { closeQueues } = await import("#jobs/queues.server");
    cleanups.unshift(async () => {
      await stopBot().catch(() => {});
      await closeQueues();
      await closeDb();
    });

    const w = spawnWorker({ NODE_ENV: "production" });
    children.push(w);
    await waitFor(`worker ready\n${w.output()}`, () => /\[jobs\] worker (\S+) processing/.test(w.output()), 60_000);
    await startBot();
    await waitFor("bot running", async () => (await getBotStatus()).isRunning, 60_000);

    const RELAY = SEED.guilds[0].channels[1].id;
    const [acc, listenerAcc] = galaxy.world.accounts.filter((a) => a.kind === "plain");
    await connectNew({ channelId: RELAY, recoveryCode: acc.recoveryCode });
    const live = await waitFor(
      "relay connected",
      async () => {
        const s = await getSavedAccount(acc.id);
        return s?.state === "connected" && s.planet ? s : false;
      },
      30_000,
    );
    const listener = new GalaxyConnection({ url: galaxy.wsUrl, credentials: { recoveryCode: listenerAcc.recoveryCode }, planet: live.planet });
    listener.on("error", () => {});
    const d2gArrived = new Map<number, number>();
    listener.on("line", (l) => {
      if (l.command !== "PRIVMSG" || l.params[0] !== acc.id) return;
      const m = /^Alice: d2g (\d+)$/.exec(l.trailing ?? "");
      if (m) d2gArrived.set(Number(m[1]), Date.now());
    });
    await listener.connect();
    await sleep(1000); // the relay sees the listener's JOIN (its nick) before the first line

    const total = RATE * SECONDS;
    const g2dSent = new Map<number, number>();
    const d2gSent = new Map<number, number>();
    const start = Date.now();
    const tick = 1000 / RATE;
    let httpErrors = 0;
    const posts: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + i * tick;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      g2dSent.set(i, Date.now());
      listener.send("PRIVMSG", [0, 0], `g2d ${i}`);
      d2gSent.set(i, Date.now());
      posts.push(
        fetch(`${discord.controlUrl}messages`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ channelId: RELAY, username: "alice", content: `d2g ${i}` }),
        }).then(
          (r) => {
            if (r.status !== 200) httpErrors++;
            return r.body?.cancel();
          },
          () => void httpErrors++,
        ),
      );
    }
    await Promise.all(posts);
    const sendSeconds = (Date.now() - start) / 1000;
    const g2dArrived = () => {
      const m = new Map<number, number>();
      for (const s of discord.state.sent) {
        const x = /^g2d (\d+)$/.exec(s.content);
        if (x && s.channelId === RELAY) m.set(Number(x[1]), s.at);
      }
      return m;
    };
    await waitFor("stragglers", () => g2dArrived().size >= total && d2gArrived.size >= total, 15_000).catch(() => {});
    const g2d = g2dArrived();
    await listener.close();

    const report = (name: string, sent: Map<number, number>, arrived: Map<number, number>) => {
      const lat = [...arrived].map(([i, at]) => at - (sent.get(i) ?? at)).sort((a, b) => a - b);
      const lost = [...sent.keys()].filter((i) => !arrived.has(i)).length;
      const dup = 0;
      console.log(
        `${name.padEnd(18)} sent ${sent.size}, arrived ${arrived.size}, lost ${lost}${dup ? `, duplicated ${dup}` : ""}; latency p50 ${pct(lat, 50)} ms, p99 ${pct(lat, 99)} ms, max ${lat.at(-1)} ms`,
      );
    };
    console.log(
      `sending took ${sendSeconds.toFixed(1)} s; Discord → Galaxy pacing ${LINE_INTERVAL_MS} ms a line after a burst of 5; control HTTP errors ${httpErrors}\n`,
    );
    report("Galaxy → Discord", g2dSent, g2d);
    report("Discord → Galaxy", d2gSent, d2gArrived);
    const webhookPosts = discord.state.sent.filter((s) => s.kind === "webhook" && /^g2d /.test(s.content)).length;
    console.log(`\nGalaxy → Discord went through the channel webhook: ${webhookPosts} of ${g2d.size}`);
  } finally {
    for (const c of children) if (c.child.exitCode === null) c.child.kill("SIGTERM");
    await Promise.all(children.map((c) => Promise.race([c.exited, sleep(10_000)])));
    for (const c of cleanups) await c().catch((e: Error) => console.warn(`cleanup: ${e.message}`));
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
