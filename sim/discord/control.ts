/**
 * The Discord simulator's control endpoint under `/__discord/` (JSON; no auth, loopback only):
 *
 *   GET  /__discord/state                       token, bot, guilds with channels, users, webhooks
 *   POST /__discord/messages { channelId, userId | username, content, replyTo?, attachments?, embeds? }
 *                                               a Discord user speaks → MESSAGE_CREATE to the bot
 *                                               (a reply with replyTo; files as CDN attachment objects)
 *   POST /__discord/messages/edit { channelId, messageId, content?, embeds? }   a user edits → MESSAGE_UPDATE
 *   POST /__discord/messages/delete { channelId, messageId }          a message is deleted → MESSAGE_DELETE
 *   GET  /__discord/messages?channelId=         every message in a channel (oldest first)
 *   GET  /__discord/sent[?channelId=]           what the bot put in channels: bot messages and
 *                                               webhook executions (with username), oldest first;
 *                                               also `edits` and `deletes` the bot made over REST
 *   GET  /__discord/faults                      current faults
 *   POST /__discord/faults { rest429: { count, retryAfterMs?, global?, scope? }, deadGateway, identifyCloseCode }
 *                                               (partial merge)
 *   POST /__discord/gateway { action: "close", code, forget? } | { action: "reconnect" }
 *                           | { action: "invalidate", resumable } | { action: "heartbeat" }
 *                                               close every gateway socket with a code / send op 7 / op 9 / op 1
 *   GET  /__discord/gateway                     open sockets, sessions, connection history
 *   GET|POST /__discord/application { privilegedIntents: { guildMembers?, guildPresences?, messageContent? } }
 *                                               the Developer Portal's privileged intent switches (off → 4014)
 *   GET|POST /__discord/ratelimits { globalPerSecond?, buckets?: { "<METHOD> <template>": { limit, windowMs } }, defaultBucket? }
 *                                               REST rate-limit rules (partial merge) and every 429 answered
 *   POST /__discord/webhooks { channelId, name? }  a webhook made in Discord's client (Integrations →
 *                                               Webhooks → New Webhook): its id, token and the URL to copy
 *   POST /__discord/reset                       no messages, webhooks, records, faults, buckets or 429s;
 *                                               default intents and rate limits; sockets closed
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { APIEmbed } from "discord-api-types/v10";
import { z } from "zod";
import { BadRequest, parseJsonBody as parse, sendJson as send } from "../http";
import type { DiscordGateway } from "./gateway";
import type { RateLimiter } from "./ratelimit";
import { randomToken } from "./rest";
import { attachmentPayload, channelPayload, messagePayload, snowflake, webhookPayload, type DiscordState, type SimMessage } from "./state";

const closeCode = z
  .number()
  .int()
  .refine((c) => c === 1000 || c === 1006 || (c >= 3000 && c <= 4999), "a close code is 1000, 1006 (abrupt) or 3000-4999");

const faultsSchema = z
  .object({
    rest429: z
      .object({
        count: z.number().int().min(0).max(10_000),
        retryAfterMs: z.number().int().min(0).max(60_000).optional(),
        global: z.boolean().optional(),
        scope: z.enum(["user", "shared"]).optional(),
      })
      .strict(),
    deadGateway: z.boolean(),
    identifyCloseCode: closeCode.nullable(),
  })
  .partial()
  .strict();
/** Embed Object fields a test needs (Message resource › Embed Object); each is optional, as on Discord. */
const embedSchema = z
  .object({
    title: z.string().max(256).optional(),
    description: z.string().max(4096).optional(),
    url: z.string().url().optional(),
    image: z.object({ url: z.string().url() }).strict().optional(),
    thumbnail: z.object({ url: z.string().url() }).strict().optional(),
  })
  .strict();
const fileSchema = z
  .object({ filename: z.string().min(1).max(200), size: z.number().int().min(0).optional(), contentType: z.string().min(1).max(100).optional() })
  .strict();
const postSchema = z
  .object({
    channelId: z.string().min(1),
    userId: z.string().min(1).optional(),
    username: z.string().min(1).optional(),
    content: z.string().max(4000).default(""),
    /** A reply (type 19) to this message of the same channel. */
    replyTo: z.string().min(1).optional(),
    attachments: z.array(fileSchema).max(10).optional(),
    embeds: z.array(embedSchema).max(10).optional(),
  })
  .strict()
  .refine((b) => b.content || b.attachments?.length || b.embeds?.length, "content, attachments or embeds are required (Discord refuses an empty message)");
const editSchema = z
  .object({
    channelId: z.string().min(1),
    messageId: z.string().min(1),
    content: z.string().min(1).max(4000).optional(),
    /** Embeds replaced (a link preview Discord adds later: MESSAGE_UPDATE with edited_timestamp left null). */
    embeds: z.array(embedSchema).max(10).optional(),
  })
  .strict()
  .refine((b) => b.content !== undefined || b.embeds !== undefined, "content or embeds are required");
const deleteSchema = z.object({ channelId: z.string().min(1), messageId: z.string().min(1) }).strict();
const gatewaySchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("close"), code: closeCode, forget: z.boolean().optional() }).strict(),
  z.object({ action: z.literal("reconnect") }).strict(),
  z.object({ action: z.literal("invalidate"), resumable: z.boolean() }).strict(),
  z.object({ action: z.literal("heartbeat") }).strict(),
]);
const applicationSchema = z
  .object({
    privilegedIntents: z.object({ guildMembers: z.boolean(), guildPresences: z.boolean(), messageContent: z.boolean() }).partial().strict(),
  })
  .partial()
  .strict();
const bucketRule = z.object({ limit: z.number().int().min(1).max(10_000), windowMs: z.number().int().min(1).max(3_600_000) }).strict();
const rateLimitsSchema = z
  .object({
    globalPerSecond: z.number().int().min(0).max(100_000),
    buckets: z.record(z.string().regex(/^(GET|POST|PATCH|PUT|DELETE) \/\S*$/, "a bucket is named '<METHOD> <template>'"), bucketRule),
    defaultBucket: bucketRule,
  })
  .partial()
  .strict();

const webhookSchema = z.strictObject({ channelId: z.string().min(1), name: z.string().min(1).max(80).optional() });

export async function handleDiscordControl(
  state: DiscordState,
  gateway: DiscordGateway,
  limiter: RateLimiter,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://sim.local");
  const path = url.pathname.replace(/\/+$/, "");
  const method = req.method ?? "GET";
  try {
    if (method === "GET" && (path === "/__discord" || path === "/__discord/state")) {
      return send(res, 200, {
        token: state.token,
        bot: state.bot,
        users: state.users,
        guilds: state.guilds.map((g) => ({ id: g.id, name: g.name, channels: g.channels.map(channelPayload) })),
        webhooks: state.webhooks.map((w) => webhookPayload(state, w)),
      });
    }
    if (method === "POST" && path === "/__discord/messages") {
      const body = await parse(req, postSchema);
      const channel = state.channel(body.channelId);
      if (!channel) return send(res, 404, { error: "not_found", message: `No channel ${body.channelId}` });
      const who = body.userId ?? body.username ?? state.users[0].id;
      const author = state.user(who);
      if (!author) return send(res, 404, { error: "not_found", message: `No seeded user ${who}` });
      if (body.replyTo && !state.findMessage(channel.id, body.replyTo))
        return send(res, 404, { error: "not_found", message: `No message ${body.replyTo} in ${channel.id}` });
      const msg: SimMessage = {
        id: snowflake(),
        channel_id: channel.id,
        guild_id: channel.guildId,
        author,
        content: body.content,
        timestamp: new Date().toISOString(),
        ...(body.replyTo ? { message_reference: { type: 0, message_id: body.replyTo, channel_id: channel.id, guild_id: channel.guildId } } : {}),
        ...(body.attachments ? { attachments: body.attachments.map((f) => attachmentPayload(channel.id, f)) } : {}),
        ...(body.embeds ? { embeds: body.embeds.map((e) => ({ ...e, type: "rich" }) as APIEmbed) } : {}),
      };
      state.addMessage(msg);
      gateway.dispatchMessage("MESSAGE_CREATE", msg);
      return send(res, 200, messagePayload(state, msg));
    }
    if (method === "POST" && path === "/__discord/webhooks") {
      const body = await parse(req, webhookSchema);
      const channel = state.channel(body.channelId);
      if (!channel) return send(res, 404, { error: "not_found", message: `No channel ${body.channelId}` });
      const hook = {
        id: snowflake(),
        token: randomToken(),
        channelId: channel.id,
        guildId: channel.guildId,
        name: body.name ?? "Captain Hook",
        createdBy: state.users[0].id,
      };
      state.webhooks.push(hook);
      const base = `http://${req.headers.host ?? "127.0.0.1"}`;
      return send(res, 200, { ...webhookPayload(state, hook), url: `${base}/api/webhooks/${hook.id}/${hook.token}` });
    }
    if (method === "POST" && path === "/__discord/messages/edit") {
      const body = await parse(req, editSchema);
      const msg = state.findMessage(body.channelId, body.messageId);
      if (!msg) return send(res, 404, { error: "not_found", message: `No message ${body.messageId} in ${body.channelId}` });
      // A content edit stamps edited_timestamp; an embeds-only update (a link preview) does not.
      if (body.content !== undefined) {
        msg.content = body.content;
        msg.edited_timestamp = new Date().toISOString();
      }
      if (body.embeds !== undefined) msg.embeds = body.embeds.map((e) => ({ ...e, type: "rich" }) as APIEmbed);
      gateway.dispatchMessage("MESSAGE_UPDATE", msg);
      return send(res, 200, messagePayload(state, msg));
    }
    if (method === "POST" && path === "/__discord/messages/delete") {
      const body = await parse(req, deleteSchema);
      const msg = state.findMessage(body.channelId, body.messageId);
      if (!msg) return send(res, 404, { error: "not_found", message: `No message ${body.messageId} in ${body.channelId}` });
      state.removeMessage(msg.channel_id, msg.id);
      gateway.dispatchDelete({ id: msg.id, channel_id: msg.channel_id, guild_id: msg.guild_id });
      return send(res, 200, { ok: true });
    }
    if (method === "GET" && path === "/__discord/messages") {
      const channelId = url.searchParams.get("channelId") ?? "";
      if (!state.channel(channelId)) return send(res, 404, { error: "not_found", message: `No channel ${channelId}` });
      return send(res, 200, { messages: (state.messages.get(channelId) ?? []).map((m) => messagePayload(state, m)) });
    }
    if (method === "GET" && path === "/__discord/sent") {
      const channelId = url.searchParams.get("channelId");
      const mine = <T extends { channelId: string }>(list: T[]) => list.filter((s) => !channelId || s.channelId === channelId);
      return send(res, 200, { sent: mine(state.sent), edits: mine(state.edits), deletes: mine(state.deletes) });
    }
    if (path === "/__discord/faults") {
      if (method === "POST") {
        const body = await parse(req, faultsSchema);
        if (body.rest429) state.faults.rest429 = { ...state.faults.rest429, ...body.rest429 };
        if (body.deadGateway !== undefined) state.faults.deadGateway = body.deadGateway;
        if (body.identifyCloseCode !== undefined) state.faults.identifyCloseCode = body.identifyCloseCode;
      }
      if (method === "GET" || method === "POST") return send(res, 200, { faults: state.faults });
    }
    if (path === "/__discord/gateway") {
      if (method === "GET") {
        return send(res, 200, {
          open: gateway.openCount(),
          sessions: [...gateway.sessions.values()].map((s) => ({
            sessionId: s.sessionId,
            intents: s.intents,
            shard: s.shard,
            seq: s.seq,
            connected: !!s.conn,
          })),
          events: gateway.events,
        });
      }
      if (method === "POST") {
        const body = await parse(req, gatewaySchema);
        const sockets =
          body.action === "close"
            ? gateway.closeAll(body.code, "Simulated close", body.forget)
            : body.action === "reconnect"
              ? gateway.reconnectAll()
              : body.action === "invalidate"
                ? gateway.invalidateAll(body.resumable)
                : gateway.requestHeartbeats();
        return send(res, 200, { sockets });
      }
    }
    if (path === "/__discord/application") {
      if (method === "POST") {
        const body = await parse(req, applicationSchema);
        if (body.privilegedIntents) state.privilegedIntents = { ...state.privilegedIntents, ...body.privilegedIntents };
      }
      if (method === "GET" || method === "POST") return send(res, 200, { privilegedIntents: state.privilegedIntents, flags: state.applicationFlags() });
    }
    if (path === "/__discord/ratelimits") {
      if (method === "POST") {
        const body = await parse(req, rateLimitsSchema);
        const c = limiter.config;
        limiter.config = { ...c, ...body, buckets: { ...c.buckets, ...body.buckets } };
      }
      if (method === "GET" || method === "POST") return send(res, 200, { config: limiter.config, hits: limiter.hits });
    }
    if (method === "POST" && path === "/__discord/reset") {
      state.reset();
      limiter.reset();
      gateway.closeAll(1000, "Simulator reset", true);
      gateway.events.length = 0;
      return send(res, 200, { ok: true });
    }
    return send(res, 404, { error: "not_found", message: `No control endpoint ${method} ${path}` });
  } catch (e) {
    if (e instanceof BadRequest) return send(res, 400, { error: "bad_request", message: e.message });
    throw e;
  }
}
