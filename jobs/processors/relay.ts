/**
 * The GalaCord relay session (spec 2 §4 "Relay bot"; docs/galacord.md): ONE session on the
 * session host (purpose `relay`, pseudo-account "bot", job `relay-bot`) owns the discord.js
 * Client and every Galaxy relay connection, so the Discord client lives in exactly one
 * process. If its worker dies, another worker takes the job (stalled recovery) and this
 * runner starts everything again (new Client, new logins) with backoff.
 *
 * The holder reconciles the database rows with what it runs: at start, every RELAY_POLL_MS,
 * and at once on a Redis nudge from the web process (`<prefix>:relay:nudge`): accounts wanted
 * connected get a GalaxyLink (a channel change restarts it), the others are closed; pending
 * planet commands run on their link and the result is written back.
 */
import type { Job } from "bullmq";
import type { Redis } from "ioredis";
import {
  accountsToRelay,
  claimCommand,
  failBot,
  finishCommand,
  markAllOffline,
  nudgeChannel,
  pendingCommands,
  readBotRow,
  reportAccount,
  reportBot,
  type RelayAccountRow,
} from "~/models/galacord.server";
import { logEvent } from "~/models/log.server";
import { errorText } from "~/utils/errors";
import type { SessionJob } from "../queues.server";
import { createWorkerConnection } from "../redis.server";
import { DiscordBot } from "../relay/discord-bot";
import { discordToGalaxy, galaxyToDiscord, webhookUsername } from "../relay/format";
import { GalaxyLink } from "../relay/galaxy-link";
import { relaySettings } from "../relay/settings";
import { sessionProcessor, type SessionContext } from "../session-host.server";

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

  const bot = new DiscordBot(
    settings,
    {
      onReady: ({ channels, botUserId }) => {
        writes(() => reportBot({ state: "running", error: null, channels, botUserId, worker: ctx.workerId }));
        // Know our webhooks before any message arrives (loop prevention after a takeover).
        for (const h of links.values()) bot.prepare(h.row.channelId);
        void log("info", `GalaCord bot logged in to Discord (${channels.length} channels)`, ctx);
      },
      onStarting: (error) => writes(() => reportBot({ state: "starting", error, worker: ctx.workerId })),
      onFatal: (error) => {
        if (fatal) return;
        fatal = true;
        writes(() => failBot(error));
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
  const stopAll = new AbortController();
  signal.addEventListener("abort", () => stopAll.abort(), { once: true });

  const startLink = (row: RelayAccountRow) => {
    const link = new GalaxyLink(
      { accountId: row.accountId, nick: row.nick, password: row.passwordPlain, recoveryCode: row.recoveryCodePlain },
      row.channelId,
      row.planet,
      settings,
      {
        onState: (state, info) => {
          if (links.get(row.accountId)?.link !== link) return;
          writes(() =>
            reportAccount(row.accountId, {
              state,
              ...(info.planet !== undefined ? { planet: info.planet } : {}),
              ...(info.error !== undefined ? { error: info.error } : {}),
            }),
          );
        },
        onPassword: (password) => writes(() => reportAccount(row.accountId, { password })),
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
    );
    const running = link.run().catch((err: unknown) => console.warn(`[relay] link ${row.accountId} ended: ${errorText(err)}`));
    links.set(row.accountId, { link, running, row });
    if (bot.ready) bot.prepare(row.channelId);
  };

  const stopLink = async (accountId: string) => {
    const h = links.get(accountId);
    if (!h) return;
    links.delete(accountId);
    await h.link.close();
    await h.running;
  };

  let busy: Promise<void> | null = null;
  let again = false;
  const reconcile = async () => {
    if (stopAll.signal.aborted) return;
    const rows = await accountsToRelay();
    const wanted = new Map(rows.map((r) => [r.accountId, r]));
    for (const [id, h] of links) {
      const row = wanted.get(id);
      if (!row || row.channelId !== h.row.channelId || row.state === "error") {
        // Gone, disconnected, or moved to another channel (disconnect, then connect again).
        await stopLink(id);
      } else h.row = row;
    }
    for (const row of rows) {
      if (links.has(row.accountId) || row.state === "error" || stopAll.signal.aborted) continue;
      startLink(row);
    }
    for (const cmd of await pendingCommands()) {
      const h = links.get(cmd.accountId);
      if (!h || !(await claimCommand(cmd.id))) continue;
      void (async () => {
        try {
          const planet = await h.link.changePlanet(cmd.arg);
          await reportAccount(cmd.accountId, { planet });
          await finishCommand(cmd.id, true, planet);
        } catch (err) {
          await finishCommand(cmd.id, false, errorText(err)).catch(() => {});
        }
      })();
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

  let sub: Redis | null = null;
  const poll = setInterval(kick, settings.RELAY_POLL_MS);
  try {
    const row = await readBotRow();
    if (row.desired !== "running") return;
    await reportBot({ state: "starting", worker: ctx.workerId });
    sub = createWorkerConnection();
    sub.on("message", () => kick());
    void sub.subscribe(nudgeChannel()).catch(() => {});
    kick();
    const botRun = bot.run();
    await new Promise<void>((resolve) => {
      if (stopAll.signal.aborted) return resolve();
      stopAll.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    await botRun;
  } finally {
    clearInterval(poll);
    if (sub) sub.disconnect();
    await busy;
    await Promise.all([...links.keys()].map((id) => stopLink(id)));
    await bot.stop();
    const reason = ctx.reason();
    if (reason === "stop" || fatal) {
      await markAllOffline().catch(() => {});
      if (!fatal) await reportBot({ state: "stopped", worker: null }).catch(() => {});
    } else if (reason === "shutdown") {
      await reportBot({ state: "starting", worker: null }).catch(() => {});
    }
    await writes.idle();
    if (fatal) await markAllOffline().catch(() => {});
  }
}

async function log(type: "info" | "error", message: string, ctx: SessionContext) {
  await logEvent({ type, source: "bot", message, details: { worker: ctx.workerId, purpose: "relay" } }).catch(() => {});
}

export const processRelayJob: (job: Job<SessionJob>, token?: string, signal?: AbortSignal) => Promise<unknown> = sessionProcessor("relay", runRelay);
