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
 * With issue 22 B's features on: the connection has relay options (name templates both ways, an
 * ignore list and an ignore regex that match none of the bench's lines), every 10th Discord
 * message is a reply to the latest relayed Galaxy line (context on Galaxy, addressed to its
 * sender), every 20th is edited 200 ms after it is sent (a corrected "(edited)" line follows),
 * and the message-id map is filled by every line. The relay connection's backlog (session info
 * `queued`) is sampled and its maximum printed.
 *
 * Discord rate limits: the simulator's defaults let a webhook post 5 times per 2 s (2.5/s), far
 * below 20 lines/s, so by default (`--discord-limits open`) the bench gives the webhook bucket
 * 4 × rate per second to measure the relay itself; `--discord-limits discord` keeps the defaults
 * and shows the bounded backlog (RELAY_DISCORD_QUEUE_MAX) at work.
 *
 *   node --import tsx bench/relay.ts [--rate 20] [--seconds 60] [--discord-limits open|discord]
 */
import crypto from "node:crypto";
import os from "node:os";
import { parseArgs } from "node:util";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "#jobs/test-helpers";
import { defaultRateLimits } from "#sim/discord/ratelimit";
import { startDiscordSimulator } from "#sim/discord/server";
import { SEED } from "#sim/discord/state";
import { startSimulator } from "#sim/server";
import { privateDatabase } from "./db";

const { values } = parseArgs({
  options: { rate: { type: "string", default: "20" }, seconds: { type: "string", default: "60" }, "discord-limits": { type: "string", default: "open" } },
});
const RATE = Number(values.rate);
const OPEN_LIMITS = values["discord-limits"] !== "discord";
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
    const defaults = defaultRateLimits();
    const discord = await startDiscordSimulator({
      port: 0,
      ...(OPEN_LIMITS
        ? { rateLimits: { buckets: { ...defaults.buckets, "POST /webhooks/:webhook/:token": { limit: Math.ceil(RATE * 4), windowMs: 1000 } } } }
        : {}),
    });
    console.log(
      OPEN_LIMITS
        ? `Discord webhook bucket opened to ${Math.ceil(RATE * 4)} per s (--discord-limits open)`
        : "Discord's default limits: webhook 5 per 2 s (--discord-limits discord)",
    );
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

    const { getBotStatus, getSavedAccount, saveRelayOptions, startBot, stopBot } = await import("~/models/galacord.server");
    const { connectNew } = await import("~/platform/galacord-connect.server");
    const { GalaxyConnection } = await import("~/galaxy/connection.server");
    const { closeDb } = await import("~/db/client.server");
    const { closeQueues } = await import("~/queue/queues.server");
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
    // Issue 22 B.5 options on (none of them drops a bench line).
    await saveRelayOptions(acc.id, { discordName: "{nick} ({planet})", galaxyName: "[{channel}] {nick}", ignoreNicks: ["spammer"], ignoreMessages: "^!" });
    const listener = new GalaxyConnection({ url: galaxy.wsUrl, credentials: { recoveryCode: listenerAcc.recoveryCode }, planet: live.planet });
    listener.on("error", () => {});
    const d2gArrived = new Map<number, number>();
    let editsArrived = 0;
    let editsReplaced = 0;
    let repliesArrived = 0;
    let edits = 0;
    let replies = 0;
    let maxQueued = 0;
    const sampler = setInterval(() => {
      void getSavedAccount(acc.id).then((a) => (maxQueued = Math.max(maxQueued, Number(a?.session.info.queued ?? 0))));
    }, 250);
    listener.on("line", (l) => {
      if (l.command !== "PRIVMSG" || l.params[0] !== acc.id) return;
      // An edit that reaches the line while it still waits replaces it ("d2g N fixed", no suffix); else "(edited)" follows.
      const m = /^\[relay\] Alice: (↪ @.*" )?d2g (\d+)( fixed)?( \(edited\))?$/.exec(l.trailing ?? "");
      if (!m) return;
      if (m[4]) editsArrived++;
      else {
        if (m[3]) editsReplaced++;
        if (m[1]) repliesArrived++;
        if (!d2gArrived.has(Number(m[2]))) d2gArrived.set(Number(m[2]), Date.now());
      }
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
      const lastG2d = i % 10 === 9 ? discord.state.sent.findLast((x) => x.channelId === RELAY && /^g2d /.test(x.content)) : undefined;
      if (lastG2d) replies++;
      posts.push(
        fetch(`${discord.controlUrl}messages`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ channelId: RELAY, username: "alice", content: `d2g ${i}`, ...(lastG2d ? { replyTo: lastG2d.id } : {}) }),
        }).then(
          async (r) => {
            if (r.status !== 200) {
              httpErrors++;
              return r.body?.cancel();
            }
            const { id } = (await r.json()) as { id: string };
            if (i % 20 !== 19) return;
            edits++;
            await sleep(200);
            const e = await fetch(`${discord.controlUrl}messages/edit`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ channelId: RELAY, messageId: id, content: `d2g ${i} fixed` }),
            });
            if (e.status !== 200) httpErrors++;
            await e.body?.cancel();
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
    // With Discord's own limits the webhook drains 2.5 lines/s: wait for the backlog to drain too.
    await waitFor(
      "stragglers",
      () => g2dArrived().size >= total && d2gArrived.size >= total && editsArrived + editsReplaced >= edits,
      OPEN_LIMITS ? 15_000 : 15_000 + total * 400,
    ).catch(() => {});
    const g2d = g2dArrived();
    await listener.close();
    clearInterval(sampler);

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
    const info = (await getSavedAccount(acc.id))?.session.info ?? {};
    console.log(
      `replies ${repliesArrived} of ${replies} arrived with their context; edits ${editsArrived + editsReplaced} of ${edits} arrived ` +
        `(${editsArrived} as "(edited)" lines, ${editsReplaced} replaced the line still queued); ` +
        `backlog max ${maxQueued} (sampled every 250 ms), dropped ${Number(info.dropped ?? 0)}`,
    );
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
