/**
 * Per-connection relay options applied (issue 22 B.5; docs/galacord.md "Relay options"), as
 * matterbridge's RemoteNickFormat, IgnoreNicks and IgnoreMessages. Pure functions.
 */
import { DEFAULT_RELAY_OPTIONS, type RelayOptions } from "#api/galacord";

export type NameVars = { nick: string; planet: string | null; channel: string };

/** `{nick}`, `{planet}`, `{channel}` filled in (a missing planet is empty), whitespace squeezed. */
export function renderName(template: string, vars: NameVars): string {
  const out = template.replace(/\{(nick|planet|channel)\}/g, (_, k: keyof NameVars) => vars[k] ?? "");
  return out.replace(/\s+/g, " ").trim() || vars.nick;
}

export type RelayFilter = {
  options: RelayOptions;
  /** True when lines from this nick / author are not relayed. */
  ignoresNick(nick: string): boolean;
  /** True when this text is not relayed. */
  ignoresText(text: string): boolean;
};

/** Compiles a connection's options once (the holder keeps it while the row is unchanged). */
export function relayFilter(partial: Partial<RelayOptions> | null | undefined): RelayFilter {
  const options = { ...DEFAULT_RELAY_OPTIONS, ...partial };
  const nicks = new Set(options.ignoreNicks.map((n) => n.toLowerCase()));
  let pattern: RegExp | null = null;
  try {
    pattern = options.ignoreMessages ? new RegExp(options.ignoreMessages, "u") : null;
  } catch {
    pattern = null; // validated when saved; a bad one stored by hand filters nothing
  }
  return {
    options,
    ignoresNick: (nick) => nicks.has(nick.trim().toLowerCase()),
    ignoresText: (text) => (pattern ? pattern.test(text) : false),
  };
}
