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
 * the operator) and on the session host's poll: accounts wanted get a GalaxyLink (a channel
 * change restarts it), the others are closed; planet changes arrive as commands.
 */
import { accountsToRelay, saveBotInfo, saveLinkAccount, type RelayAccountRow } from "~/models/galacord.server";
import { logEvent } from "~/models/log.server";
import { claimSession, endSession, releaseSession, reportSession, settleHostedSessions } from "~/models/session.server";
import { errorText } from "~/utils/errors";
import type { SessionContext } from "../session-host.server";
import { DiscordBot } from "../relay/discord-bot";
import { discordToGalaxy, galaxyToDiscord, webhookUsername } from "../relay/format";
import { GalaxyLink } from "../relay/galaxy-link";
import { relaySettings } from "../relay/settings";

type Held = { link: GalaxyLink; running: Promise<void>; row: RelayAccountRow };

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
  const { signal } = ctx;
  const settings = relaySettings();
  const writes = serial();
  const links = new Map<string, Held>();
  let fatal = false;
  const stopAll = new AbortController();
  signal.addEventListener("abort", () => stopAll.abort(), { once: true });

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
        void log("info", `GalaCord bot logged in to Discord (${channels.length} channels)`, ctx);
      },
      onStarting: (error, attempt, nextRetryAt) => writes(() => ctx.report({ actual: "reconnecting", error, attempt, nextRetryAt })),
      onFatal: (error) => {
        if (fatal) return;
        fatal = true;
        writes(() => ctx.end({ actual: "failed", error }));
        void log("error", `GalaCord bot stopped: ${error}`, ctx);
        stopAll.abort();
      },
      onMessage: (msg) => {
        for (const h of links.values()) {
          if (h.row.channelId !== msg.channelId) continue;
          h.link.say(discordToGalaxy(msg.author, msg.content));
        }
      },
    },
    signal,
  );

  const linkSession = (accountId: string) => ({
    holdsLock: ctx.holdsLock,
    report: (patch: Parameters<SessionContext["report"]>[0]) => reportSession("relay-link", accountId, ctx.workerId, patch),
    end: (end: Parameters<SessionContext["end"]>[0]) => endSession("relay-link", accountId, ctx.workerId, end),
    log: (type: "error" | "disconnect" | "info", message: string, details: Record<string, unknown>) => log(type, message, ctx, { accountId, ...details }),
  });

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
        onChat: (chat) => {
          if (links.get(row.accountId)?.link !== link) return;
          // Loop prevention: never lines said by our own relay accounts.
          if (links.has(chat.fromId)) return;
          // Several of our accounts on one planet relaying to one channel: only the first relays.
          for (const [id, other] of links) {
            if (other.link === link) break;
            if (other.row.channelId === row.channelId && other.link.planet === link.planet && other.link.connected && id !== row.accountId) return;
          }
          const username = webhookUsername(chat.nick);
          void bot.post(row.channelId, chat.nick, (mode) => galaxyToDiscord(chat, mode), username);
        },
      },
      linkSession(row.accountId),
    );
    const running = link
      .run()
      .catch((err: unknown) => console.warn(`[relay] link ${row.accountId} ended: ${errorText(err)}`))
      .finally(() => {
        // Ended by itself (451, 950): forget it, so a Connect starts it again.
        if (links.get(row.accountId)?.link === link) links.delete(row.accountId);
      });
    links.set(row.accountId, { link, running, row });
    if (bot.ready) bot.prepare(row.channelId);
  };

  const stopLink = async (accountId: string) => {
    const h = links.get(accountId);
    if (!h) return;
    links.delete(accountId);
    await h.link.close();
    await h.running;
    await releaseSession("relay-link", accountId, ctx.workerId, "stopped").catch(() => {});
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
      } else h.row = row;
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

  // Operators' changes arrive as wakes; planet changes as commands on the relay connections.
  ctx.onWake(kick);
  ctx.onCommand(
    async (cmd) => {
      const h = links.get(cmd.key);
      if (cmd.kind !== "planet") throw Object.assign(new Error(`Unknown command ${cmd.kind}`), { status: 400 });
      if (!h) throw Object.assign(new Error("Not connected to Galaxy"), { status: 409 });
      const planet = await h.link.changePlanet(String(cmd.arg));
      await saveLinkAccount(cmd.key, { planet });
      await reportSession("relay-link", cmd.key, ctx.workerId, { planet });
      return planet;
    },
    { purpose: "relay-link", keys: () => [...links.keys()] },
  );
  const poll = setInterval(kick, settings.RELAY_POLL_MS);
  try {
    kick();
    const botRun = bot.run();
    await new Promise<void>((resolve) => {
      if (stopAll.signal.aborted) return resolve();
      stopAll.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await botRun;
  } finally {
    clearInterval(poll);
    await busy;
    await Promise.all([...links.keys()].map((id) => stopLink(id)));
    await bot.stop();
    await writes.idle();
    // The relay connections show offline while the bot does not run (still wanted: they come back with it).
    const reason = ctx.reason();
    await settleHostedSessions(
      "relay-link",
      reason === "shutdown" ? "Waiting for a worker to take the GalaCord bot over" : "The GalaCord bot is stopped",
    ).catch(() => {});
  }
}

async function log(type: "info" | "error" | "disconnect", message: string, ctx: SessionContext, details: Record<string, unknown> = {}) {
  await logEvent({ type, source: "bot", message, details: { worker: ctx.workerId, purpose: "relay", ...details } }).catch(() => {});
}
