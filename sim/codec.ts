/**
 * The simulator's own line codec, written from the reference notes (galaxy-platform.md §2),
 * not shared with the client's parser (app/galaxy/protocol.ts): a bug in one of them shows up
 * as a disagreement in sim/codec.test.ts, which round-trips the recorded real server lines
 * (tests/fixtures/galaxy-real-lines.ts) through both.
 *
 * §2: frames carry one or more CRLF-ended lines (a frame that does not end in CRLF is
 * complete anyway; trailing spaces are trimmed, bots send `text + " \r\n"`); a line is
 * `[:prefix ]COMMAND param param ... [ :trailing]`, the prefix running to the first space and
 * the trailing part starting at the first `:` that follows a space.
 */

export type SimLine = {
  prefix: string | null;
  command: string;
  params: string[];
  trailing: string | null;
};

/** Splits a received frame into its lines (CRLF or bare LF), without line ends or trailing spaces. */
export function simSplit(frame: string): string[] {
  const out: string[] = [];
  for (const piece of frame.split("\n")) {
    let line = piece;
    while (line.endsWith("\r") || line.endsWith(" ")) line = line.slice(0, -1);
    if (line) out.push(line);
  }
  return out;
}

/** Parses one line; null when it has no command or the command is not a word (counted as malformed). */
export function simParse(line: string): SimLine | null {
  if (/[\0\r\n]/.test(line)) return null;
  let rest = line;
  let prefix: string | null = null;
  if (rest[0] === ":") {
    const sp = rest.indexOf(" ");
    if (sp < 0) return null;
    prefix = rest.slice(1, sp);
    rest = rest.slice(sp + 1);
  }
  rest = rest.replace(/^ +/, "");
  let trailing: string | null = null;
  const at = rest.indexOf(" :");
  if (rest[0] === ":") return null;
  if (at >= 0) {
    trailing = rest.slice(at + 2);
    rest = rest.slice(0, at);
  }
  const words = rest.split(" ").filter((w) => w !== "");
  const command = words.shift();
  if (!command || !/^[A-Za-z0-9_]+$/.test(command)) return null;
  return { prefix, command: command.toUpperCase(), params: words, trailing };
}

/**
 * Formats one line with its CRLF. A param with a space or a leading `:` or any CR/LF would
 * change the line's meaning, so it throws (a simulator bug, not something to send).
 */
export function simFormat(command: string, params: (string | number)[] = [], trailing: string | null = null, prefix: string | null = null): string {
  const parts: string[] = [];
  if (prefix !== null && prefix !== "") {
    if (/[ :\r\n]/.test(prefix)) throw new Error(`sim: bad prefix ${JSON.stringify(prefix)}`);
    parts.push(`:${prefix}`);
  }
  if (!/^[A-Za-z0-9_]+$/.test(command)) throw new Error(`sim: bad command ${JSON.stringify(command)}`);
  parts.push(command);
  for (const p of params) {
    const s = String(p);
    if (s === "" || /[ \r\n\0]/.test(s) || s[0] === ":") throw new Error(`sim: bad param ${JSON.stringify(s)} for ${command}`);
    parts.push(s);
  }
  if (trailing !== null) {
    if (/[\r\n\0]/.test(trailing)) throw new Error(`sim: bad text for ${command}`);
    parts.push(`:${trailing}`);
  }
  return `${parts.join(" ")}\r\n`;
}

/** Commands whose params are credentials: never kept in the simulator's history as sent. */
const SECRET = new Set(["USER", "RECOVER", "REGISTER", "HISTORY"]);

/** The line with credentials masked, for the simulator's received-lines history and warnings. */
export function simMask(line: string): string {
  const m = /^(:\S+ +)?(\S+)/.exec(line);
  if (!m) return line.slice(0, 200);
  if (SECRET.has(m[2].toUpperCase())) return `${m[0]} [redacted]`;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
