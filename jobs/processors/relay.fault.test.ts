/**
 * GalaCord failover (issue 13 "Proof": "worker SIGKILL → the bot and connections come
 * back"): real worker processes (`node --import tsx jobs/worker.ts`) hold the `relay-bot`
 * session; the Galaxy and Discord simulators run in this process. Short session locks so the
 * takeover happens within seconds (the production timing lives in docs/jobs.md).
 */
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startDiscordSimulator, type DiscordSimulator } from "#sim/discord/server";
import { SEED } from "#sim/discord/state";
import { startSimulator, type Simulator } from "#sim/server";
import { getDb } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { GalaxyConnection } from "~/galaxy/connection.server";
import { connectNew } from "~/platform/galacord-connect.server";
import { getBotStatus, getSavedAccount, startBot, stopBot } from "~/models/galacord.server";
import { getEnv } from "~/utils/env.server";
import { closeQueues } from "../../app/queue/queues.server";
import { deleteKeys, spawnWorker, waitFor, type WorkerChild } from "../test-helpers";
import { startPartitionProxy, type PartitionProxy } from "../test-partition";

let galaxy: Simulator;
let discord: DiscordSimulator;
let proxy: PartitionProxy;
const children: WorkerChild[] = [];
const RELAY = SEED.guilds[0].channels[1].id;

async function worker(env: Record<string, string> = {}): Promise<WorkerChild & { id: string }> {
  const w = spawnWorker({
    SESSION_LOCK_DURATION_MS: "3000",
    SESSION_STALLED_INTERVAL_MS: "1000",
    SESSION_POLL_MS: "500",
    SESSION_RECONCILE_MS: "2000",
    WORKER_HEARTBEAT_MS: "500",
    GALAXY_WS_URL: galaxy.wsUrl,
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiBase,
    RELAY_FAST_IDENTIFY: "1",
    RELAY_LINE_INTERVAL_MS: "20",
    RELAY_GALAXY_RETRY_MS: "200",
    ...env,
  });
  children.push(w);
  const id = await waitFor(`worker ready\n${w.output()}`, () => /\[jobs\] worker (\S+) processing/.exec(w.output())?.[1], 30_000);
  return Object.assign(w, { id });
}

beforeAll(async () => {
  galaxy = await startSimulator({ port: 0, pingIntervalMs: 0 });
  discord = await startDiscordSimulator({ port: 0, heartbeatIntervalMs: 1000 });
  process.env.GALAXY_WS_URL = galaxy.wsUrl;
  const redis = new URL(getEnv().REDIS_URL);
  proxy = await startPartitionProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
});
afterEach(() => {
  proxy.heal();
  for (const w of children.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
});
afterAll(async () => {
  await proxy?.close();
  await closeQueues();
  await galaxy?.close();
  await discord?.close();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

async function botOn(workerId: string) {
  return waitFor(
    `bot running on ${workerId}`,
    async () => {
      const [row] = await (
        await getDb()
      )
        .select()
        .from(sessions)
        .where(and(eq(sessions.purpose, "relay"), eq(sessions.key, "bot")));
      return row?.actual === "active" && row.holder === workerId ? row : false;
    },
    40_000,
  );
}

describe("GalaCord survives a worker SIGKILL (issue 13 Proof)", () => {
  it("the worker holding the bot is killed: another worker logs the bot in again (new Client) and reconnects the relay; relaying works again", async () => {
    const a = await worker();
    await startBot();
    await botOn(a.id);
    const [acc, listenerAcc] = galaxy.world.accounts.filter((x) => x.kind === "plain");
    await connectNew({ channelId: RELAY, recoveryCode: acc.recoveryCode });
    const live = await waitFor("connected", async () => {
      const s = await getSavedAccount(acc.id);
      return s?.state === "connected" && s.planet ? s : false;
    });
    const identifies = discord.gateway.events.filter((e) => e.kind === "identify").length;

    const b = await worker();
    a.child.kill("SIGKILL");
    expect((await a.exited).signal).toBe("SIGKILL");
    await waitFor("the dead worker's Galaxy session gone", () => galaxy.sockets.sessions(acc.id).length === 0, 15_000);

    await botOn(b.id);
    expect(discord.gateway.events.filter((e) => e.kind === "identify").length).toBeGreaterThan(identifies);
    const back = await waitFor(
      "connected again",
      async () => {
        const s = await getSavedAccount(acc.id);
        return s?.state === "connected" && galaxy.sockets.sessions(acc.id).length === 1 ? s : false;
      },
      30_000,
    );
    expect(back.planet).toBe(live.planet);
    expect((await getBotStatus()).connectedChannels).toBe(1);

    // Both directions through the new holder.
    const listener = new GalaxyConnection({ url: galaxy.wsUrl, credentials: { recoveryCode: listenerAcc.recoveryCode }, planet: live.planet });
    listener.on("error", () => {});
    const lines: string[] = [];
    listener.on("line", (l) => l.command === "PRIVMSG" && l.params[0] === acc.id && lines.push(l.trailing ?? ""));
    await listener.connect();
    listener.send("PRIVMSG", [0, 0], "after the failover");
    await waitFor("posted to Discord", () => discord.state.sent.some((s) => s.content === "after the failover" && s.channelId === RELAY));
    await fetch(`${discord.controlUrl}messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ channelId: RELAY, username: "bob", content: "welcome back" }),
    });
    await waitFor("said on the planet", () => lines.includes("Bob: welcome back"));
    await listener.close();

    await stopBot();
    await waitFor("Galaxy session closed", () => galaxy.sockets.sessions(acc.id).length === 0, 15_000);
  }, 120_000);
});

describe("GalaCord on a worker cut off from Redis lets go first (issue 29 item 2; decision 0028)", () => {
  it("the cut-off worker destroys its Discord client and closes its relay sockets before the other worker logs in: no kick", async () => {
    const a = await worker({ REDIS_URL: proxy.url });
    await startBot();
    await botOn(a.id);
    const acc = galaxy.world.accounts.filter((x) => x.kind === "plain")[2]!;
    await connectNew({ channelId: RELAY, recoveryCode: acc.recoveryCode });
    await waitFor("connected", async () => (await getSavedAccount(acc.id))?.state === "connected" && galaxy.sockets.sessions(acc.id).length === 1);
    const b = await worker();
    const kicks = galaxy.sockets.kicks.length;
    const events = discord.gateway.events.length;
    const cutAt = new Date();

    proxy.cut();
    await botOn(b.id);
    await waitFor(
      "connected again on the other worker",
      async () => (await getSavedAccount(acc.id))?.state === "connected" && galaxy.sockets.sessions(acc.id).length === 1,
      30_000,
    );
    // The relay account was never kicked: A said QUIT :ds before B's login.
    expect(galaxy.sockets.kicks.slice(kicks)).toEqual([]);
    const ours = galaxy.sockets.closed.filter((c) => c.accountId === acc.id && new Date(c.openedAt) < cutAt && new Date(c.closedAt!) >= cutAt);
    expect(ours.map((c) => c.quit)).toEqual(["ds"]);
    expect(new Date(ours[0]!.closedAt!).getTime()).toBeLessThanOrEqual(galaxy.sockets.sessions(acc.id)[0]!.openedAt.getTime());
    // A's Discord gateway session closed before B identified: one bot online at a time.
    const after = discord.gateway.events.slice(events).map((e) => e.kind);
    expect(after.indexOf("close")).toBeGreaterThanOrEqual(0);
    expect(after.indexOf("close")).toBeLessThan(after.indexOf("identify"));

    proxy.heal();
    await stopBot();
    await waitFor("Galaxy session closed", () => galaxy.sockets.sessions(acc.id).length === 0, 15_000);
  }, 120_000);
});
