import { asc, eq } from "drizzle-orm";
import {
  DEFAULT_RELAY_OPTIONS,
  RELAY_ERRORS,
  relayAccountState,
  type AccountState,
  type BotState,
  type BotStatus,
  type Channel,
  type Connection,
  type RelayOptions,
  type SavedAccount,
} from "#api/galacord";
import { relayOptionsSchema } from "#api/galacord-schemas";
import type { SessionView } from "#api/sessions";
import { publishLive } from "~/queue/live.server";
import { sendSessionControl } from "~/queue/session-control.server";
import { getDb } from "~/db/client.server";
import { galacordAccounts, galacordBot } from "~/db/schema";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";
import {
  accountLabel,
  AccountHeldError,
  deleteSession,
  getSession,
  idleSession,
  runSessionCommand,
  sessionMap,
  settleHostedSessions,
  startSession,
  stopSession,
} from "./session.server";
import { AppError } from "~/utils/app-error";

/**
 * GalaCord as the UI and /api see it (spec 2 §3/§4/§7 "Relay bot"; docs/galacord.md). ONE
 * session on the session host (purpose `relay`, key "bot") holds the discord.js Client and
 * every Galaxy relay connection (jobs/processors/relay.ts); each saved account's relay
 * connection is a session of its own (purpose `relay-link`) held inside it. What the operator
 * wants and what is live in the sessions table (docs/sessions.md); this module keeps what
 * GalaCord itself needs: the channels the bot sees, the saved accounts with their channel,
 * saved planet and encrypted credentials. Changes reach the holder over the control channel.
 */

export const RELAY_SESSION_ID = "bot";

type BotRow = typeof galacordBot.$inferSelect;
type AccountRow = typeof galacordAccounts.$inferSelect;

/** The bot row; a default (no channels) when there is none yet. Reading never writes. */
async function botRow(): Promise<BotRow> {
  const db = await getDb();
  const [row] = await db.select().from(galacordBot).where(eq(galacordBot.id, 1)).limit(1);
  return row ?? { id: 1, channels: [], botUserId: null, updatedAt: new Date(0) };
}

async function botSession(): Promise<SessionView> {
  return (await getSession("relay", RELAY_SESSION_ID)) ?? idleSession("relay", RELAY_SESSION_ID, null);
}

export function botState(s: Pick<SessionView, "desired" | "actual"> & Partial<Pick<SessionView, "phase">>): BotState {
  // Issue 29: up only while a live worker holds it (`phase` joins the holder's beat).
  if (s.actual === "failed") return "error";
  if (s.desired !== "run" || s.actual === "stopped") return "stopped";
  const phase = s.phase ?? s.actual;
  if (phase === "waiting" || phase === "retrying") return phase;
  return phase === "active" ? "running" : "starting";
}

export function accountState(s: Pick<SessionView, "desired" | "actual"> & Partial<Pick<SessionView, "phase">>): AccountState {
  return relayAccountState(s);
}

function toSaved(row: AccountRow, session: SessionView | undefined): SavedAccount {
  const s = session ?? idleSession("relay-link", row.accountId);
  const state = accountState(s);
  return {
    accountId: row.accountId,
    nick: row.nick,
    planet: row.planet,
    channelId: row.channelId,
    channelName: row.channelName,
    guildName: row.guildName,
    guildId: row.guildId,
    isConnected: state === "connected",
    state,
    desired: s.desired === "run" ? "connected" : "disconnected",
    error: s.actual === "failed" ? s.error : null,
    session: s,
    options: relayOptions(row),
  };
}

/** A row's relay options with the defaults filled in. */
export function relayOptions(row: Pick<AccountRow, "relayOptions">): RelayOptions {
  return { ...DEFAULT_RELAY_OPTIONS, ...row.relayOptions };
}

export async function getBotStatus(): Promise<BotStatus> {
  const session = await botSession();
  const state = botState(session);
  const links = state === "running" ? [...(await sessionMap("relay-link")).values()] : [];
  return {
    isRunning: state === "running",
    error: state === "error" ? session.error : null,
    connectedChannels: links.filter((l) => accountState(l) === "connected").length,
    state,
    stateText: state === "running" ? "Running" : state === "stopped" ? "Stopped" : state === "starting" ? "Starting" : session.status,
    session,
  };
}

export async function listSavedAccounts(): Promise<SavedAccount[]> {
  const db = await getDb();
  const rows = await db.select().from(galacordAccounts).orderBy(asc(galacordAccounts.createdAt), asc(galacordAccounts.accountId));
  const links = await sessionMap("relay-link");
  return rows.map((r) => toSaved(r, links.get(r.accountId)));
}

export async function getSavedAccount(accountId: string): Promise<SavedAccount | null> {
  const db = await getDb();
  const [row] = await db.select().from(galacordAccounts).where(eq(galacordAccounts.accountId, accountId)).limit(1);
  return row ? toSaved(row, (await getSession("relay-link", accountId)) ?? undefined) : null;
}

/** GET /api/bot/connections: the accounts meant to be connected, with whether they are. */
export async function listConnections(): Promise<Connection[]> {
  return (await listSavedAccounts())
    .filter((a) => a.desired === "connected")
    .map((a) => ({ accountId: a.accountId, nick: a.nick, planet: a.planet, channelName: a.channelName, isConnected: a.isConnected }));
}

/** GET /api/bot/channels: the text channels the bot saw at its last clientReady, grouped by server order. */
export async function listChannels(): Promise<Channel[]> {
  return (await botRow()).channels;
}

/** The channel of a connect: one the bot saw at its last clientReady, else 404. */
export async function requireChannel(channelId: string): Promise<Channel> {
  const channel = (await listChannels()).find((c) => c.id === channelId);
  if (!channel) throw new AppError(404, RELAY_ERRORS.channelNotFound, { field: "channelId" });
  return channel;
}

async function requireAccount(accountId: string): Promise<AccountRow> {
  const db = await getDb();
  const [row] = await db.select().from(galacordAccounts).where(eq(galacordAccounts.accountId, accountId)).limit(1);
  if (!row) throw new AppError(404, RELAY_ERRORS.accountNotFound);
  return row;
}

/** Tells the bot's holder to look at its rows now (best effort: it also polls). */
async function wakeRelay(accountId: string): Promise<void> {
  await sendSessionControl("relay-link", accountId, "wake");
}

/** A saved account's relay connection should run: "connecting" while the bot runs, else waiting for it ("stopped"). */
async function startLink(accountId: string, opts: { takeover?: boolean; accountName: string }) {
  const running = botState(await botSession()) !== "stopped";
  const result = await startSession("relay-link", accountId, {
    accountName: opts.accountName,
    takeover: opts.takeover,
    hosted: false,
    initial: running ? "connecting" : "stopped",
    note: running ? null : "The GalaCord bot is stopped: Start it to connect",
  });
  await wakeRelay(accountId);
  return result;
}

// --- operator actions -------------------------------------------------------------------

/** POST /api/bot/start: the bot should run (a fresh start clears the last error); the session host runs it. */
export async function startBot(): Promise<BotStatus> {
  const db = await getDb();
  await db.insert(galacordBot).values({ id: 1 }).onConflictDoNothing();
  await startSession("relay", RELAY_SESSION_ID, { accountId: null });
  return getBotStatus();
}

/** POST /api/bot/stop: stopped at once; the holder logs out of Discord and Galaxy (its relay connections show offline). */
export async function stopBot(): Promise<BotStatus> {
  await stopSession("relay", RELAY_SESSION_ID);
  await settleHostedSessions("relay-link", "The GalaCord bot is stopped");
  return getBotStatus();
}

/**
 * Saves an account a recovery-code sign-in just learned (POST /api/bot/connect-new,
 * app/platform/galacord-connect.server.ts): code and password encrypted, wanting to be
 * connected; the holder opens the relay connection. An account another purpose took between
 * the sign-in and now keeps nothing (AccountHeldError 409).
 */
export async function saveNewAccount(
  info: { id: string; password: string; nick: string },
  input: { channel: Channel; recoveryCode: string; takeover?: boolean | undefined },
): Promise<SavedAccount> {
  const { channel } = input;
  const db = await getDb();
  const now = new Date();
  await db.insert(galacordAccounts).values({
    accountId: info.id,
    nick: info.nick,
    planet: null,
    channelId: channel.id,
    channelName: channel.name,
    guildName: channel.guildName,
    guildId: channel.guildId,
    recoveryCode: encryptSecret(input.recoveryCode),
    password: encryptSecret(info.password),
    createdAt: now,
    updatedAt: now,
  });
  try {
    await startLink(info.id, { takeover: input.takeover, accountName: accountLabel(info.id, info.nick) });
  } catch (err) {
    // Taken by another purpose between the sign-in and now: nothing is kept.
    if (err instanceof AccountHeldError) await db.delete(galacordAccounts).where(eq(galacordAccounts.accountId, info.id));
    throw err;
  }
  publishLive("galacord");
  return (await getSavedAccount(info.id))!;
}

/** POST /api/bot/connect {accountId, channelId}: (re)connects a saved account to a channel. AccountHeldError 409 unless `takeover`. */
export async function connectAccount(accountId: string, channelId: string, opts: { takeover?: boolean } = {}): Promise<SavedAccount> {
  const row = await requireAccount(accountId);
  const channel = await requireChannel(channelId);
  await startLink(accountId, { takeover: opts.takeover, accountName: accountLabel(accountId, row.nick) });
  const db = await getDb();
  await db
    .update(galacordAccounts)
    .set({ channelId: channel.id, channelName: channel.name, guildName: channel.guildName, guildId: channel.guildId, updatedAt: new Date() })
    .where(eq(galacordAccounts.accountId, accountId));
  await wakeRelay(accountId);
  publishLive("galacord");
  return (await getSavedAccount(accountId))!;
}

/** POST /api/bot/stop-connection/{accountId}: disconnects (QUIT :ds by the holder); the account stays saved. */
export async function stopConnection(accountId: string): Promise<SavedAccount> {
  await requireAccount(accountId);
  await stopSession("relay-link", accountId);
  return (await getSavedAccount(accountId))!;
}

/** POST /api/bot/update-channel/{accountId} {channelId}: a connected account is disconnected and reconnected (spec 2 §4). */
export async function updateChannel(accountId: string, channelId: string): Promise<SavedAccount> {
  await requireAccount(accountId);
  const channel = await requireChannel(channelId);
  const db = await getDb();
  await db
    .update(galacordAccounts)
    .set({ channelId: channel.id, channelName: channel.name, guildName: channel.guildName, guildId: channel.guildId, updatedAt: new Date() })
    .where(eq(galacordAccounts.accountId, accountId));
  await wakeRelay(accountId);
  publishLive("galacord");
  return (await getSavedAccount(accountId))!;
}

/**
 * Saves a connection's relay options (issue 22 B.5; docs/galacord.md "Relay options"): validated
 * (templates, list and length limits, the regex must compile; 400 with the reason, nothing saved).
 * The holder reads them on its next reconcile (woken now): no reconnect.
 */
export async function saveRelayOptions(accountId: string, input: unknown): Promise<SavedAccount> {
  await requireAccount(accountId);
  const parsed = relayOptionsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    // The field it is about, so the form shows the reason next to it (issue 30 A6).
    throw new AppError(400, issue?.message ?? RELAY_ERRORS.saveOptions, { field: issue?.path[0] === undefined ? undefined : String(issue.path[0]) });
  }
  const db = await getDb();
  await db.update(galacordAccounts).set({ relayOptions: parsed.data, updatedAt: new Date() }).where(eq(galacordAccounts.accountId, accountId));
  await wakeRelay(accountId);
  publishLive("galacord");
  return (await getSavedAccount(accountId))!;
}

/** DELETE /api/bot/connection/{accountId}: the row goes (its code with it); the holder disconnects. */
export async function deleteAccount(accountId: string): Promise<void> {
  await requireAccount(accountId);
  const db = await getDb();
  await db.delete(galacordAccounts).where(eq(galacordAccounts.accountId, accountId));
  await deleteSession("relay-link", accountId);
  await wakeRelay(accountId);
  publishLive("galacord");
}

/**
 * POST /api/bot/planet/{accountId} {planet}: 409 "Not connected to Galaxy" unless the relay
 * connection is up (an unknown account included); else a command its holder runs (JOIN),
 * waited for up to `waitMs`. Join failures come back with the platform's reason (409).
 */
export async function changePlanet(accountId: string, planet: string, waitMs = 20_000): Promise<string> {
  const account = await getSavedAccount(accountId);
  // An account we do not hold is not connected either (spec 2 §4: "Not connected to Galaxy").
  if (!account || account.state !== "connected" || botState(await botSession()) !== "running") throw new AppError(409, RELAY_ERRORS.notConnected);
  return String(await runSessionCommand("relay-link", accountId, "planet", planet, { waitMs, timeoutText: RELAY_ERRORS.planetTimeout }));
}

// --- read and written by the holder (jobs/processors/relay.ts) ------------------------------

export type RelayAccountRow = AccountRow & { recoveryCodePlain: string; passwordPlain: string | null };

export async function readBotRow(): Promise<BotRow> {
  return botRow();
}

/** The accounts the holder should have a relay connection for (wanted and not failed), with their credentials (server side only). */
export async function accountsToRelay(): Promise<RelayAccountRow[]> {
  const db = await getDb();
  const links = await sessionMap("relay-link");
  const rows = await db.select().from(galacordAccounts);
  return rows
    .filter((r) => {
      const s = links.get(r.accountId);
      return s?.desired === "run" && s.actual !== "failed";
    })
    .map((r) => ({ ...r, recoveryCodePlain: decryptSecret(r.recoveryCode), passwordPlain: r.password ? decryptSecret(r.password) : null }));
}

/** What the bot learnt at clientReady: the channels it sees and its own user id. */
export async function saveBotInfo(update: Partial<Pick<BotRow, "channels" | "botUserId">>): Promise<void> {
  const db = await getDb();
  await db
    .insert(galacordBot)
    .values({ id: 1, ...update, updatedAt: new Date() })
    .onConflictDoUpdate({ target: galacordBot.id, set: { ...update, updatedAt: new Date() } });
  publishLive("galacord");
}

/** A relay connection's new password (REGISTER after a 451 fallback) or its planet once joined: kept across errors and restarts. */
export async function saveLinkAccount(accountId: string, update: { password?: string; planet?: string }): Promise<void> {
  const db = await getDb();
  const set: Partial<typeof galacordAccounts.$inferInsert> = { updatedAt: new Date() };
  if (update.password !== undefined) set.password = encryptSecret(update.password);
  if (update.planet !== undefined) set.planet = update.planet;
  await db.update(galacordAccounts).set(set).where(eq(galacordAccounts.accountId, accountId));
  if (update.planet !== undefined) publishLive("galacord");
}
