import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { RELAY_ERRORS, type BotStatus, type Channel, type Connection, type SavedAccount } from "#api/galacord";
import { jobEngineOffline } from "#jobs/queues.server";
import { producerConnection, queuePrefix } from "#jobs/redis.server";
import { registerDesiredLookup, registerDesiredReader, requestSession, sessionEngineReady, signalStop } from "#jobs/session-host.server";
import { getDb } from "~/db/client.server";
import { galacordAccounts, galacordBot, galacordCommands } from "~/db/schema";
import { GalaxyError, type GalaxyConnectionOptions } from "~/galaxy/connection.server";
import { createGalaxyConnection } from "~/galaxy/connection-deps.server";
import { decryptSecret, encryptSecret } from "~/utils/secrets.server";
import { toUserError } from "./create-creds.server";
import { UserError } from "./user.server";

/**
 * GalaCord state as the UI and /api see it (spec 2 §3/§4/§7 "Relay bot"; docs/galacord.md).
 * ONE relay session on the session host (purpose `relay`, pseudo-account "bot", job
 * `relay-bot`) holds the discord.js Client and every Galaxy relay connection
 * (jobs/processors/relay.ts). The web process only writes what the operator wants
 * (`desired`, channel, commands) and nudges the holder over Redis; the holder writes back
 * what is (`state`, `error`, `planet`, command results).
 */

export const RELAY_SESSION_ID = "bot";
export const nudgeChannel = () => `${queuePrefix()}:relay:nudge`;

type BotRow = typeof galacordBot.$inferSelect;
type AccountRow = typeof galacordAccounts.$inferSelect;

/** The bot row; a default (stopped, never started) when there is none yet. Reading never writes. */
async function botRow(): Promise<BotRow> {
  const db = await getDb();
  const [row] = await db.select().from(galacordBot).where(eq(galacordBot.id, 1)).limit(1);
  if (row) return row;
  const now = new Date(0);
  return { id: 1, desired: "stopped", state: "stopped", error: null, channels: [], botUserId: null, worker: null, since: now, updatedAt: now };
}

function toSaved(row: AccountRow): SavedAccount {
  return {
    accountId: row.accountId,
    nick: row.nick,
    planet: row.planet,
    channelId: row.channelId,
    channelName: row.channelName,
    guildName: row.guildName,
    guildId: row.guildId,
    isConnected: row.state === "connected",
    state: row.state,
    desired: row.desired,
    error: row.error,
  };
}

export async function getBotStatus(): Promise<BotStatus> {
  const row = await botRow();
  const db = await getDb();
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(galacordAccounts)
    .where(and(eq(galacordAccounts.state, "connected"), eq(galacordAccounts.desired, "connected")));
  const running = row.desired === "running" && row.state === "running";
  return { isRunning: running, error: row.state === "error" ? row.error : null, connectedChannels: running ? n : 0, state: row.state };
}

export async function listSavedAccounts(): Promise<SavedAccount[]> {
  const db = await getDb();
  return (await db.select().from(galacordAccounts).orderBy(asc(galacordAccounts.createdAt), asc(galacordAccounts.accountId))).map(toSaved);
}

export async function getSavedAccount(accountId: string): Promise<SavedAccount | null> {
  const db = await getDb();
  const [row] = await db.select().from(galacordAccounts).where(eq(galacordAccounts.accountId, accountId)).limit(1);
  return row ? toSaved(row) : null;
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

async function requireChannel(channelId: string): Promise<Channel> {
  const channel = (await listChannels()).find((c) => c.id === channelId);
  if (!channel) throw new UserError(404, RELAY_ERRORS.channelNotFound);
  return channel;
}

async function requireAccount(accountId: string): Promise<AccountRow> {
  const db = await getDb();
  const [row] = await db.select().from(galacordAccounts).where(eq(galacordAccounts.accountId, accountId)).limit(1);
  if (!row) throw new UserError(404, RELAY_ERRORS.accountNotFound);
  return row;
}

/** Tells the holder to look at the rows now (best effort: it also polls). */
export async function nudgeRelay(): Promise<void> {
  try {
    await producerConnection().publish(nudgeChannel(), "1");
  } catch {
    // Redis away: the holder's poll picks the change up.
  }
}

// --- operator actions -------------------------------------------------------------------

/** POST /api/bot/start: desired running, a fresh start (clears the last error); the session host runs it. */
export async function startBot(): Promise<BotStatus> {
  if (!(await sessionEngineReady())) throw jobEngineOffline();
  const before = await botRow();
  const db = await getDb();
  await db.insert(galacordBot).values({ id: 1 }).onConflictDoNothing();
  if (before.desired !== "running" || before.state === "error" || before.state === "stopped") {
    await db
      .update(galacordBot)
      .set({ desired: "running", state: "starting", error: null, since: new Date(), updatedAt: new Date() })
      .where(eq(galacordBot.id, 1));
  }
  try {
    await requestSession("relay", RELAY_SESSION_ID, "start");
  } catch (err) {
    await db.update(galacordBot).set({ desired: before.desired, state: before.state, error: before.error, updatedAt: new Date() }).where(eq(galacordBot.id, 1));
    throw err;
  }
  return getBotStatus();
}

/** POST /api/bot/stop: desired stopped, shown stopped at once; the holder logs out of Discord and Galaxy. */
export async function stopBot(): Promise<BotStatus> {
  await botRow();
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(galacordBot)
      .set({
        desired: "stopped",
        state: sql`case when ${galacordBot.state} = 'error' then 'error' else 'stopped' end`,
        since: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(galacordBot.id, 1));
    await tx
      .update(galacordAccounts)
      .set({ state: "offline", updatedAt: new Date() })
      .where(inArray(galacordAccounts.state, ["connecting", "connected"]));
  });
  await signalStop("relay", RELAY_SESSION_ID);
  return getBotStatus();
}

/**
 * POST /api/bot/connect-new {channelId, recoveryCode}: logs in to Galaxy with the code (and
 * out again) to learn the account, then saves it (code and password encrypted) wanting to be
 * connected; the holder opens the relay connection. Login refusals answer the platform's text.
 */
export async function connectNew(
  input: { channelId: string; recoveryCode: string },
  tuning: Pick<GalaxyConnectionOptions, "loginTimeoutMs" | "connectTimeoutMs" | "retries" | "retryDelayMs"> = {},
): Promise<SavedAccount> {
  const channel = await requireChannel(input.channelId);
  const connection = createGalaxyConnection({ credentials: { recoveryCode: input.recoveryCode }, joinOnConnect: false, ...tuning });
  let info: { id: string; password: string; nick: string };
  try {
    info = await connection.connect();
  } catch (err) {
    await connection.close().catch(() => {});
    throw toUserError(err instanceof GalaxyError ? err : err);
  }
  await connection.close().catch(() => {});
  const db = await getDb();
  const now = new Date();
  const values = {
    nick: info.nick,
    channelId: channel.id,
    channelName: channel.name,
    guildName: channel.guildName,
    guildId: channel.guildId,
    recoveryCode: encryptSecret(input.recoveryCode),
    password: encryptSecret(info.password),
    desired: "connected" as const,
    state: "offline" as const,
    error: null,
    updatedAt: now,
  };
  await db
    .insert(galacordAccounts)
    .values({ accountId: info.id, planet: null, createdAt: now, ...values })
    .onConflictDoUpdate({ target: galacordAccounts.accountId, set: values });
  await nudgeRelay();
  return (await getSavedAccount(info.id))!;
}

/** POST /api/bot/connect {accountId, channelId}: (re)connects a saved account to a channel. */
export async function connectAccount(accountId: string, channelId: string): Promise<SavedAccount> {
  await requireAccount(accountId);
  const channel = await requireChannel(channelId);
  const db = await getDb();
  await db
    .update(galacordAccounts)
    .set({
      channelId: channel.id,
      channelName: channel.name,
      guildName: channel.guildName,
      guildId: channel.guildId,
      desired: "connected",
      state: sql`case when ${galacordAccounts.state} = 'error' then 'offline' else ${galacordAccounts.state} end`,
      error: null,
      updatedAt: new Date(),
    })
    .where(eq(galacordAccounts.accountId, accountId));
  await nudgeRelay();
  return (await getSavedAccount(accountId))!;
}

/** POST /api/bot/stop-connection/{accountId}: disconnects (QUIT :ds by the holder); the account stays saved. */
export async function stopConnection(accountId: string): Promise<SavedAccount> {
  await requireAccount(accountId);
  const db = await getDb();
  await db
    .update(galacordAccounts)
    .set({ desired: "disconnected", state: "offline", error: null, updatedAt: new Date() })
    .where(eq(galacordAccounts.accountId, accountId));
  await nudgeRelay();
  return (await getSavedAccount(accountId))!;
}

/** POST /api/bot/update-channel/{accountId} {channelId}: a connected account is disconnected and reconnected (spec 2 §4). */
export async function updateChannel(accountId: string, channelId: string): Promise<SavedAccount> {
  const row = await requireAccount(accountId);
  const channel = await requireChannel(channelId);
  const db = await getDb();
  const reconnect = row.desired === "connected" && row.channelId !== channel.id;
  await db
    .update(galacordAccounts)
    .set({
      channelId: channel.id,
      channelName: channel.name,
      guildName: channel.guildName,
      guildId: channel.guildId,
      ...(reconnect && row.state === "connected" ? { state: "connecting" as const } : {}),
      updatedAt: new Date(),
    })
    .where(eq(galacordAccounts.accountId, accountId));
  await nudgeRelay();
  return (await getSavedAccount(accountId))!;
}

/** DELETE /api/bot/connection/{accountId}: the row goes (its code with it); the holder disconnects. */
export async function deleteAccount(accountId: string): Promise<void> {
  await requireAccount(accountId);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(galacordCommands).where(eq(galacordCommands.accountId, accountId));
    await tx.delete(galacordAccounts).where(eq(galacordAccounts.accountId, accountId));
  });
  await nudgeRelay();
}

/**
 * POST /api/bot/planet/{accountId} {planet}: 409 "Not connected to Galaxy" unless the holder
 * reports the account connected (an unknown account included); else a command row the holder runs (JOIN), waited for up to
 * `waitMs`. Join failures come back with the platform's reason (UserError 409).
 */
export async function changePlanet(accountId: string, planet: string, waitMs = 20_000): Promise<string> {
  const db = await getDb();
  const [row] = await db.select().from(galacordAccounts).where(eq(galacordAccounts.accountId, accountId)).limit(1);
  // An account we do not hold is not connected either (spec 2 §4: "Not connected to Galaxy").
  if (!row) throw new UserError(409, RELAY_ERRORS.notConnected);
  const bot = await botRow();
  if (row.state !== "connected" || row.desired !== "connected" || bot.desired !== "running") throw new UserError(409, RELAY_ERRORS.notConnected);
  const [cmd] = await db.insert(galacordCommands).values({ accountId, kind: "planet", arg: planet }).returning({ id: galacordCommands.id });
  await nudgeRelay();
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    const [now] = await db.select().from(galacordCommands).where(eq(galacordCommands.id, cmd.id)).limit(1);
    if (!now) throw new UserError(404, RELAY_ERRORS.accountNotFound);
    if (now.status === "done") return now.message ?? planet;
    if (now.status === "failed") throw new UserError(409, now.message ?? RELAY_ERRORS.changePlanet);
  }
  await db
    .update(galacordCommands)
    .set({ status: "failed", message: RELAY_ERRORS.planetTimeout, doneAt: new Date() })
    .where(and(eq(galacordCommands.id, cmd.id), eq(galacordCommands.status, "pending")));
  throw new UserError(504, RELAY_ERRORS.planetTimeout);
}

// --- written by the holder (jobs/processors/relay.ts) ---------------------------------------

export type RelayAccountRow = AccountRow & { recoveryCodePlain: string; passwordPlain: string | null };

export async function readBotRow(): Promise<BotRow> {
  return botRow();
}

/** The accounts the holder should have a connection for, with their credentials (server side only). */
export async function accountsToRelay(): Promise<RelayAccountRow[]> {
  const db = await getDb();
  const rows = await db.select().from(galacordAccounts).where(eq(galacordAccounts.desired, "connected"));
  return rows.map((r) => ({ ...r, recoveryCodePlain: decryptSecret(r.recoveryCode), passwordPlain: r.password ? decryptSecret(r.password) : null }));
}

export async function reportBot(update: Partial<Pick<BotRow, "state" | "error" | "channels" | "botUserId" | "worker">>): Promise<void> {
  const db = await getDb();
  const set: Partial<typeof galacordBot.$inferInsert> = { ...update, updatedAt: new Date() };
  if (update.state) set.since = sql`case when ${galacordBot.state} = ${update.state} then ${galacordBot.since} else now() end` as unknown as Date;
  // A stopping holder may not overwrite a new Start, nor a running holder a Stop.
  const where =
    update.state === "stopped"
      ? and(eq(galacordBot.id, 1), eq(galacordBot.desired, "stopped"))
      : update.state && update.state !== "error"
        ? and(eq(galacordBot.id, 1), eq(galacordBot.desired, "running"))
        : eq(galacordBot.id, 1);
  await db.update(galacordBot).set(set).where(where);
}

/** A fatal bot error (token refused, disallowed intents): desired stopped, "Bot Error" with the text. */
export async function failBot(error: string): Promise<void> {
  const db = await getDb();
  await db
    .update(galacordBot)
    .set({ desired: "stopped", state: "error", error, worker: null, since: new Date(), updatedAt: new Date() })
    .where(eq(galacordBot.id, 1));
}

/** The holder reports one account (only while it is still wanted connected). */
export async function reportAccount(
  accountId: string,
  update: Partial<Pick<AccountRow, "state" | "error" | "planet" | "nick">> & { password?: string },
): Promise<void> {
  const db = await getDb();
  const { password, ...rest } = update;
  const set: Partial<typeof galacordAccounts.$inferInsert> = { ...rest, updatedAt: new Date() };
  if (password !== undefined) set.password = encryptSecret(password);
  await db
    .update(galacordAccounts)
    .set(set)
    .where(and(eq(galacordAccounts.accountId, accountId), eq(galacordAccounts.desired, "connected")));
}

/** Every account shown offline (the holder ends: stop, fatal error). */
export async function markAllOffline(): Promise<void> {
  const db = await getDb();
  await db
    .update(galacordAccounts)
    .set({ state: "offline", updatedAt: new Date() })
    .where(inArray(galacordAccounts.state, ["connecting", "connected"]));
}

export async function pendingCommands() {
  const db = await getDb();
  // Commands older than a minute were given up by their caller.
  await db
    .update(galacordCommands)
    .set({ status: "failed", message: RELAY_ERRORS.planetTimeout, doneAt: new Date() })
    .where(and(eq(galacordCommands.status, "pending"), lt(galacordCommands.createdAt, new Date(Date.now() - 60_000))));
  return db.select().from(galacordCommands).where(eq(galacordCommands.status, "pending")).orderBy(asc(galacordCommands.id));
}

/** Claims a pending command (so two passes never run it twice). */
export async function claimCommand(id: number): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .update(galacordCommands)
    .set({ status: "pending", message: "running" })
    .where(and(eq(galacordCommands.id, id), eq(galacordCommands.status, "pending"), sql`${galacordCommands.message} is null`))
    .returning({ id: galacordCommands.id });
  return rows.length > 0;
}

export async function finishCommand(id: number, ok: boolean, message: string): Promise<void> {
  const db = await getDb();
  await db
    .update(galacordCommands)
    .set({ status: ok ? "done" : "failed", message, doneAt: new Date() })
    .where(eq(galacordCommands.id, id));
}

async function relaySessionIds(): Promise<string[]> {
  return (await botRow()).desired === "running" ? [RELAY_SESSION_ID] : [];
}

async function relayDesired(ids: string[]): Promise<Map<string, "started" | "stopped">> {
  const running = (await botRow()).desired === "running";
  return new Map(ids.map((id) => [id, id === RELAY_SESSION_ID && running ? "started" : "stopped"]));
}

registerDesiredReader("relay", relaySessionIds);
registerDesiredLookup("relay", relayDesired);
