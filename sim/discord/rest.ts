/**
 * The Discord simulator's REST API under `/api/v10` and `/api/v9` (docs/discord-simulator.md lists
 * each Discord rule it follows, with its source). One route table: a path that matches no template
 * is a 404, a template without the method a 405; then authorization (401), rate limits (429, with
 * `X-RateLimit-*` headers on every answer), snowflake checks and the handler. Errors are Discord's
 * JSON `{ message, code }`, with an `errors` tree for 50035 "Invalid Form Body".
 *
 *   GET  /gateway (no auth), /gateway/bot      gateway URL (+ shards and session_start_limit)
 *   GET  /users/@me, /users/@me/guilds, /users/{id}, /applications/@me, /oauth2/applications/@me
 *   GET  /guilds/{id}[/channels|/roles|/webhooks|/members/{user}]
 *   GET  /channels/{id}, /channels/{id}/messages[?limit,before,after], /channels/{id}/messages/{m}
 *   POST /channels/{id}/messages               JSON, form or multipart (payload_json) → MESSAGE_CREATE
 *   PATCH|DELETE /channels/{id}/messages/{m}  → MESSAGE_UPDATE / MESSAGE_DELETE
 *   POST /channels/{id}/messages/bulk-delete   → MESSAGE_DELETE_BULK
 *   POST /channels/{id}/typing                 204
 *   POST|GET /channels/{id}/webhooks, GET|DELETE /webhooks/{id}
 *   GET|DELETE /webhooks/{id}/{token}; POST /webhooks/{id}/{token}[?wait=true] (no Authorization; also
 *   unversioned, `/api/webhooks/{id}/{token}`, the URL Discord's client copies)
 *   GET|PATCH|DELETE /webhooks/{id}/{token}/messages/{m}
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { APIEmbed, RESTError, RESTErrorData } from "discord-api-types/v10";
import type { DiscordGateway } from "./gateway";
import type { RateLimiter } from "./ratelimit";
import {
  applicationPayload,
  channelPayload,
  guildPayload,
  isSnowflake,
  memberPayload,
  messagePayload,
  partialGuildsPayload,
  rolesPayload,
  snowflake,
  webhookPayload,
  type DiscordState,
  type SimChannel,
  type SimMessage,
  type SimWebhook,
} from "./state";

const MAX_BODY = 8 * 1024 * 1024;
const MAX_CONTENT = 2000;
/** API versions the simulator speaks (API Reference, "API Versioning": 9 and 10 are "Available"). */
export const API_VERSIONS = [9, 10] as const;

type Answer = { status: number; body?: unknown };
type Ctx = {
  state: DiscordState;
  gateway: DiscordGateway;
  gatewayUrl: () => string;
  req: IncomingMessage;
  url: URL;
  params: Record<string, string>;
};
type Route = {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  path: string;
  /** "bot": Authorization: Bot <token>; "none": no auth (Get Gateway); "webhook": the token is in the path. */
  auth: "bot" | "none" | "webhook";
  handler: (ctx: Ctx) => Answer | Promise<Answer>;
};

const ok = (body: unknown, status = 200): Answer => ({ status, body });
const noContent: Answer = { status: 204 };
const fail = (status: number, message: string, code = 0): Answer => ({ status, body: { message, code } satisfies RESTError });
/** 50035 with Discord's `errors` tree (API Reference, "Error Messages"). */
const formError = (errors: RESTErrorData): Answer => ({ status: 400, body: { code: 50035, message: "Invalid Form Body", errors } satisfies RESTError });
const fieldError = (field: string, code: string, message: string): Answer => formError({ [field]: { _errors: [{ code, message }] } });
const contentTooLong = () => fieldError("content", "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_CONTENT} or fewer in length.`);

// ---- request bodies ---------------------------------------------------------------------------------

class BodyError extends Error {
  constructor(readonly answer: Answer) {
    super("bad body");
  }
}

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new BodyError({ status: 413, body: { message: "Request entity too large", code: 40005 } });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The body as an object: JSON, `application/x-www-form-urlencoded`, or multipart with `payload_json`
 * (as libraries send uploads; files are dropped). Reference "Content Type": another type → 50035;
 * JSON that does not parse → 50109; JSON that is not an object → 50035.
 */
async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readRaw(req);
  if (raw.length === 0) return {};
  const type = String(req.headers["content-type"] ?? "")
    .split(";")[0]
    .trim()
    .toLowerCase();
  let parsed: unknown;
  if (type === "application/json") {
    try {
      parsed = JSON.parse(raw.toString("utf8"));
    } catch {
      throw new BodyError(fail(400, "The request body contains invalid JSON.", 50109));
    }
  } else if (type === "multipart/form-data") {
    const form = await new Request("http://sim.local/", {
      method: "POST",
      headers: { "content-type": String(req.headers["content-type"]) },
      body: new Uint8Array(raw),
    })
      .formData()
      .catch(() => null);
    if (!form) throw new BodyError(formError({ _errors: [{ code: "CONTENT_TYPE_INVALID", message: "Invalid multipart body." }] }));
    const json = form.get("payload_json");
    if (typeof json !== "string") parsed = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string"));
    else {
      try {
        parsed = JSON.parse(json);
      } catch {
        throw new BodyError(fail(400, "The request body contains invalid JSON.", 50109));
      }
    }
  } else if (type === "application/x-www-form-urlencoded") {
    parsed = Object.fromEntries(new URLSearchParams(raw.toString("utf8")));
  } else {
    throw new BodyError(
      formError({
        _errors: [
          {
            code: "CONTENT_TYPE_INVALID",
            message: "Expected \"Content-Type\" header to be one of {'application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'}.",
          },
        ],
      }),
    );
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new BodyError(formError({ _errors: [{ code: "DICT_TYPE_CONVERT", message: "Only dictionaries may be used in a DictType" }] }));
  }
  return parsed as Record<string, unknown>;
}

/** Reference "Boolean Query Strings": True, true or 1. */
const queryTrue = (v: string | null) => v === "True" || v === "true" || v === "1";

// ---- message rules ----------------------------------------------------------------------------------

/** Reference "Message Content Intent" (HTTP Restrictions): without the app's intent, others' content reads empty. */
function visibleMessage(state: DiscordState, m: SimMessage) {
  const payload = messagePayload(state, m);
  if (state.privilegedIntents.messageContent || m.author.id === state.bot.id || payload.mentions.some((u) => u.id === state.bot.id)) return payload;
  return { ...payload, content: "", embeds: [], attachments: [], components: [] };
}

function contentOf(body: Record<string, unknown>): { content: string } | Answer {
  const content = body.content === undefined || body.content === null ? "" : body.content;
  if (typeof content !== "string") return fieldError("content", "BASE_TYPE_STRING", "Must be a string.");
  if (content.length > MAX_CONTENT) return contentTooLong();
  return { content };
}

function webhookUsername(body: Record<string, unknown>): string | null | Answer {
  if (body.username === undefined || body.username === null) return null;
  if (typeof body.username !== "string") return fieldError("username", "BASE_TYPE_STRING", "Must be a string.");
  const name = body.username;
  if (name.length < 1 || name.length > 80) return fieldError("username", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 80 in length.");
  // Execute Webhook: usernames may not contain "discord" nor be "clyde" (Webhook resource, "Execute Webhook").
  for (const word of ["discord", "clyde"]) {
    if (name.toLowerCase().includes(word)) return fieldError("username", "USERNAME_INVALID_CONTAINS", `Username cannot contain "${word}"`);
  }
  for (const word of ["everyone", "here"]) {
    if (name.toLowerCase() === word) return fieldError("username", "USERNAME_INVALID", `Username cannot be "${word}"`);
  }
  return name;
}

const isAnswer = (x: unknown): x is Answer => !!x && typeof x === "object" && "status" in x;

// ---- handlers -----------------------------------------------------------------------------------------

function channelOf(ctx: Ctx): SimChannel | Answer {
  return ctx.state.channel(ctx.params.channel) ?? fail(404, "Unknown Channel", 10003);
}

function webhookOf(ctx: Ctx, withToken: boolean): SimWebhook | Answer {
  const hook = ctx.state.webhooks.find((w) => w.id === ctx.params.webhook);
  // Webhook resource: an unknown webhook is 404 "Unknown Webhook" (10015); a wrong token 401 50027.
  if (!hook) return fail(404, "Unknown Webhook", 10015);
  if (withToken && hook.token !== ctx.params.token) return fail(401, "Invalid Webhook Token", 50027);
  return hook;
}

/** Rich embeds a bot or webhook sends are kept and delivered (up to 10, Message resource › Create Message). */
function embedsOf(body: Record<string, unknown>): { embeds?: APIEmbed[] } {
  if (!Array.isArray(body.embeds) || body.embeds.length === 0) return {};
  const embeds = body.embeds
    .filter((e): e is Record<string, unknown> => !!e && typeof e === "object" && !Array.isArray(e))
    .slice(0, 10)
    .map((e) => ({ ...e, type: "rich" }) as APIEmbed);
  return embeds.length ? { embeds } : {};
}

async function createMessage(ctx: Ctx): Promise<Answer> {
  const channel = channelOf(ctx);
  if (isAnswer(channel)) return channel;
  const body = await readBody(ctx.req);
  const c = contentOf(body);
  if (isAnswer(c)) return c;
  // Create Message: one of content, embeds, sticker_ids, components, files or poll is required.
  const hasOther = (Array.isArray(body.embeds) && body.embeds.length > 0) || (Array.isArray(body.attachments) && body.attachments.length > 0);
  if (!c.content && !hasOther) return fail(400, "Cannot send an empty message", 50006);
  const { state } = ctx;
  const reference = replyTo(state, channel, body.message_reference);
  if (isAnswer(reference)) return reference;
  const msg: SimMessage = {
    id: snowflake(),
    channel_id: channel.id,
    guild_id: channel.guildId,
    author: state.bot,
    content: c.content,
    timestamp: new Date().toISOString(),
    ...(typeof body.nonce === "string" || typeof body.nonce === "number" ? { nonce: body.nonce } : {}),
    ...(reference ? { message_reference: reference } : {}),
    ...embedsOf(body),
  };
  state.addMessage(msg);
  state.sent.push({
    kind: "message",
    id: msg.id,
    channelId: channel.id,
    guildId: channel.guildId,
    content: c.content,
    username: state.bot.username,
    avatarUrl: null,
    webhookId: null,
    allowedMentions: body.allowed_mentions ?? null,
    at: Date.now(),
  });
  ctx.gateway.dispatchMessage("MESSAGE_CREATE", msg);
  return ok(messagePayload(state, msg));
}

/**
 * Message resource › Message Reference: a reply names a message (its channel defaults to this one);
 * an unknown one is refused unless `fail_if_not_exists` is false, in which case no reference is kept.
 */
function replyTo(state: DiscordState, channel: SimChannel, raw: unknown): SimMessage["message_reference"] | null | Answer {
  if (!raw || typeof raw !== "object") return null;
  const r = raw as { message_id?: unknown; channel_id?: unknown; fail_if_not_exists?: unknown; type?: unknown };
  if (r.type !== undefined && r.type !== 0) return null; // forwards are not simulated
  const channelId = typeof r.channel_id === "string" ? r.channel_id : channel.id;
  const messageId = typeof r.message_id === "string" ? r.message_id : "";
  if (channelId === channel.id && state.findMessage(channelId, messageId))
    return { type: 0, message_id: messageId, channel_id: channelId, guild_id: channel.guildId };
  if (r.fail_if_not_exists === false) return null;
  return fieldError("message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message");
}

async function editMessage(ctx: Ctx, channelId: string, messageId: string, by: string): Promise<Answer> {
  const { state } = ctx;
  const msg = state.findMessage(channelId, messageId);
  if (!msg) return fail(404, "Unknown Message", 10008);
  if (msg.author.id !== by) return fail(403, "Cannot edit a message authored by another user", 50005);
  const body = await readBody(ctx.req);
  if (body.content !== undefined) {
    const c = contentOf(body);
    if (isAnswer(c)) return c;
    msg.content = c.content;
  }
  msg.edited_timestamp = new Date().toISOString();
  state.edits.push({ channelId, id: msg.id, content: msg.content, at: Date.now() });
  ctx.gateway.dispatchMessage("MESSAGE_UPDATE", msg);
  return ok(messagePayload(state, msg));
}

function deleteMessage(ctx: Ctx, channelId: string, messageId: string, webhookId?: string): Answer {
  const { state } = ctx;
  const msg = state.findMessage(channelId, messageId);
  if (!msg || (webhookId !== undefined && msg.webhook_id !== webhookId)) return fail(404, "Unknown Message", 10008);
  state.removeMessage(channelId, msg.id);
  state.deletes.push({ channelId, id: msg.id, at: Date.now() });
  ctx.gateway.dispatchDelete({ id: msg.id, channel_id: channelId, guild_id: msg.guild_id });
  return noContent;
}

async function executeWebhook(ctx: Ctx): Promise<Answer> {
  const hook = webhookOf(ctx, true);
  if (isAnswer(hook)) return hook;
  const body = await readBody(ctx.req);
  const c = contentOf(body);
  if (isAnswer(c)) return c;
  const override = webhookUsername(body);
  if (isAnswer(override)) return override;
  if (!c.content && !(Array.isArray(body.embeds) && body.embeds.length > 0)) return fail(400, "Cannot send an empty message", 50006);
  const { state } = ctx;
  const username = override ?? hook.name;
  const avatarUrl = typeof body.avatar_url === "string" ? body.avatar_url : null;
  const msg: SimMessage = {
    id: snowflake(),
    channel_id: hook.channelId,
    guild_id: hook.guildId,
    author: { id: hook.id, username, discriminator: "0000", global_name: null, avatar: null, bot: true },
    content: c.content,
    timestamp: new Date().toISOString(),
    webhook_id: hook.id,
    ...embedsOf(body),
  };
  state.addMessage(msg);
  state.sent.push({
    kind: "webhook",
    id: msg.id,
    channelId: hook.channelId,
    guildId: hook.guildId,
    content: c.content,
    username,
    avatarUrl,
    webhookId: hook.id,
    allowedMentions: body.allowed_mentions ?? null,
    at: Date.now(),
  });
  ctx.gateway.dispatchMessage("MESSAGE_CREATE", msg);
  return queryTrue(ctx.url.searchParams.get("wait")) ? ok(messagePayload(state, msg)) : noContent;
}

export function randomToken() {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let t = "";
  for (let i = 0; i < 68; i++) t += abc[Math.floor(Math.random() * abc.length)];
  return t;
}

const ROUTES: Route[] = [
  { method: "GET", path: "/gateway", auth: "none", handler: (c) => ok({ url: c.gatewayUrl() }) },
  {
    method: "GET",
    path: "/gateway/bot",
    auth: "bot",
    handler: (c) => ok({ url: c.gatewayUrl(), shards: 1, session_start_limit: c.state.sessionStartLimit() }),
  },
  { method: "GET", path: "/users/@me", auth: "bot", handler: (c) => ok(c.state.bot) },
  { method: "GET", path: "/users/@me/guilds", auth: "bot", handler: (c) => ok(partialGuildsPayload(c.state)) },
  {
    method: "GET",
    path: "/users/:user",
    auth: "bot",
    handler: (c) => {
      const u = c.state.user(c.params.user);
      return u ? ok(u) : fail(404, "Unknown User", 10013);
    },
  },
  { method: "GET", path: "/applications/@me", auth: "bot", handler: (c) => ok(applicationPayload(c.state)) },
  { method: "GET", path: "/oauth2/applications/@me", auth: "bot", handler: (c) => ok(applicationPayload(c.state)) },
  {
    method: "GET",
    path: "/guilds/:guild",
    auth: "bot",
    handler: (c) => {
      const g = c.state.guild(c.params.guild);
      if (!g) return fail(404, "Unknown Guild", 10004);
      // Get Guild: approximate counts only `with_counts=true`.
      const { approximate_member_count, ...guild } = guildPayload(g, c.state);
      return ok(queryTrue(c.url.searchParams.get("with_counts")) ? { ...guild, approximate_member_count, approximate_presence_count: 0 } : guild);
    },
  },
  {
    method: "GET",
    path: "/guilds/:guild/channels",
    auth: "bot",
    handler: (c) => {
      const g = c.state.guild(c.params.guild);
      return g ? ok(g.channels.map(channelPayload)) : fail(404, "Unknown Guild", 10004);
    },
  },
  {
    method: "GET",
    path: "/guilds/:guild/roles",
    auth: "bot",
    handler: (c) => {
      const g = c.state.guild(c.params.guild);
      return g ? ok(rolesPayload(g)) : fail(404, "Unknown Guild", 10004);
    },
  },
  {
    method: "GET",
    path: "/guilds/:guild/members/:user",
    auth: "bot",
    handler: (c) => {
      const g = c.state.guild(c.params.guild);
      if (!g) return fail(404, "Unknown Guild", 10004);
      const u = c.state.user(c.params.user);
      return u ? ok(memberPayload(c.state, g, u)) : fail(404, "Unknown Member", 10007);
    },
  },
  {
    method: "GET",
    path: "/guilds/:guild/webhooks",
    auth: "bot",
    handler: (c) => {
      const g = c.state.guild(c.params.guild);
      if (!g) return fail(404, "Unknown Guild", 10004);
      return ok(c.state.webhooks.filter((w) => w.guildId === g.id).map((w) => webhookPayload(c.state, w)));
    },
  },
  {
    method: "GET",
    path: "/channels/:channel",
    auth: "bot",
    handler: (c) => {
      const ch = channelOf(c);
      return isAnswer(ch) ? ch : ok(channelPayload(ch));
    },
  },
  {
    method: "GET",
    path: "/channels/:channel/messages",
    auth: "bot",
    handler: (c) => {
      const ch = channelOf(c);
      if (isAnswer(ch)) return ch;
      const q = c.url.searchParams;
      const limit = q.has("limit") ? Number(q.get("limit")) : 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) return fieldError("limit", "NUMBER_TYPE_MAX", "Int value should be between 1 and 100.");
      const before = q.get("before");
      const after = q.get("after");
      for (const [field, v] of [
        ["before", before],
        ["after", after],
      ] as const) {
        if (v !== null && !isSnowflake(v)) return fieldError(field, "NUMBER_TYPE_COERCE", `Value "${v}" is not snowflake.`);
      }
      let list = c.state.messages.get(ch.id) ?? [];
      if (before) list = list.filter((m) => BigInt(m.id) < BigInt(before));
      if (after) list = list.filter((m) => BigInt(m.id) > BigInt(after)).slice(0, limit);
      // Get Channel Messages: newest first.
      return ok(
        list
          .slice(-limit)
          .reverse()
          .map((m) => visibleMessage(c.state, m)),
      );
    },
  },
  {
    method: "GET",
    path: "/channels/:channel/messages/:message",
    auth: "bot",
    handler: (c) => {
      const ch = channelOf(c);
      if (isAnswer(ch)) return ch;
      const msg = c.state.findMessage(ch.id, c.params.message);
      return msg ? ok(visibleMessage(c.state, msg)) : fail(404, "Unknown Message", 10008);
    },
  },
  { method: "POST", path: "/channels/:channel/messages", auth: "bot", handler: createMessage },
  {
    // Message resource › Bulk Delete Messages: 2–100 ids → 204 and one MESSAGE_DELETE_BULK.
    method: "POST",
    path: "/channels/:channel/messages/bulk-delete",
    auth: "bot",
    handler: async (c) => {
      const ch = channelOf(c);
      if (isAnswer(ch)) return ch;
      const body = await readBody(c.req);
      const ids = Array.isArray(body.messages) ? body.messages.filter((x): x is string => typeof x === "string") : [];
      if (ids.length < 2 || ids.length > 100) return fieldError("messages", "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 100 in length.");
      const found = ids.filter((id) => c.state.findMessage(ch.id, id));
      for (const id of found) {
        c.state.removeMessage(ch.id, id);
        c.state.deletes.push({ channelId: ch.id, id, at: Date.now() });
      }
      if (found.length) c.gateway.dispatchDeleteBulk({ ids: found, channel_id: ch.id, guild_id: ch.guildId });
      return noContent;
    },
  },
  {
    method: "PATCH",
    path: "/channels/:channel/messages/:message",
    auth: "bot",
    handler: (c) => {
      const ch = channelOf(c);
      return isAnswer(ch) ? ch : editMessage(c, ch.id, c.params.message, c.state.bot.id);
    },
  },
  {
    method: "DELETE",
    path: "/channels/:channel/messages/:message",
    auth: "bot",
    handler: (c) => {
      const ch = channelOf(c);
      // The bot's role has Manage Messages, so it may delete anyone's message, as on Discord.
      return isAnswer(ch) ? ch : deleteMessage(c, ch.id, c.params.message);
    },
  },
  {
    method: "POST",
    path: "/channels/:channel/typing",
    auth: "bot",
    handler: (c) => {
      const ch = channelOf(c);
      return isAnswer(ch) ? ch : noContent;
    },
  },
  {
    method: "GET",
    path: "/channels/:channel/webhooks",
    auth: "bot",
    handler: (c) => {
      const ch = channelOf(c);
      return isAnswer(ch) ? ch : ok(c.state.webhooks.filter((w) => w.channelId === ch.id).map((w) => webhookPayload(c.state, w)));
    },
  },
  {
    method: "POST",
    path: "/channels/:channel/webhooks",
    auth: "bot",
    handler: async (c) => {
      const ch = channelOf(c);
      if (isAnswer(ch)) return ch;
      const body = await readBody(c.req);
      const name = typeof body.name === "string" ? body.name : "";
      if (name.length < 1 || name.length > 80) return fieldError("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 80 in length.");
      if (/discord|clyde/i.test(name)) return fieldError("name", "WEBHOOK_INVALID_NAME", "Webhook names cannot contain the substrings 'clyde' or 'discord'.");
      if (c.state.webhooks.filter((w) => w.channelId === ch.id).length >= 15) return fail(400, "Maximum number of webhooks reached (15)", 30007);
      const hook: SimWebhook = { id: snowflake(), token: randomToken(), channelId: ch.id, guildId: ch.guildId, name, createdBy: c.state.bot.id };
      c.state.webhooks.push(hook);
      return ok(webhookPayload(c.state, hook));
    },
  },
  {
    method: "GET",
    path: "/webhooks/:webhook",
    auth: "bot",
    handler: (c) => {
      const hook = webhookOf(c, false);
      return isAnswer(hook) ? hook : ok(webhookPayload(c.state, hook));
    },
  },
  {
    method: "DELETE",
    path: "/webhooks/:webhook",
    auth: "bot",
    handler: (c) => {
      const hook = webhookOf(c, false);
      if (isAnswer(hook)) return hook;
      c.state.webhooks.splice(c.state.webhooks.indexOf(hook), 1);
      return noContent;
    },
  },
  {
    method: "GET",
    path: "/webhooks/:webhook/:token",
    auth: "webhook",
    handler: (c) => {
      const hook = webhookOf(c, true);
      // Get Webhook with Token: no `user` in the answer.
      if (isAnswer(hook)) return hook;
      const { user: _u, ...rest } = webhookPayload(c.state, hook);
      return ok(rest);
    },
  },
  {
    method: "DELETE",
    path: "/webhooks/:webhook/:token",
    auth: "webhook",
    handler: (c) => {
      const hook = webhookOf(c, true);
      if (isAnswer(hook)) return hook;
      c.state.webhooks.splice(c.state.webhooks.indexOf(hook), 1);
      return noContent;
    },
  },
  { method: "POST", path: "/webhooks/:webhook/:token", auth: "webhook", handler: executeWebhook },
  {
    method: "GET",
    path: "/webhooks/:webhook/:token/messages/:message",
    auth: "webhook",
    handler: (c) => {
      const hook = webhookOf(c, true);
      if (isAnswer(hook)) return hook;
      const msg = c.state.findMessage(hook.channelId, c.params.message);
      return msg && msg.webhook_id === hook.id ? ok(messagePayload(c.state, msg)) : fail(404, "Unknown Message", 10008);
    },
  },
  {
    method: "PATCH",
    path: "/webhooks/:webhook/:token/messages/:message",
    auth: "webhook",
    handler: (c) => {
      const hook = webhookOf(c, true);
      return isAnswer(hook) ? hook : editMessage(c, hook.channelId, c.params.message, hook.id);
    },
  },
  {
    method: "DELETE",
    path: "/webhooks/:webhook/:token/messages/:message",
    auth: "webhook",
    handler: (c) => {
      const hook = webhookOf(c, true);
      return isAnswer(hook) ? hook : deleteMessage(c, hook.channelId, c.params.message, hook.id);
    },
  },
];

/** Path params that must be snowflakes, and the field name Discord's 50035 uses for each. */
const SNOWFLAKE_PARAMS: Record<string, string> = { channel: "channel_id", guild: "guild_id", message: "message_id", webhook: "webhook_id", user: "user_id" };
/** Rate-limit top-level resources (Rate Limits: channels, guilds, webhooks — the webhook with its token). */
const majorOf = (params: Record<string, string>) => params.channel ?? params.guild ?? (params.webhook ? `${params.webhook}/${params.token ?? ""}` : "");

function match(template: string, parts: string[]): Record<string, string> | null {
  const t = template.split("/").filter(Boolean);
  if (t.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    if (t[i].startsWith(":")) params[t[i].slice(1)] = parts[i];
    else if (t[i] !== parts[i]) return null;
  }
  return params;
}

function write(res: ServerResponse, answer: Answer, headers: Record<string, string>) {
  if (answer.status === 204) {
    res.writeHead(204, headers);
    return void res.end();
  }
  const text = JSON.stringify(answer.body ?? null);
  res.writeHead(answer.status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

export async function handleRest(
  state: DiscordState,
  gateway: DiscordGateway,
  limiter: RateLimiter,
  gatewayUrl: () => string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://sim.local");
  const method = (req.method ?? "GET").toUpperCase();
  const drain = () => readRaw(req).catch(() => undefined);
  const v = /^\/api(?:\/v(\d+))?(\/.*)?$/.exec(url.pathname);
  if (!v) return write(res, fail(404, "404: Not Found"), {});
  // API Reference "API Versioning": 9 and 10 are available; discontinued ones answer 400. Deprecated
  // 6-8 (and no version, which means 6) are not spoken here: they answer 400 too (a deliberate difference).
  // Except a webhook URL as Discord's client copies it (`/api/webhooks/{id}/{token}`, no version):
  // Discord executes those, and operators paste them (issue 31: alerts to a Discord webhook).
  const copiedWebhookUrl = v[1] === undefined && /^\/webhooks\/[^/]+\/[^/]+\/?$/.test(v[2] ?? "");
  if (!copiedWebhookUrl && (v[1] === undefined || !API_VERSIONS.includes(Number(v[1]) as 9 | 10))) {
    await drain();
    return write(res, fail(400, "Invalid API version", 50041), {});
  }
  let parts: string[];
  try {
    // Path params arrive URL-encoded (`/users/%40me`); decode each segment.
    parts = (v[2] ?? "/")
      .split("/")
      .filter(Boolean)
      .map((p) => decodeURIComponent(p));
  } catch {
    return write(res, fail(404, "404: Not Found"), {});
  }
  state.restCalls++;

  let route: Route | undefined;
  let params: Record<string, string> = {};
  let pathKnown = false;
  for (const r of ROUTES) {
    const p = match(r.path, parts);
    if (!p) continue;
    // ROUTES lists literal routes (`/users/@me`) before param routes of the same shape (`/users/:user`).
    pathKnown = true;
    if (r.method === method) {
      route = r;
      params = p;
      break;
    }
  }
  if (!route) {
    await drain();
    // Opcodes and Status Codes, "HTTP": 405 is a method not valid for the location.
    return write(res, pathKnown ? fail(405, "405: Method Not Allowed") : fail(404, "404: Not Found"), {});
  }

  const auth = String(req.headers.authorization ?? "");
  const authorized = auth === `Bot ${state.token}`;
  const routeId = `${route.method} ${route.path}`;
  const major = majorOf(params);
  // Rate Limits › Global Rate Limit: per bot token; "if no authorization header is provided, … the IP address".
  const caller = authorized ? auth : String(req.socket.remoteAddress ?? "anonymous");
  if (route.auth === "bot" && !authorized) {
    await drain();
    const counted = limiter.take(routeId, major, caller);
    return write(res, counted.ok ? fail(401, "401: Unauthorized") : { status: 429, body: counted.body }, counted.headers);
  }

  const f = state.faults.rest429;
  let verdict;
  if (f.count > 0) {
    f.count--;
    verdict = limiter.injected(routeId, major, f.retryAfterMs, f.global ? "global" : f.scope);
  } else {
    verdict = limiter.take(routeId, major, caller);
  }
  if (!verdict.ok) {
    await drain();
    return write(res, { status: 429, body: verdict.body }, verdict.headers);
  }

  for (const [name, value] of Object.entries(params)) {
    const field = SNOWFLAKE_PARAMS[name];
    if (field && value !== "@me" && !isSnowflake(value)) {
      await drain();
      return write(res, fieldError(field, "NUMBER_TYPE_COERCE", `Value "${value}" is not snowflake.`), verdict.headers);
    }
  }

  let answer: Answer;
  try {
    answer = await route.handler({ state, gateway, gatewayUrl, req, url, params });
  } catch (e) {
    if (!(e instanceof BodyError)) throw e;
    answer = e.answer;
  }
  if (!req.readableEnded) await drain();
  write(res, answer, verdict.headers);
}
