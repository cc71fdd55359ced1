/**
 * Relay text formats (docs/galacord.md; galaxy-runtime.md §5.3 [D]). Pure functions.
 *
 * Galaxy → Discord: the sender's nick and text. With a channel webhook the nick is the
 * webhook username and the text the content; as a bot message `**nick**: text`. Lines from
 * `srv`/`adv` are shown as `*text*`. HTML entities the platform sends are decoded.
 *
 * Discord → Galaxy: `author: text`, mentions and custom emoji turned into text, newlines
 * flattened, cut into lines of at most 200 characters (each line keeps the `author: ` prefix).
 */

/** The platform's chat line limit (WEB config, galaxy-runtime.md §5.1). */
export const GALAXY_LINE_MAX = 200;
/** Discord's content limit. */
export const DISCORD_CONTENT_MAX = 2000;

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Escapes Discord markdown in a nick so `**nick**` stays bold and nothing else happens. */
export function escapeMarkdown(text: string): string {
  return text.replace(/([\\*_~`|>])/g, "\\$1");
}

/** A Discord webhook username: 1–80 characters, not "discord", "clyde", "everyone" or "here" (Discord refuses them). */
export function webhookUsername(nick: string): string | null {
  const name = nick.trim().slice(0, 80);
  if (!name || /discord|clyde/i.test(name) || /^(everyone|here)$/i.test(name)) return null;
  return name;
}

export type GalaxyChat = { nick: string; text: string; system: boolean };

/** What the Discord message says (content for a webhook post, or the whole bot message). */
export function galaxyToDiscord(chat: GalaxyChat, mode: "webhook" | "bot"): string {
  const text = decodeEntities(chat.text);
  const body = chat.system ? `*${text}*` : text;
  const content = mode === "webhook" ? body : `**${escapeMarkdown(chat.nick)}**: ${body}`;
  return content.slice(0, DISCORD_CONTENT_MAX);
}

/** Custom emoji `<:name:id>` / `<a:name:id>` → `:name:`. */
export function emojiToText(text: string): string {
  return text.replace(/<a?:([A-Za-z0-9_~]+):\d+>/g, ":$1:");
}

/** Mentions cleanContent could not resolve (uncached users, roles, channels) → plain text, never a ping syntax. */
export function mentionsToText(text: string): string {
  return text
    .replace(/<@!?\d+>/g, "@user")
    .replace(/<@&\d+>/g, "@role")
    .replace(/<#\d+>/g, "#channel")
    .replace(/<t:(\d+)(?::[tTdDfFR])?>/g, (_, s: string) => new Date(Number(s) * 1000).toISOString());
}

/** `author: text` split into lines of at most `max` characters, newlines flattened. */
export function discordToGalaxy(author: string, content: string, max = GALAXY_LINE_MAX): string[] {
  const name =
    author
      .replace(/[\r\n]+/g, " ")
      .trim()
      .slice(0, 40) || "someone";
  const flat = mentionsToText(emojiToText(content))
    .replace(/\s*[\r\n]+\s*/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!flat) return [];
  const prefix = `${name}: `;
  const room = Math.max(20, max - prefix.length);
  const chars = Array.from(flat);
  const lines: string[] = [];
  let i = 0;
  while (i < chars.length) {
    let end = Math.min(chars.length, i + room);
    if (end < chars.length) {
      // Prefer a break at a space in the last third of the piece.
      const space = chars.lastIndexOf(" ", end);
      if (space > i + Math.floor(room / 3)) end = space;
    }
    const piece = chars.slice(i, end).join("").trim();
    if (piece) lines.push(prefix + piece);
    i = end;
    while (chars[i] === " ") i++;
  }
  return lines;
}

/** The first words of a text, at most `max` characters, "…" when cut (a reply's context). */
export function excerpt(text: string, max = 30): string {
  const flat = mentionsToText(emojiToText(text)).replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 3 ? cut.slice(0, space) : cut).trim()}…`;
}

/** A Discord reply's context on Galaxy (issue 22 B.3): `↪ @nick "first words…"`. */
export function replyContext(nick: string, text: string): string {
  const words = excerpt(text);
  return words ? `↪ @${nick} "${words}"` : `↪ @${nick}`;
}

/** A deleted Discord message noted on Galaxy (it cannot withdraw a line; issue 22 B.2). */
export function deletedNote(text: string): string {
  return `(deleted) "${excerpt(text)}"`;
}

/** Suffix of an edit relayed to Galaxy (matterbridge's EditSuffix). */
export const EDIT_SUFFIX = " (edited)";
