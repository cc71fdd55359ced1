/**
 * The /api contract of GalaCord, the Galaxy ↔ Discord relay bot (spec 2 §3 "Relay bot", §7
 * "Relay bot", §8 "Relay bot"). Client-safe: types, zod schemas and texts shared by the
 * resource routes and the screen.
 *
 *   GET    /api/bot/status                       → { isRunning, error, connectedChannels, state }
 *   GET    /api/bot/connections                  → { connections: Connection[] }
 *   GET    /api/bot/channels                     → { channels: Channel[] }
 *   GET    /api/gala-cord-accounts               → SavedAccount[]            (error field on failure)
 *   POST   /api/bot/start | /api/bot/stop        → { success, message, status, ...status }   (no body, a blank one or {})
 *   POST   /api/bot/stop-connection/{accountId}  → { success, account }
 *   POST   /api/bot/connect {accountId, channelId, takeover?}        → { success, account }
 *   POST   /api/bot/connect-new {channelId, recoveryCode, takeover?} → { success, account }
 *          (409 { error, holder } when another purpose holds the account; 409 when it is saved already)
 *   POST   /api/bot/update-channel/{accountId} {channelId} → { success, account }
 *   POST   /api/bot/planet/{accountId} {planet}  → { success, planet }  (409 "Not connected to Galaxy")
 *   DELETE /api/bot/connection/{accountId}       → { success }
 *
 * Errors `{ error, message }` (same text), the §8 defaults when nothing more precise is known.
 */
import { PLANET_NAME_RULE } from "./planet-name";
import type { SessionView } from "./sessions";

/** `waiting`: no live worker holds the bot (its worker lost, none running, all full); `retrying`: backing off before the next login. */
export type BotState = "stopped" | "starting" | "waiting" | "retrying" | "running" | "error";
export type BotStatus = {
  /** Spec 2 §7: running means the bot is wanted and logged in to Discord. */
  isRunning: boolean;
  /** The bot's own error (shown as "Bot Error" with this text), null when none. */
  error: string | null;
  /** Active (connected) relay connections. */
  connectedChannels: number;
  /** Finer state, one per badge (issue 29): starting = login under way. */
  state: BotState;
  /** The same words every screen shows for it ("Running", "Worker lost · waiting for a worker", …). */
  stateText: string;
  /** The bot's session (api/sessions.ts): reason, attempt, next retry, holder. */
  session: SessionView;
};

export type AccountState = "offline" | "connecting" | "connected" | "error";

/**
 * A relay connection's state from its session (issue 29: up only while a live worker holds it).
 * Client-safe: the model answers it, and the page applies it to a session's live event (issue 30 A3).
 */
export function relayAccountState(s: { desired: string; actual: string; phase?: string }): AccountState {
  if (s.actual === "failed") return "error";
  if (s.desired !== "run" || s.actual === "stopped") return "offline";
  return (s.phase ?? s.actual) === "active" ? "connected" : "connecting";
}

/** Spec 2 §3 "Connection". */
export type Connection = { accountId: string; nick: string; planet: string | null; channelName: string; isConnected: boolean };

/** Spec 2 §3 "Saved account" plus what the screen shows (state, error, desired). Never the recovery code. */
export type SavedAccount = {
  accountId: string;
  nick: string;
  planet: string | null;
  channelId: string;
  channelName: string;
  guildName: string;
  guildId: string | null;
  isConnected: boolean;
  state: AccountState;
  desired: "connected" | "disconnected";
  error: string | null;
  /** The relay connection's session (api/sessions.ts): reason, attempt, next retry, a takeover note; `info.queued` the backlog. */
  session: SessionView;
  /** Per-connection relay options (issue 22 B.5; docs/galacord.md "Relay options"). */
  options: RelayOptions;
};

/**
 * Per-connection relay options, as matterbridge's RemoteNickFormat, IgnoreNicks and
 * IgnoreMessages (discord-local-simulator.md §4): how a sender is named on the other side
 * (`{nick}`, `{planet}`, `{channel}`), whose lines are not relayed, and which texts are not.
 */
export type RelayOptions = {
  /** The name a Galaxy sender gets on Discord (webhook username, or the bold name of a bot message). */
  discordName: string;
  /** The name a Discord author gets on Galaxy (before ": "). */
  galaxyName: string;
  /** Nicks (Galaxy) and names (Discord: server nickname, global name or username) never relayed, case-insensitive. */
  ignoreNicks: string[];
  /** A JavaScript regular expression: texts it matches are not relayed either way ("" = none). */
  ignoreMessages: string;
};

export const DEFAULT_RELAY_OPTIONS: RelayOptions = { discordName: "{nick}", galaxyName: "{nick}", ignoreNicks: [], ignoreMessages: "" };

/** Limits of the relay options (validated on the screen's form and wherever they are saved). */
export const RELAY_OPTION_LIMITS = { nameTemplate: 64, ignoreNicks: 50, nick: 40, pattern: 200 } as const;

/** Spec 2 §3 "Channel". */
export type Channel = { id: string; name: string; guildId: string; guildName: string };

/** Spec 2 §8 "Relay bot" defaults, plus our own texts. */
export const RELAY_ERRORS = {
  fetchStatus: "Failed to fetch bot status",
  fetchAccounts: "Failed to fetch saved accounts",
  controlBot: "Failed to control bot",
  disconnectAccount: "Failed to disconnect account",
  createConnection: "Failed to create connection",
  updateChannel: "Failed to update channel",
  changePlanet: "Failed to change planet",
  deleteAccount: "Failed to delete account",
  botError: "Bot Error",
  notConnected: "Not connected to Galaxy",
  // Ours.
  accountNotFound: "Account not found",
  channelNotFound: "Channel not found: start the bot to load its channels, then pick one of them",
  channelRequired: "Please choose a channel",
  recoveryCodeRequired: "Please enter a recovery code",
  planetRequired: "Please choose a planet",
  planetInvalid: PLANET_NAME_RULE,
  planetTimeout: "Failed to change planet: the relay did not answer in time",
  saveOptions: "Failed to save relay options",
  nameTemplate: "A name template is 1 to 64 characters and may use {nick}, {planet} and {channel} only",
  ignoreNicks: "Ignore nicks: at most 50, each at most 40 characters",
  ignoreMessages: (why: string) => `Ignore messages: not a valid regular expression (${why})`,
  ignoreMessagesLength: "Ignore messages: at most 200 characters",
  noToken: "DISCORD_TOKEN is not set: the bot cannot log in to Discord",
  alreadySaved: (account: string, channel: string) => `Account ${account} is already saved, relaying to #${channel}: use Change Channel to move it`,
} as const;

export const RELAY_MESSAGES = {
  started: "Bot started",
  stopped: "Bot stopped",
  connected: "Connection created",
  reconnecting: "Connecting",
  disconnected: "Account disconnected",
  channelUpdated: "Channel updated",
  planetChanged: "Planet changed",
  deleted: "Account deleted",
  optionsSaved: "Relay options saved",
} as const;

/** Spec 2 §2 Change Planet options (a swap-offer text, a trade-swap text with parentheses, and 50; docs/galacord.md [D]). */
export const PLANET_OPTIONS = ["Swap_Offers", "Trade(Swap)", "50"] as const;

/** Spec 2 §9 "Bot status poll". */
export const BOT_STATUS_POLL_MS = 5_000;
