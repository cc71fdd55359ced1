/**
 * The relay's message routing (spec 2 §4 "Relay bot"; docs/galacord.md), one function per
 * direction and kind, apart from the session that runs the Discord client and the Galaxy
 * connections (jobs/processors/relay.ts), so each rule is tested on its own
 * (router.test.ts): no socket, no database, no clock but the one handed in.
 *
 * - Discord → Galaxy: `discordMessage` (to every connection of the channel that takes the
 *   author and text; a reply shows its context, and is addressed to the Galaxy sender of the
 *   line it answers), `discordEdit` (matterbridge: a corrected line with " (edited)", or the
 *   queued line replaced), `discordDelete` (queued lines withdrawn; one said in the last
 *   minute is noted).
 * - Galaxy → Discord: `galaxyChat` (never our own accounts' lines; one connection per planet
 *   and channel relays; "Nick, text" becomes a Discord reply to what Nick said last there).
 *
 * It keeps the Discord ↔ Galaxy message maps (bounded, RELAY_MAP_MAX each).
 */
import { deletedNote, discordToGalaxy, EDIT_SUFFIX, galaxyToDiscord, replyContext, webhookUsername } from "./format";
import { BoundedMap } from "./message-map";
import { renderName, type RelayFilter } from "./options";

/** A deleted Discord message relayed less than this long ago is noted on Galaxy (issue 22 B.2). */
export const DELETE_NOTE_WINDOW_MS = 60_000;
/** A Galaxy line addressed to a relay account answers the Discord message it said last, if that was this recent. */
export const REPLY_TO_RELAYED_MS = 5 * 60_000;

/** What the router needs of a relay connection (a GalaxyLink). */
export type RoutedLink = {
  readonly planet: string | null;
  readonly connected: boolean;
  say(lines: string[], opts?: { to?: string; tag?: string | null }): void;
  withdraw(tag: string): { removed: number; saidAt: number | null };
};

/** A relay connection as the session holds it: its link, its saved row, its options compiled. */
export type RoutedHeld = {
  link: RoutedLink;
  row: { accountId: string; nick: string; channelId: string; channelName: string };
  filter: RelayFilter;
};

/** A Discord message as the bot hands it over. */
export type DiscordMessage = {
  channelId: string;
  messageId: string;
  author: string;
  content: string;
  reply: { messageId: string; author: string | null; content: string | null } | null;
};

/** A Galaxy line heard by a relay connection. */
export type GalaxyChatLine = { fromId: string; nick: string; text: string; system: boolean; toId: string };

/** A post for Discord (DiscordBot.post): answers the new message's id, or null when it was dropped. */
export type DiscordPost = { build: (mode: "webhook" | "bot") => string; username: string | null; replyTo: string | null; origin: string };

export type RouterDeps = {
  /** The relay connections held now, in the order they were started (the first of a planet and channel relays). */
  links: ReadonlyMap<string, RoutedHeld>;
  post(channelId: string, post: DiscordPost): Promise<string | null>;
  mapMax: number;
  now?: () => number;
};

/** A Discord message relayed to Galaxy (edits, deletes and reply context need it). */
type ToGalaxy = { channelId: string; author: string; text: string; context: string | null };
/** A Galaxy line posted on Discord (a Discord reply to it addresses its sender on Galaxy). */
type FromGalaxy = { channelId: string; fromId: string; nick: string; text: string; planet: string | null };

export type RelayRouter = ReturnType<typeof createRelayRouter>;

export function createRelayRouter({ links, post, mapMax, now = Date.now }: RouterDeps) {
  const toGalaxy = new BoundedMap<string, ToGalaxy>(mapMax);
  const fromGalaxy = new BoundedMap<string, FromGalaxy>(mapMax);
  /** `${channelId}:${galaxyId}` → that Galaxy user's latest post on Discord. */
  const lastPost = new BoundedMap<string, string>(mapMax);
  /** A relay account → the Discord message it said last on its planet. */
  const lastSaid = new Map<string, { messageId: string; at: number }>();

  const galaxyName = (h: RoutedHeld, nick: string) => renderName(h.filter.options.galaxyName, { nick, planet: h.link.planet, channel: h.row.channelName });

  /** Every relay connection of a channel that takes lines from this author and text. */
  function* linksFor(channelId: string, author: string, text: string) {
    for (const h of links.values()) {
      if (h.row.channelId !== channelId || h.filter.ignoresNick(author) || h.filter.ignoresText(text)) continue;
      yield h;
    }
  }

  return {
    /** Discord → Galaxy: a new message. */
    discordMessage(msg: DiscordMessage): void {
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
        lastSaid.set(h.row.accountId, { messageId: msg.messageId, at: now() });
      }
    },

    /** Discord → Galaxy: an edit (matterbridge: a corrected line with " (edited)"; one still queued is simply replaced). */
    discordEdit(msg: DiscordMessage): void {
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

    /** Discord → Galaxy: a delete. Galaxy cannot withdraw a line: lines still queued are taken back; one said less than a minute ago is noted. */
    discordDelete({ channelId, messageId }: { channelId: string; messageId: string }): void {
      const gone = toGalaxy.get(messageId);
      if (!gone) return;
      toGalaxy.delete(messageId);
      for (const h of links.values()) {
        if (h.row.channelId !== channelId) continue;
        const { saidAt } = h.link.withdraw(messageId);
        if (saidAt !== null && now() - saidAt < DELETE_NOTE_WINDOW_MS) h.link.say(discordToGalaxy(galaxyName(h, gone.author), deletedNote(gone.text)));
      }
    },

    /** Galaxy → Discord: a line heard by the connection of `accountId` (`link`: the one that heard it). */
    galaxyChat(accountId: string, link: RoutedLink, chat: GalaxyChatLine): void {
      const h = links.get(accountId);
      if (h?.link !== link) return; // a connection already replaced or stopped
      const row = h.row;
      // Loop prevention: never lines said by our own relay accounts.
      if (links.has(chat.fromId)) return;
      // Several of our accounts on one planet relaying to one channel: only the first relays.
      for (const [id, other] of links) {
        if (other.link === link) break;
        if (other.row.channelId === row.channelId && other.link.planet === link.planet && other.link.connected && id !== accountId) return;
      }
      if (h.filter.ignoresNick(chat.nick) || h.filter.ignoresText(chat.text)) return;
      const name = renderName(h.filter.options.discordName, { nick: chat.nick, planet: link.planet, channel: row.channelName });
      // Addressed to someone ("Nick, text"): a Discord reply to what they said last here, when known; else the
      // text as it is, no ping (allowedMentions parse nothing).
      let text = chat.text;
      let replyTo: string | null = null;
      if (chat.toId !== "0") {
        const said = lastSaid.get(chat.toId);
        const ours = links.get(chat.toId);
        const theirs = lastPost.get(`${row.channelId}:${chat.toId}`);
        if (ours && said && now() - said.at < REPLY_TO_RELAYED_MS && ours.row.channelId === row.channelId) {
          replyTo = said.messageId;
          text = stripAddress(text, ours.row.nick);
        } else if (theirs) {
          replyTo = theirs;
          text = stripAddress(text, fromGalaxy.get(theirs)?.nick ?? "");
        }
      }
      const out = { ...chat, nick: name, text };
      const planet = link.planet;
      void post(row.channelId, { build: (mode) => galaxyToDiscord(out, mode), username: webhookUsername(name), replyTo, origin: accountId }).then((id) => {
        if (!id) return;
        fromGalaxy.set(id, { channelId: row.channelId, fromId: chat.fromId, nick: chat.nick, text: chat.text, planet });
        lastPost.set(`${row.channelId}:${chat.fromId}`, id);
      });
    },
  };
}

/** "Nick, text" (Galaxy's addressing convention) → "text". */
function stripAddress(text: string, nick: string): string {
  return nick && text.startsWith(`${nick}, `) ? text.slice(nick.length + 2) : text;
}
