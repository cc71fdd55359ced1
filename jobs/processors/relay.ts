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
import { deletedNote, discordToGalaxy, EDIT_SUFFIX, galaxyToDiscord, replyContext, webhookUsername } from "../relay/format";
import { GalaxyLink } from "../relay/galaxy-link";
import { BoundedMap } from "../relay/message-map";
import { relayFilter, renderName, type RelayFilter } from "../relay/options";
import { relaySettings } from "../relay/settings";

type Held = { link: GalaxyLink; running: Promise<void>; row: RelayAccountRow; filter: RelayFilter; filterKey: string };

/** A deleted Discord message relayed less than this long ago is noted on Galaxy (issue 22 B.2). */
export const DELETE_NOTE_WINDOW_MS = 60_000;
/** A Galaxy line addressed to a relay account answers the Discord message it said last, if that was this recent. */
const REPLY_TO_RELAYED_MS = 5 * 60_000;

/** A Discord message relayed to Galaxy (edits, deletes and reply context need it). */
type ToGalaxy = { channelId: string; author: string; text: string; context: string | null };
/** A Galaxy line posted on Discord (a Discord reply to it addresses its sender on Galaxy). */
type FromGalaxy = { channelId: string; fromId: string; nick: string; text: string; planet: string | null };

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

  // The Discord ↔ Galaxy message-id map (bounded, RELAY_MAP_MAX each).
  const toGalaxy = new BoundedMap<string, ToGalaxy>(settings.RELAY_MAP_MAX);
  const fromGalaxy = new BoundedMap<string, FromGalaxy>(settings.RELAY_MAP_MAX);
  /** `${channelId}:${galaxyId}` → that Galaxy user's latest post on Discord. */
  const lastPost = new BoundedMap<string, string>(settings.RELAY_MAP_MAX);
  /** A relay account → the Discord message it said last on its planet. */
  const lastSaid = new Map<string, { messageId: string; at: number }>();

  const galaxyName = (h: Held, nick: string) => renderName(h.filter.options.galaxyName, { nick, planet: h.link.planet, channel: h.row.channelName });
  /** Every relay connection of a channel that takes lines from this author and text. */
  function* linksFor(channelId: string, author: string, text: string) {
    for (const h of links.values()) {
      if (h.row.channelId !== channelId || h.filter.ignoresNick(author) || h.filter.ignoresText(text)) continue;
      yield h;
    }
  }

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
        // A reply shows its context: the replied message's author (the Galaxy nick for a relayed Galaxy line) and first words.
        const g = msg.reply ? fromGalaxy.get(msg.reply.messageId) : undefined;
        const d = msg.reply ? toGalaxy.get(msg.reply.messageId) : undefined;
        const refNick = g?.nick ?? msg.reply?.author ?? d?.author;
        const context = msg.reply && refNick ? replyContext(refNick, g?.text ?? msg.reply.content ?? d?.text ?? "") : null;
        toGalaxy.set(msg.messageId, { channelId: msg.channelId, author: msg.author, text: msg.content, context });
        for (const h of linksFor(msg.channelId, msg.author, msg.content)) {
          // A reply to a relayed Galaxy line is addressed to its sender there (when on that planet).
          const to = g && g.planet === h.link.planet ? g.fromId : "0";
          const text = context ? `${context} ${msg.content}` : msg.content;
          h.link.say(discordToGalaxy(galaxyName(h, msg.author), text), { to, tag: msg.messageId });
          lastSaid.set(h.row.accountId, { messageId: msg.messageId, at: Date.now() });
        }
      },
      onEdit: (msg) => {
        // matterbridge: an edit is relayed as a corrected line with " (edited)"; one still queued is simply replaced.
        const before = toGalaxy.get(msg.messageId);
        if (!before) return;
        toGalaxy.set(msg.messageId, { ...before, text: msg.content });
        for (const h of linksFor(msg.channelId, msg.author, msg.content)) {
          const { removed, saidAt } = h.link.withdraw(msg.messageId);
          if (saidAt === null && removed === 0) continue; // this connection never relayed it
          const body = before.context ? `${before.context} ${msg.content}` : msg.content;
          const text = saidAt === null ? body : `${body}${EDIT_SUFFIX}`;
          h.link.say(discordToGalaxy(galaxyName(h, msg.author), text), { tag: msg.messageId });
        }
      },
      onDelete: ({ channelId, messageId }) => {
        const gone = toGalaxy.get(messageId);
        if (!gone) return;
        toGalaxy.delete(messageId);
        for (const h of links.values()) {
          if (h.row.channelId !== channelId) continue;
          // Galaxy cannot withdraw a line: lines still queued are taken back; one said less than a minute ago is noted.
          const { saidAt } = h.link.withdraw(messageId);
          if (saidAt !== null && Date.now() - saidAt < DELETE_NOTE_WINDOW_MS) h.link.say(discordToGalaxy(galaxyName(h, gone.author), deletedNote(gone.text)));
        }
      },
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

  const linkSession = (accountId: string) => ({
    holdsLock: ctx.holdsLock,
    report: async (patch: Parameters<SessionContext["report"]>[0]) => ctx.proven() && reportSession("relay-link", accountId, ctx.workerId, patch),
    end: async (end: Parameters<SessionContext["end"]>[0]) => {
      if (ctx.proven()) await endSession("relay-link", accountId, ctx.workerId, end);
    },
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
          const h = links.get(row.accountId)!;
          if (h.filter.ignoresNick(chat.nick) || h.filter.ignoresText(chat.text)) return;
          const name = renderName(h.filter.options.discordName, { nick: chat.nick, planet: link.planet, channel: h.row.channelName });
          // Addressed to someone ("Nick, text"): a Discord reply to what they said last here, when known; else the
          // text as it is, no ping (allowedMentions parse nothing).
          let text = chat.text;
          let replyTo: string | null = null;
          if (chat.toId !== "0") {
            const said = lastSaid.get(chat.toId);
            const ours = links.get(chat.toId);
            const theirs = lastPost.get(`${row.channelId}:${chat.toId}`);
            if (ours && said && Date.now() - said.at < REPLY_TO_RELAYED_MS && ours.row.channelId === row.channelId) {
              replyTo = said.messageId;
              text = stripAddress(text, ours.row.nick);
            } else if (theirs) {
              replyTo = theirs;
              text = stripAddress(text, fromGalaxy.get(theirs)?.nick ?? "");
            }
          }
          const out = { ...chat, nick: name, text };
          const planet = link.planet;
          void bot
            .post(row.channelId, { build: (mode) => galaxyToDiscord(out, mode), username: webhookUsername(name), replyTo, origin: row.accountId })
            .then((id) => {
              if (!id) return;
              const count = toDiscord.get(row.accountId) ?? { n: 0, at: 0 };
              toDiscord.set(row.accountId, { n: count.n + 1, at: Date.now() });
              dirty.add(row.accountId);
              fromGalaxy.set(id, { channelId: row.channelId, fromId: chat.fromId, nick: chat.nick, text: chat.text, planet });
              lastPost.set(`${row.channelId}:${chat.fromId}`, id);
            });
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

/** "Nick, text" (Galaxy's addressing convention) → "text". */
function stripAddress(text: string, nick: string): string {
  return nick && text.startsWith(`${nick}, `) ? text.slice(nick.length + 2) : text;
}

async function log(type: "info" | "error" | "disconnect", message: string, ctx: SessionContext, details: Record<string, unknown> = {}) {
  await logEvent({ type, source: "bot", message, details: { worker: ctx.workerId, purpose: "relay", ...details } }).catch(() => {});
}
