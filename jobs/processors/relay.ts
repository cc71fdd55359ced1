/**
 * The GalaCord relay session (spec 2 §4 "Relay bot"; docs/galacord.md): ONE session on the
 * session host (purpose `relay`, key "bot", job `relay-bot`) owns the discord.js Client and
 * every Galaxy relay connection, so the Discord client lives in exactly one process. If its
 * worker dies, another worker takes the job (stalled recovery) and this runner starts
 * everything again (new Client, new logins) with backoff.
 *
 * Each saved account's relay connection is a session of its own (purpose `relay-link`,
 * docs/sessions.md) held inside this one: this runner claims it, and its GalaxyLink writes
 * its state through the same supervisor as every other session. The holder reconciles the
 * rows with what it runs at start, on every wake over the control channel (a change made by
 * the operator) and on the session host's poll (SESSION_POLL_MS): accounts wanted get a GalaxyLink (a channel
 * change restarts it), the others are closed; planet changes arrive as commands.
 */
import { accountsToRelay, saveBotInfo, saveLinkAccount, type RelayAccountRow } from "~/models/galacord.server";
import { claimSession, releaseSession, reportSession, settleHostedSessions } from "~/models/session.server";
import { AppError } from "~/utils/app-error";
import { errorText } from "~/utils/errors";
import type { SessionContext } from "../session-host.server";
import { GalaxyLink } from "../relay/galaxy-link";
import { relayFilter, type RelayFilter } from "../relay/options";
import { createRelayRouter } from "../relay/router";
import { relaySettings } from "../relay/settings";

export { DELETE_NOTE_WINDOW_MS } from "../relay/router";

type Held = { link: GalaxyLink; running: Promise<void>; row: RelayAccountRow; filter: RelayFilter; filterKey: string };

/** Runs async writes one after another (state rows must land in order). */
function serial() {
  let chain: Promise<void> = Promise.resolve();
  const run = (fn: () => Promise<unknown>) => {
    chain = chain.then(fn).then(
      () => {},
      (err: unknown) => console.warn(`[relay] could not store state: ${errorText(err)}`),
    );
  };
  run.idle = () => chain;
  return run;
}

export async function runRelay(ctx: SessionContext): Promise<void> {
  // discord.js (~40 MB resident) loads only in the process that holds a running bot.
  const { DiscordBot } = await import("../relay/discord-bot");
  const { signal } = ctx;
  const settings = relaySettings();
  const writes = serial();
  const links = new Map<string, Held>();
  let fatal = false;
  const stopAll = new AbortController();
  signal.addEventListener("abort", () => stopAll.abort(), { once: true });
  if (signal.aborted) stopAll.abort(); // a stop made while discord.js was loading

  // Who hears what (jobs/relay/router.ts): Discord → Galaxy and Galaxy → Discord, with the message maps.
  // Every post for Discord counts for its connection (the Sessions page's "relayed to Discord").
  const postCounted = (channelId: string, post: Parameters<typeof bot.post>[1]) =>
    bot.post(channelId, post).then((id) => {
      if (id) {
        const count = toDiscord.get(post.origin) ?? { n: 0, at: 0 };
        toDiscord.set(post.origin, { n: count.n + 1, at: Date.now() });
        dirty.add(post.origin);
      }
      return id;
    });
  const router = createRelayRouter({ links, post: postCounted, mapMax: settings.RELAY_MAP_MAX });

  // The backlog of each connection (Galaxy-bound lines + Discord-bound lines) in its session's info, live on the row.
  const dirty = new Set<string>();
  /** Messages each relay connection posted on Discord, and when the last went (issue 31). */
  const toDiscord = new Map<string, { n: number; at: number }>();
  const written = new Map<string, string>();
  const markAll = () => {
    for (const id of links.keys()) dirty.add(id);
  };
  const flushBacklog = () => {
    for (const id of dirty) {
      const h = links.get(id);
      if (!h) continue;
      // Issue 31: the Sessions page's per-connection counters — relayed each way, dropped, queued, the last line's time.
      const posted = toDiscord.get(id);
      const last = Math.max(h.link.lastSaidAt, posted?.at ?? 0);
      const info = {
        queued: h.link.queued + bot.pendingFor(id),
        dropped: h.link.dropped + bot.droppedFor(id),
        toGalaxy: h.link.said,
        toDiscord: posted?.n ?? 0,
        lastMessageAt: last ? new Date(last).toISOString() : null,
      };
      const key = JSON.stringify(info);
      if (written.get(id) === key) continue;
      written.set(id, key);
      writes(async () => ctx.proven() && reportSession("relay-link", id, ctx.workerId, { info }));
    }
    dirty.clear();
  };
  const backlogTimer = setInterval(flushBacklog, settings.RELAY_BACKLOG_REPORT_MS);

  const bot = new DiscordBot(
    settings,
    {
      onReady: ({ channels, botUserId }) => {
        writes(async () => {
          await saveBotInfo({ channels, botUserId });
          await ctx.report({ actual: "active", error: null, attempt: 0, nextRetryAt: null, info: { channels: channels.length } });
        });
        // Know our webhooks before any message arrives (loop prevention after a takeover).
        for (const h of links.values()) bot.prepare(h.row.channelId);
        void ctx.log("info", `GalaCord bot logged in to Discord (${channels.length} channels)`);
      },
      onStarting: (error, attempt, nextRetryAt) => writes(() => ctx.report({ actual: "reconnecting", error, attempt, nextRetryAt })),
      onFatal: (error) => {
        if (fatal) return;
        fatal = true;
        writes(() => ctx.end({ actual: "failed", error }));
        void ctx.log("error", `GalaCord bot stopped: ${error}`);
        stopAll.abort();
      },
      onMessage: (msg) => router.discordMessage(msg),
      onEdit: (msg) => router.discordEdit(msg),
      onDelete: (msg) => router.discordDelete(msg),
      onBacklog: markAll,
    },
    signal,
  );

  // A holder that let go (decision 0028: its lock unproven) writes nothing more for its links.
  // Let go (decision 0028: this worker cannot prove its lock): the Discord client and every relay
  // socket close at once, before anything that needs the database or Redis (cut off too, maybe)
  // and before the lock lapses and another worker logs the accounts in.
  signal.addEventListener(
    "abort",
    () => {
      if (ctx.reason() === "lock-lost") void Promise.all([bot.stop(), ...[...links.values()].map((h) => h.link.close())]);
    },
    { once: true },
  );

  const startLink = (row: RelayAccountRow) => {
    const link = new GalaxyLink(
      { accountId: row.accountId, nick: row.nick, password: row.passwordPlain, recoveryCode: row.recoveryCodePlain },
      row.channelId,
      row.planet,
      settings,
      {
        // The planet it joined is the account's saved planet from now on (kept through errors).
        onPlanet: async (planet) => {
          if (planet && links.get(row.accountId)?.link === link) await saveLinkAccount(row.accountId, { planet });
        },
        onPassword: (password) => writes(() => saveLinkAccount(row.accountId, { password })),
        onChat: (chat) => router.galaxyChat(row.accountId, link, chat),
      },
      ctx.supervised(`GalaCord ${row.nick}`, { hosted: { purpose: "relay-link", key: row.accountId } }),
    );
    const running = link
      .run()
      .catch((err: unknown) => console.warn(`[relay] link ${row.accountId} ended: ${errorText(err)}`))
      .finally(() => {
        // Ended by itself (451, 950): forget it, so a Connect starts it again.
        if (links.get(row.accountId)?.link === link) links.delete(row.accountId);
      });
    link.onQueue = () => dirty.add(row.accountId);
    dirty.add(row.accountId);
    links.set(row.accountId, { link, running, row, ...filterOf(row) });
    if (bot.ready) bot.prepare(row.channelId);
  };

  const stopLink = async (accountId: string) => {
    const h = links.get(accountId);
    if (!h) return;
    links.delete(accountId);
    written.delete(accountId);
    toDiscord.delete(accountId);
    await h.link.close();
    await h.running;
    if (ctx.proven()) await releaseSession("relay-link", accountId, ctx.workerId, "stopped").catch(() => {});
  };

  let busy: Promise<void> | null = null;
  let again = false;
  const reconcile = async () => {
    if (stopAll.signal.aborted) return;
    const rows = await accountsToRelay();
    const wanted = new Map(rows.map((r) => [r.accountId, r]));
    for (const [id, h] of links) {
      const row = wanted.get(id);
      if (!row || row.channelId !== h.row.channelId) {
        // Gone, disconnected, failed, or moved to another channel (disconnect, then connect again).
        await stopLink(id);
      } else {
        h.row = row;
        // Relay options saved on the screen apply at once (no reconnect).
        const f = filterOf(row);
        if (f.filterKey !== h.filterKey) Object.assign(h, f);
      }
    }
    for (const row of rows) {
      if (links.has(row.accountId) || stopAll.signal.aborted) continue;
      // This holder takes the relay connection over (after a failover its row still names the dead one).
      if (!(await claimSession("relay-link", row.accountId, ctx.workerId))) continue;
      startLink(row);
    }
  };
  const kick = () => {
    if (busy) {
      again = true;
      return;
    }
    busy = (async () => {
      do {
        again = false;
        try {
          await reconcile();
        } catch (err) {
          console.warn(`[relay] reconcile failed: ${errorText(err)}`);
        }
      } while (again && !stopAll.signal.aborted);
      busy = null;
    })();
  };

  // Operators' changes arrive as wakes (the control channel, and the host's SESSION_POLL_MS
  // round for a wake lost while Redis was away: no poll of its own); planet changes as commands
  // on the relay connections.
  ctx.onWake(kick);
  ctx.onCommand(
    async (cmd) => {
      const h = links.get(cmd.key);
      if (cmd.kind !== "planet") throw new AppError(400, `Unknown command ${cmd.kind}`);
      if (!h) throw new AppError(409, "Not connected to Galaxy");
      const planet = await h.link.changePlanet(String(cmd.arg));
      await saveLinkAccount(cmd.key, { planet });
      await reportSession("relay-link", cmd.key, ctx.workerId, { planet });
      return planet;
    },
    { purpose: "relay-link", keys: () => [...links.keys()] },
  );
  try {
    kick();
    const botRun = bot.run();
    await new Promise<void>((resolve) => {
      if (stopAll.signal.aborted) return resolve();
      stopAll.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await botRun;
  } finally {
    clearInterval(backlogTimer);
    await busy;
    await Promise.all([...links.keys()].map((id) => stopLink(id)));
    await bot.stop();
    await writes.idle();
    // The relay connections show offline while the bot does not run (still wanted: they come back with it).
    const reason = ctx.reason();
    // After a let-go the rows are the next holder's to write.
    if (reason !== "lock-lost")
      await settleHostedSessions(
        "relay-link",
        reason === "shutdown" ? "Waiting for a worker to take the GalaCord bot over" : "The GalaCord bot is stopped",
      ).catch(() => {});
  }
}

function filterOf(row: RelayAccountRow): { filter: RelayFilter; filterKey: string } {
  return { filter: relayFilter(row.relayOptions), filterKey: JSON.stringify(row.relayOptions) };
}
