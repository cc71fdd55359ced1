/**
 * The zod schemas of the /api answers (issue 33): what each route sends, as the route
 * registrations (`openapi` in each api.*.ts route module) publish it in /api/openapi.json.
 * Each one is tied to the TypeScript type the route's answer is built as (`satisfies
 * z.ZodType<T>`), so a type that changes without its schema fails the typecheck, and
 * tests/openapi/contract.test.ts holds the real answers to them with ajv.
 */
import { z } from "zod";
import type { Category, PublicUser } from "./accounts";
import type { AuditEntryDto, AuditListDto } from "./audit";
import type { BowlingCandidate, BowlingUsersResponse, Companion, DeleteCompanionsResponse, LastFetchedResponse } from "./bowling";
import type { CollectionStatusResponse, InventoryResponse, MasticRunResponse, SendGiftsResponse } from "./collections";
import type { BotStatus, Channel, Connection, RelayOptions, SavedAccount } from "./galacord";
import type { CollectionItemDto, GiftStatsResponse, StatusResponse, UserAgentResponse, UserPicResponse, UserPicsResponse } from "./galaxy";
import type { HealthResponse, HealthWorker, ProbeResponse } from "./jobs";
import type { LogDto } from "./logs";
import type { RateData, RatesMap } from "./rates";
import { HOSTED_PURPOSES, type SessionView } from "./sessions";
import type { StalkerActiveResponse, StalkerSessionStatus } from "./stalker";
import type { DailyTotal } from "./summary";
import type { Ad, CustomPlanet, PlanetSequence, TraderStatus } from "./trading";

const iso = z.string().describe("ISO 8601 time");

// Shared ------------------------------------------------------------------------------------

export const successSchema = z.object({ success: z.literal(true) });
export const successMessageSchema = z.object({ success: z.literal(true), message: z.string() });

export const sessionViewSchema = z.object({
  purpose: z.enum([...HOSTED_PURPOSES, "relay-link"]),
  key: z.string(),
  accountId: z.string().nullable(),
  desired: z.enum(["run", "stop"]),
  actual: z.enum(["waiting", "connecting", "active", "reconnecting", "stopped", "failed"]),
  since: iso,
  error: z.string().nullable(),
  note: z.string().nullable(),
  attempt: z.number().int(),
  nextRetryAt: iso.nullable(),
  holder: z.string().nullable(),
  holderAlive: z.boolean().nullable(),
  planet: z.string().nullable(),
  info: z.record(z.string(), z.unknown()),
  phase: z.enum(["waiting", "connecting", "active", "retrying", "stopped", "failed"]),
  status: z.string().describe("The phase in words, as every screen shows it"),
}) satisfies z.ZodType<SessionView>;

// Exchange rates ------------------------------------------------------------------------------

const rateValue = z.union([z.string(), z.number()]);
export const rateDataSchema = z.object({
  _id: z.string(),
  rate: rateValue.optional(),
  rates: z.array(z.object({ quantity: z.number(), rate: rateValue })).optional(),
  status: z.boolean(),
}) satisfies z.ZodType<RateData>;
export const ratesMapSchema = z
  .record(z.string(), z.record(z.string(), rateDataSchema))
  .describe("input gift → output gift → rate data, in first-creation order") satisfies z.ZodType<RatesMap>;
export const rateSavedSchema = z.object({ success: z.literal(true), data: rateDataSchema });
export const countSchema = z.object({ success: z.literal(true), count: z.number().int() });

// Characters ----------------------------------------------------------------------------------

export const publicUserSchema = z.object({
  _id: z.string(),
  account_id: z.string(),
  nick: z.string(),
  type: z.string().nullable(),
  device: z.string(),
}) satisfies z.ZodType<PublicUser>;
export const categorySchema = z.object({ _id: z.string(), value: z.string() }) satisfies z.ZodType<Category>;
export const stalkerSchema = sessionViewSchema.extend({
  state: z.enum(["inactive", "connecting", "active", "error"]),
}) satisfies z.ZodType<StalkerSessionStatus>;
export const stalkerActiveSchema = z.object({ connections: z.array(z.string()) }) satisfies z.ZodType<StalkerActiveResponse>;

// Bowling -------------------------------------------------------------------------------------

const candidate = z.object({ _id: z.string(), account_id: z.string(), nick: z.string() }) satisfies z.ZodType<BowlingCandidate>;
export const bowlingUsersSchema = z.object({
  users: z.array(publicUserSchema),
  recipients: z.array(candidate),
  suppliers: z.array(candidate),
}) satisfies z.ZodType<BowlingUsersResponse>;
export const companionSchema = z.object({ _id: z.string(), bowling_id: z.string(), supplier: z.string(), consumer: z.string() }) satisfies z.ZodType<Companion>;
export const deleteCompanionsSchema = z.object({ message: z.string(), deletedCount: z.number().int() }) satisfies z.ZodType<DeleteCompanionsResponse>;
export const lastFetchedSchema = z.object({ lastFetched: iso.nullable() }) satisfies z.ZodType<LastFetchedResponse>;

// Galaxy user details -------------------------------------------------------------------------

const collectionItem = z.object({
  imageUrl: z.string(),
  count: z.string(),
  goodsID: z.number().nullable(),
  index: z.number().nullable(),
}) satisfies z.ZodType<CollectionItemDto>;
const collectionRows = z.object({ firstRow: z.array(collectionItem), secondRow: z.array(collectionItem) });
export const giftStatsSchema = z.object({
  stats: z.array(z.object({ type: z.number(), name: z.string(), img: z.string(), amount: z.number() })),
}) satisfies z.ZodType<GiftStatsResponse>;
export const userPicSchema = z.object({ picUrl: z.string().nullable() }) satisfies z.ZodType<UserPicResponse>;
export const onlineStatusSchema = z.object({ isOnline: z.boolean(), room: z.string().nullable() }) satisfies z.ZodType<StatusResponse>;
export const collectionStatsSchema = z.object({ stats: collectionRows });
export const userPicsSchema = z.object({ pics: z.record(z.string(), z.string().nullable()) }) satisfies z.ZodType<UserPicsResponse>;
export const userAgentSchema = z.object({
  success: z.literal(true),
  registered: z.array(z.string()),
  skipped: z.array(z.object({ id: z.string(), reason: z.string() })),
}) satisfies z.ZodType<UserAgentResponse>;

// Collections ---------------------------------------------------------------------------------

export const masticRunResultSchema = z.object({
  success: z.literal(true),
  collectionId: z.number(),
  requested: z.number(),
  succeeded: z.number(),
  message: z.string(),
}) satisfies z.ZodType<MasticRunResponse>;
export const inventoryResultSchema = z.object({ giftIds: z.array(z.string()) }) satisfies z.ZodType<InventoryResponse>;
export const sendGiftsResultSchema = z.object({
  success: z.literal(true),
  sent: z.number(),
  receiverUserId: z.string(),
  message: z.string(),
}) satisfies z.ZodType<SendGiftsResponse>;
export const collectionStatusSchema = z.object({ status: collectionRows }) satisfies z.ZodType<CollectionStatusResponse>;

// GalaCord ------------------------------------------------------------------------------------

export const botStatusSchema = z.object({
  isRunning: z.boolean(),
  error: z.string().nullable(),
  connectedChannels: z.number().int(),
  state: z.enum(["stopped", "starting", "waiting", "retrying", "running", "error"]),
  stateText: z.string(),
  session: sessionViewSchema,
}) satisfies z.ZodType<BotStatus>;
export const botCommandSchema = botStatusSchema.extend({ success: z.literal(true), message: z.string(), status: botStatusSchema });
export const channelSchema = z.object({ id: z.string(), name: z.string(), guildId: z.string(), guildName: z.string() }) satisfies z.ZodType<Channel>;
export const connectionSchema = z.object({
  accountId: z.string(),
  nick: z.string(),
  planet: z.string().nullable(),
  channelName: z.string(),
  isConnected: z.boolean(),
}) satisfies z.ZodType<Connection>;
const relayOptions = z.object({
  discordName: z.string(),
  galaxyName: z.string(),
  ignoreNicks: z.array(z.string()),
  ignoreMessages: z.string(),
}) satisfies z.ZodType<RelayOptions>;
export const savedAccountSchema = z.object({
  accountId: z.string(),
  nick: z.string(),
  planet: z.string().nullable(),
  channelId: z.string(),
  channelName: z.string(),
  guildName: z.string(),
  guildId: z.string().nullable(),
  isConnected: z.boolean(),
  state: z.enum(["offline", "connecting", "connected", "error"]),
  desired: z.enum(["connected", "disconnected"]),
  error: z.string().nullable(),
  session: sessionViewSchema,
  options: relayOptions,
}) satisfies z.ZodType<SavedAccount>;
export const accountAnswerSchema = z.object({ success: z.literal(true), message: z.string(), account: savedAccountSchema });

// Trading planets -----------------------------------------------------------------------------

export const sequenceSchema = z.object({
  _id: z.string(),
  name: z.string(),
  sequence: z.array(z.object({ id: z.string(), planetType: z.string(), shuffle: z.boolean() })),
  seconds: z.number(),
  closedPlanetsLevel: z.number(),
  openPlanetsLevel: z.number(),
  isActive: z.boolean(),
}) satisfies z.ZodType<PlanetSequence>;
export const customPlanetSchema = z.object({ _id: z.string(), name: z.string(), type: z.enum(["blacklisted", "english"]) }) satisfies z.ZodType<CustomPlanet>;
export const adSchema = z.object({ _id: z.string(), adsMessage: z.string(), category: z.enum(["ads", "msg"]), isActive: z.boolean() }) satisfies z.ZodType<Ad>;
export const traderSchema = sessionViewSchema.extend({
  accountId: z.string(),
  nick: z.string(),
  state: z.enum(["idle", "connecting", "flying", "on_planet", "posting", "error"]),
  counts: z.object({ visits: z.number(), posts: z.number(), replies: z.number(), skipped: z.number(), failures: z.number(), rounds: z.number() }),
  at: z
    .object({
      sequenceId: z.string(),
      sequence: z.string().nullable(),
      step: z.number().int(),
      steps: z.number().int().nullable(),
      planetType: z.string().nullable(),
      planet: z.number().int(),
      planets: z.number().int(),
    })
    .nullable(),
}) satisfies z.ZodType<TraderStatus>;

// Summary -------------------------------------------------------------------------------------

export const giftRatesSchema = z.object({ rates: z.record(z.string(), z.number()) });
export const dailyTotalsSchema = z.object({
  dailyTotals: z.array(
    z.object({ date: z.string(), awards: z.record(z.string(), z.number()), ballStats: z.record(z.string(), z.number()) }) satisfies z.ZodType<DailyTotal>,
  ),
});

// Logs and the team ---------------------------------------------------------------------------

export const logSchema = z.object({
  _id: z.string(),
  type: z.enum(["error", "disconnect", "debug", "info"]),
  source: z.enum(["discord", "galaxyAuth", "bot", "system"]),
  message: z.string(),
  timestamp: iso,
  cleared: z.boolean(),
  details: z.unknown(),
}) satisfies z.ZodType<LogDto>;
export const auditEntrySchema = z.object({
  _id: z.string(),
  at: iso,
  operator: z.string(),
  token: z.string().nullable(),
  action: z.string(),
  target: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
}) satisfies z.ZodType<AuditEntryDto>;
export const auditListSchema = z.object({
  entries: z.array(auditEntrySchema),
  page: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
  next: z.string().nullable(),
  prev: z.string().nullable(),
}) satisfies z.ZodType<AuditListDto>;

// System --------------------------------------------------------------------------------------

const healthWorker = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.number().int(),
  mode: z.enum(["in-process", "standalone"]),
  startedAt: iso,
  state: z.enum(["alive", "lost"]),
  beatAgeSeconds: z.number(),
  sessions: z.record(z.string(), z.number()),
  capacity: z.record(z.string(), z.number()),
  lostAt: iso.optional(),
  status: z.string(),
}) satisfies z.ZodType<HealthWorker>;
const depState = z.enum(["up", "down"]);
export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.object({ ok: z.boolean(), kind: z.enum(["pglite", "postgres"]), state: depState, error: z.string().optional() }),
  redis: z.object({ ok: z.boolean(), state: depState, error: z.string().optional() }),
  down: z.array(z.enum(["database", "redis"])),
  error: z.string().optional(),
  message: z.string().optional(),
  worker: z.object({ state: z.enum(["running", "stopped", "unknown"]), lastHeartbeat: iso.nullable() }),
  workers: z.array(healthWorker),
  sessions: z.object({ waiting: z.number().int(), status: z.string().nullable() }),
}) satisfies z.ZodType<HealthResponse>;
export const probeSchema = z.object({
  jobId: z.string(),
  queue: z.literal("system"),
  name: z.literal("probe"),
  ms: z.number(),
  state: z.string(),
}) satisfies z.ZodType<ProbeResponse>;
