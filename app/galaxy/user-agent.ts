/**
 * The user-agent record of a game account (spec 1 §3: headers, sek, device, id, nick) and its
 * pure rules: what iHeaders may hold, the device, the record made of an input. The HTTP services
 * client builds each account's X-Galaxy-* headers from a record; where records are stored is
 * the registry model's (app/models/user-agent.server.ts), handed to the client as its
 * `userAgents` source (app/platform/galaxy-services.server.ts).
 */

export type UserAgentRecord = {
  id: string;
  nick: string | null;
  headers: Record<string, string>;
  /** The Android device token, decrypted; null for web accounts. Never log or return it to a browser. */
  sek: string | null;
  device: string;
};

export type UserAgentInput = {
  headers?: unknown;
  sek?: string | null;
  device?: string | null;
  id?: string | number | null;
  nick?: string | null;
};

export class UserAgentError extends Error {}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Request headers from an account's iHeaders: an object or its JSON text.
 * Returns null when there are none (missing, empty text); throws UserAgentError when the
 * text is not JSON or not an object. Names that are not valid HTTP tokens and values with
 * line breaks are dropped, so nothing stored can split a request.
 */
export function parseHeaders(input: unknown): Record<string, string> | null {
  if (input === undefined || input === null) return null;
  let value = input;
  if (typeof value === "string") {
    if (value.trim() === "") return null;
    try {
      value = JSON.parse(value);
    } catch {
      throw new UserAgentError("iHeaders is not valid JSON");
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UserAgentError("iHeaders must be a JSON object of header names to values");
  }
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (!TOKEN.test(name)) continue;
    if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") continue;
    const text = String(v);
    if (/[\r\n\0]/.test(text)) continue;
    out[name] = text;
  }
  return out;
}

/** Reads a header case-insensitively. */
export function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** Spec 2 §2: Android when the account has a sek, otherwise the platform header, default web. */
export function deviceOf(headers: Record<string, string>, sek: string | null, device?: string | null): string {
  if (sek) return "android";
  const d = device?.trim() || headerValue(headers, "X-Galaxy-Platform")?.trim();
  return d ? d.toLowerCase() : "web";
}

/** One account's record from its input; throws UserAgentError for unusable input (no or unparsable iHeaders). */
export function normalizeUserAgent(accountId: string, input: UserAgentInput): UserAgentRecord {
  const headers = parseHeaders(input.headers);
  if (!headers) throw new UserAgentError("no iHeaders");
  const sek = typeof input.sek === "string" && input.sek.trim() !== "" ? input.sek.trim() : null;
  return {
    id: accountId,
    nick: typeof input.nick === "string" && input.nick !== "" ? input.nick : null,
    headers,
    sek,
    device: deviceOf(headers, sek, input.device),
  };
}

/** Where the services client reads an account's record (null: none registered). */
export type UserAgentSource = (accountId: string) => Promise<UserAgentRecord | null>;
