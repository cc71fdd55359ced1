/**
 * The Galaxy (Mobstudio) chat server's text line protocol: parsing and formatting lines,
 * the HAAAPSI auth code, the user records of 353/JOIN, and 850 notice chunks.
 *
 * Facts come from docs/galaxy-protocol.md (which cites the reference notes); this module has
 * no I/O, so both the client (connection.server.ts) and the simulator (sim/) share it.
 */
import crypto from "node:crypto";

/** A line did not have the shape the protocol requires. Session code reports it as an error. */
export class ProtocolError extends Error {
  override name = "ProtocolError";
  constructor(
    message: string,
    /** The offending line with secrets masked, safe to show and log. */
    readonly line?: string,
  ) {
    super(message);
  }
}

export type GalaxyLine = {
  /** The line as received, without CRLF and trailing spaces. */
  raw: string;
  /** Text after the leading `:` up to the first space (`srv`, `en`, a nick), or null. */
  prefix: string | null;
  command: string;
  /** Space-separated params before the trailing part. */
  params: string[];
  /** Everything after the first ` :`, or null when the line has none. */
  trailing: string | null;
};

const COMMAND = /^[A-Za-z0-9_]+$/;

/** Commands whose params carry credentials: masked wherever a line is shown. */
const SECRET_COMMANDS = new Set(["USER", "RECOVER", "REGISTER", "HISTORY"]);

/** The line with credential-carrying params masked (for errors, logs and the simulator's history). */
export function maskLine(raw: string): string {
  const m = /^(:\S+\s+)?(\S+)/.exec(raw);
  if (!m) return raw.slice(0, 200);
  const command = m[2].toUpperCase();
  if (!SECRET_COMMANDS.has(command)) return raw.length > 300 ? `${raw.slice(0, 300)}…` : raw;
  return `${m[0]} [redacted]`;
}

/**
 * Parses one line: `[:prefix ]COMMAND param ... [ :trailing]`. The prefix runs to the first
 * space; the trailing part starts at the first `:` that follows a space (reference §2).
 * Throws ProtocolError for a line that has no command or a command with odd characters.
 */
export function parseLine(input: string): GalaxyLine {
  const raw = input.replace(/[\r\n]+$/, "").replace(/ +$/, "");
  if (raw.includes("\0") || /[\r\n]/.test(raw)) throw new ProtocolError("Malformed line: control characters", maskLine(raw));
  let rest = raw;
  let prefix: string | null = null;
  if (rest.startsWith(":")) {
    const space = rest.indexOf(" ");
    if (space < 0) throw new ProtocolError("Malformed line: prefix without a command", maskLine(raw));
    prefix = rest.slice(1, space);
    rest = rest.slice(space + 1).trimStart();
  }
  let trailing: string | null = null;
  const colon = rest.startsWith(":") ? 0 : rest.indexOf(" :");
  if (colon === 0) throw new ProtocolError("Malformed line: no command", maskLine(raw));
  if (colon > 0) {
    trailing = rest.slice(colon + 2);
    rest = rest.slice(0, colon);
  }
  const parts = rest.split(/\s+/).filter(Boolean);
  const command = parts.shift();
  if (!command) throw new ProtocolError("Malformed line: no command", maskLine(raw));
  if (!COMMAND.test(command)) throw new ProtocolError(`Malformed line: bad command "${command.slice(0, 20)}"`, maskLine(raw));
  return { raw, prefix, command: command.toUpperCase(), params: parts, trailing };
}

/** Params followed by the trailing part split on whitespace: for lines whose trailing is data. */
export function lineTokens(line: GalaxyLine): string[] {
  return line.trailing === null ? [...line.params] : [...line.params, ...line.trailing.split(/\s+/).filter(Boolean)];
}

/**
 * Splits one WebSocket frame into lines. Every line should end in CRLF, but a frame that does
 * not is complete anyway (the official client does the same), bare LF is accepted, and spaces
 * before the line end are dropped (bots send `text + " \r\n"`).
 */
export function splitFrame(frame: string): string[] {
  return frame
    .split(/\r?\n/)
    .map((l) => l.replace(/[ \r]+$/, ""))
    .filter((l) => l.length > 0);
}

export type FormatInput = { prefix?: string | null; command: string; params?: (string | number)[]; trailing?: string | null };

/**
 * Formats one line with its CRLF. Params may not hold spaces (they would shift every later
 * param) and nothing may hold CR/LF (that would smuggle a second command), so both throw.
 */
export function formatLine(input: FormatInput): string;
export function formatLine(command: string, params?: (string | number)[], trailing?: string | null): string;
export function formatLine(a: string | FormatInput, params: (string | number)[] = [], trailing: string | null = null): string {
  const line: FormatInput = typeof a === "string" ? { command: a, params, trailing } : a;
  if (!COMMAND.test(line.command)) throw new ProtocolError(`Invalid command "${line.command}"`);
  const out: string[] = [];
  if (line.prefix) {
    if (/[\s:]/.test(line.prefix)) throw new ProtocolError("Invalid prefix");
    out.push(`:${line.prefix}`);
  }
  out.push(line.command);
  for (const p of line.params ?? []) {
    const s = String(p);
    if (s === "" || /[\s\0]/.test(s) || s.startsWith(":")) throw new ProtocolError(`Invalid parameter for ${line.command}`);
    out.push(s);
  }
  if (line.trailing !== null && line.trailing !== undefined) {
    if (/[\r\n\0]/.test(line.trailing)) throw new ProtocolError(`Invalid text for ${line.command}`);
    out.push(`:${line.trailing}`);
  }
  return `${out.join(" ")}\r\n`;
}

// ---------------------------------------------------------------------------------------------
// Auth codes (reference §3.2, §3.4)

/**
 * The web client's auth code for a HAAAPSI seed: MD5 hex of the seed, reversed, a `0` put
 * between adjacent characters, then 10 characters from index 5. In closed form that is
 * `0 h28 0 h27 0 h26 0 h25 0 h24` of the unreversed hex.
 */
export function authCode(seed: string): string {
  const h = crypto.createHash("md5").update(seed, "utf8").digest("hex");
  return `0${h[28]}0${h[27]}0${h[26]}0${h[25]}0${h[24]}`;
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const NATIVE_INIT = 8167260239830188032n;
const NATIVE_TS = 94736404n;
const NATIVE_KEY = "5itndg36hj";
const i64 = (v: bigint) => BigInt.asIntN(64, v);
const i32 = (v: bigint) => Number(BigInt.asIntN(32, v));

/**
 * The native (TLS, IDENT 355 -1) client's auth code, as the reference describes one client's
 * source (§3.4, single source, never checked against a server). Only the simulator uses it,
 * so such clients can be tried against it; our own client is a web client and uses authCode.
 */
export function nativeAuthCode(seed: string): string {
  let acc = i64(508n ^ NATIVE_INIT);
  for (let i = 0; i < seed.length; i++) acc = i64(acc + BigInt(seed.charCodeAt(i)) * NATIVE_INIT);
  let n9 = acc;
  let mul = 1n;
  for (let k = 9; k >= 0; k--) {
    n9 = i64(n9 + BigInt(ALPHABET.indexOf(NATIVE_KEY[k]) + 1) * mul + NATIVE_TS);
    mul = i64(mul * 63n);
  }
  const v: number[] = new Array(10);
  v[0] = i32((2n * n9 + NATIVE_TS) * n9);
  for (let l = 1; l < 10; l++) v[l] = i32((BigInt(l) + n9 + BigInt(v[l - 1])) * n9);
  let c = 1;
  for (let j = 0; j < 40; j++) {
    const p = j % 10;
    const q = Math.abs(((Math.imul(v[p], j) + v[p]) | 0) % 10);
    const kp = NATIVE_KEY.charCodeAt(p);
    const kq = NATIVE_KEY.charCodeAt(q);
    if (Math.abs(kp - kq) > 36) {
      const mid = Math.floor((p + q) / 2);
      v[mid] = (v[mid] + 1) | 0;
      v[p] = (v[p] + kq) | 0;
      v[q] = (v[q] + kp) | 0;
      c = (c + 1) | 0;
    }
  }
  let out = "";
  for (let k = 0; k < 10; k++) {
    let t = (v[k] + (NATIVE_KEY.charCodeAt(k) | c)) | 0;
    t = i32(10n + n9 + BigInt(t));
    c = (c + t) | 0;
    t = (t + Number(NATIVE_TS)) | 0;
    out += ALPHABET[Math.abs(t % 62)];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Typed readers for the lines the client acts on. Each throws ProtocolError on a bad shape.

function need(line: GalaxyLine, ok: boolean, what: string): asserts ok {
  if (!ok) throw new ProtocolError(`Malformed ${line.command} line: ${what}`, maskLine(line.raw));
}

const INT = /^-?\d+$/;
const ID = /^\d+$/;

/** `HAAAPSI <seed> <n>`: the login seed. */
/**
 * `:<nick> PRISON <actorGender> :<reason>` (reference §4; a public bot detects it by
 * `params[1] === "0"` counting the command): we were imprisoned. The line goes only to the one
 * imprisoned, so it names no target; the prefix is who did it and the gender picks the
 * he/she wording of the official client's "<nick> kicked you out: <reason>".
 */
export function readPrison(line: GalaxyLine): { by: string | null; actorGender: string | null; reason: string } {
  return { by: line.prefix, actorGender: line.params[0] ?? null, reason: line.trailing ?? "" };
}

export function readHaaapsi(line: GalaxyLine): { seed: string } {
  const seed = line.params[0] ?? line.trailing ?? "";
  need(line, /^\S+$/.test(seed), "no seed");
  return { seed };
}

/** `REGISTER <id> <password> <nick>`; the nick may arrive as the trailing part. */
export function readRegister(line: GalaxyLine): { id: string; password: string; nick: string } {
  const [id, password, nickParam] = line.params;
  const nick = nickParam ?? line.trailing ?? "";
  need(line, !!id && ID.test(id), "bad id");
  need(line, !!password, "no password");
  need(line, nick.length > 0, "no nick");
  return { id, password, nick };
}

export type PlanetInfo = { name: string; capacity: number; closed: boolean; mode: number | null };

/** `900 <planet> <capacity> <closed> [<mode>]`: the planet the user is now on. */
export function readPlanetInfo(line: GalaxyLine): PlanetInfo {
  const t = lineTokens(line);
  const [name, capacity, closed, mode] = t;
  need(line, !!name, "no planet");
  need(line, capacity === undefined || INT.test(capacity), "bad capacity");
  return {
    name,
    capacity: capacity === undefined ? 0 : Number(capacity),
    closed: closed !== undefined && closed !== "0",
    mode: mode !== undefined && INT.test(mode) ? Number(mode) : null,
  };
}

export type ViewGroup = { url: string; dx: string; dy: string; anchor: string; extra: string };

export type PlanetUser = {
  id: string;
  /** The nick without its role mark. */
  nick: string;
  clan: string | null;
  /** `@` marks the planet owner, `+` an operator/star. */
  role: "owner" | "operator" | null;
  /** Only JOIN lines carry it. */
  gender: number | null;
  views: ViewGroup[];
  /** Position as sent (x/2) and in pixels. */
  position: number;
  x: number;
};

function takeNick(raw: string): { nick: string; role: PlanetUser["role"] } {
  if (raw.length > 1 && raw[0] === "@") return { nick: raw.slice(1), role: "owner" };
  if (raw.length > 1 && raw[0] === "+") return { nick: raw.slice(1), role: "operator" };
  return { nick: raw, role: null };
}

/**
 * Reads one user record from `tokens` at `start`:
 * `<clan or -> <nick> <id> [<gender>] <N> <5·|N| view tokens> <x/2>` (reference §5.1).
 * Returns the record and the index after it.
 */
function readRecord(tokens: string[], start: number, withGender: boolean, line: GalaxyLine): { user: PlanetUser; next: number } {
  let i = start;
  const clan = tokens[i++];
  const rawNick = tokens[i++];
  const id = tokens[i++];
  need(line, clan !== undefined && rawNick !== undefined && id !== undefined, "truncated user record");
  need(line, ID.test(id), `bad user id "${id.slice(0, 20)}"`);
  let gender: number | null = null;
  if (withGender) {
    const g = tokens[i++];
    need(line, g !== undefined && INT.test(g), "bad gender");
    gender = Number(g);
  }
  const n = tokens[i++];
  need(line, n !== undefined && INT.test(n), "bad view count");
  const groups = Math.abs(Number(n));
  need(line, groups <= 64, "too many view groups");
  const views: ViewGroup[] = [];
  for (let g = 0; g < groups; g++) {
    const v = tokens.slice(i, i + 5);
    need(line, v.length === 5, "truncated view group");
    views.push({ url: v[0], dx: v[1], dy: v[2], anchor: v[3], extra: v[4] });
    i += 5;
  }
  const pos = tokens[i++];
  need(line, pos !== undefined && INT.test(pos), "bad position");
  const { nick, role } = takeNick(rawNick);
  return {
    user: { id, nick, clan: clan === "-" ? null : clan, role, gender, views, position: Number(pos), x: Number(pos) * 2 },
    next: i,
  };
}

/** `353 <n> = <planet> :<records>`: users on the planet (may come in several lines). */
export function readNames(line: GalaxyLine): { planet: string; users: PlanetUser[] } {
  const planet = line.params[2] ?? "";
  need(line, planet.length > 0, "no planet");
  const tokens = (line.trailing ?? "").split(/\s+/).filter(Boolean);
  const users: PlanetUser[] = [];
  for (let i = 0; i < tokens.length;) {
    const { user, next } = readRecord(tokens, i, false, line);
    users.push(user);
    i = next;
  }
  return { planet, users };
}

/** Server `JOIN <clan> <nick> <id> <gender> <N> <views> <x/2> <c1> <c2> <c3>`: a user arrived. */
export function readJoin(line: GalaxyLine): { user: PlanetUser; teleport: string[] } {
  const tokens = lineTokens(line);
  const { user, next } = readRecord(tokens, 0, true, line);
  return { user, teleport: tokens.slice(next, next + 3) };
}

/** `PART <id> ...` and `SLEEP <id>`: a user left the planet. */
export function readLeave(line: GalaxyLine): { id: string } {
  const id = lineTokens(line)[0] ?? "";
  need(line, ID.test(id), "bad user id");
  return { id };
}

/** `REMOVE <id> <x/2>`: a user moved. */
export function readMove(line: GalaxyLine): { id: string; position: number } {
  const [id, pos] = lineTokens(line);
  need(line, !!id && ID.test(id), "bad user id");
  need(line, !!pos && INT.test(pos), "bad position");
  return { id, position: Number(pos) };
}

export type Notice = { id: string | null; title: string | null; html: string };

/**
 * Assembles `850 [<msgId> <final>] :<html>` server notices: long ones arrive in chunks with
 * the same msgId until final = 1 (reference §4). Bounded so a server that never finishes a
 * notice cannot grow memory without limit.
 */
export class NoticeAssembler {
  #parts = new Map<string, { title: string | null; html: string }>();
  constructor(
    private readonly maxPending = 32,
    private readonly maxLength = 256 * 1024,
  ) {}

  push(line: GalaxyLine): Notice | null {
    const [msgId, final] = line.params;
    const html = line.trailing ?? "";
    if (msgId === undefined) return { id: null, title: line.prefix, html };
    const prev = this.#parts.get(msgId);
    const next = { title: prev?.title ?? line.prefix, html: (prev?.html ?? "") + html };
    this.#parts.delete(msgId);
    if (final === "1") return { id: msgId, title: next.title, html: next.html };
    if (next.html.length > this.maxLength) throw new ProtocolError("Notice too long", maskLine(line.raw));
    this.#parts.set(msgId, next);
    while (this.#parts.size > this.maxPending) this.#parts.delete(this.#parts.keys().next().value!);
    return null;
  }

  get pending() {
    return this.#parts.size;
  }
}

// ---------------------------------------------------------------------------------------------
// What the official web client sends about itself (reference §3.1, §7.1).

export const WEB_CLIENT = {
  /** IDENT client code and X-Galaxy-Kbv of the web client. */
  clientCode: 352,
  /** The fields after the client code, identical in every web client. */
  identTail: ["-2", "4030", "1", "2"] as const,
  identName: "GALA",
  version: "9.5",
  width: 700,
  height: 675,
  model: "chrome 137.0.0.0",
  userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Safari/537.36",
} as const;

/** IDENT client codes seen in public clients (reference §3.1); the simulator accepts these. */
export const KNOWN_CLIENT_CODES = [352, 350, 312, 323, 186, 355] as const;

/** The request headers the official web client sends to the HTTP services (reference §7.1). */
export function webClientHeaders(locale = "en"): Record<string, string> {
  return {
    "X-Galaxy-Kbv": String(WEB_CLIENT.clientCode),
    "X-Galaxy-Platform": "web",
    "X-Galaxy-Scr-W": String(WEB_CLIENT.width),
    "X-Galaxy-Scr-H": String(WEB_CLIENT.height),
    "X-Galaxy-Lng": locale,
    "X-Galaxy-Client-Ver": WEB_CLIENT.version,
    "X-Galaxy-Model": WEB_CLIENT.model,
    "X-Galaxy-User-Agent": WEB_CLIENT.userAgent,
    "X-Galaxy-Scr-Dpi": "1",
    "X-Galaxy-Os-Ver": "1",
    "X-Galaxy-Orientation": "portrait",
  };
}
