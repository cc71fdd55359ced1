/**
 * The Discord simulator's REST API under `/api/v10` (reference §2.3). Errors are Discord's JSON
 * `{ message, code }`; 429s carry `Retry-After` (seconds) and `X-RateLimit-*` headers.
 *
 *   GET  /gateway/bot, /gateway               gateway URL + session_start_limit
 *   GET  /users/@me                           the bot user
 *   GET  /guilds/{id}, /guilds/{id}/channels  seeded guilds and their text channels
 *   GET  /channels/{id}                       a channel
 *   GET  /channels/{id}/messages[?limit]      newest first; GET /channels/{id}/messages/{m}
 *   POST /channels/{id}/messages              JSON or multipart (payload_json) → MESSAGE_CREATE
 *   PATCH|DELETE /channels/{id}/messages/{m}  the bot's own messages → MESSAGE_UPDATE / MESSAGE_DELETE
 *   POST /channels/{id}/typing                204
 *   POST|GET /channels/{id}/webhooks, GET /guilds/{id}/webhooks
 *   GET  /webhooks/{id}[/{token}]; POST /webhooks/{id}/{token}[?wait=true] (no Authorization)
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DiscordGateway } from "./gateway";
import { channelPayload, guildPayload, messagePayload, snowflake, webhookPayload, type DiscordState, type SimMessage } from "./state";

const MAX_BODY = 8 * 1024 * 1024;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (status === 204) {
    res.writeHead(204, headers);
    return void res.end();
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
const error = (res: ServerResponse, status: number, message: string, code = 0) => sendJson(res, status, { message, code });

async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("Request entity too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** JSON or multipart/form-data (`payload_json` + `files[n]`, as @discordjs/rest sends uploads). */
async function readPayload(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const raw = await readRaw(req);
  const type = String(req.headers["content-type"] ?? "");
  try {
    if (type.startsWith("multipart/form-data")) {
      const form = await new Request("http://sim.local/", { method: "POST", headers: { "content-type": type }, body: new Uint8Array(raw) }).formData();
      const json = form.get("payload_json");
      return typeof json === "string" ? (JSON.parse(json) as Record<string, unknown>) : {};
    }
    const text = raw.toString("utf8").trim();
    if (!text) return {};
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const MAX_CONTENT = 2000;

export async function handleRest(
  state: DiscordState,
  gateway: DiscordGateway,
  gatewayUrl: () => string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://sim.local");
  const method = req.method ?? "GET";
  const m = /^\/api\/v10(\/.*)?$/.exec(url.pathname);
  if (!m) return error(res, 404, "404: Not Found (this simulator speaks API v10)");
  // Path params arrive URL-encoded (`/users/%40me`); decode each segment.
  const parts = (m[1] ?? "/")
    .split("/")
    .filter(Boolean)
    .map((p) => decodeURIComponent(p));
  state.restCalls++;

  const f = state.faults.rest429;
  if (f.count > 0) {
    f.count--;
    const secs = f.retryAfterMs / 1000;
    await readRaw(req).catch(() => undefined);
    return sendJson(
      res,
      429,
      { message: "You are being rate limited.", retry_after: secs, global: f.global, code: 0 },
      {
        "retry-after": String(Math.max(0, secs)),
        "x-ratelimit-scope": f.global ? "global" : "user",
        ...(f.global ? { "x-ratelimit-global": "true" } : {}),
      },
    );
  }

  // Webhook execution authenticates by the token in the path (discord.js sends no Authorization).
  if (parts[0] === "webhooks" && parts.length >= 3) return handleWebhookToken(state, gateway, parts, url, method, req, res);

  const auth = String(req.headers.authorization ?? "");
  if (auth !== `Bot ${state.token}`) return error(res, 401, "401: Unauthorized");

  const route = `${method} /${parts.map((p, i) => (/^\d{17,20}$/.test(p) && i > 0 ? ":id" : p)).join("/")}`;
  switch (route) {
    case "GET /gateway/bot":
      return sendJson(res, 200, {
        url: gatewayUrl(),
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
      });
    case "GET /gateway":
      return sendJson(res, 200, { url: gatewayUrl() });
    case "GET /users/@me":
      return sendJson(res, 200, state.bot);
    case "GET /users/@me/guilds":
      return sendJson(
        res,
        200,
        state.guilds.map((g) => ({ id: g.id, name: g.name, icon: null, owner: false, permissions: "0", features: [] })),
      );
    case "GET /guilds/:id": {
      const g = state.guild(parts[1]);
      if (!g) return error(res, 404, "Unknown Guild", 10004);
      const { channels: _c, members: _m, ...rest } = guildPayload(state, g);
      return sendJson(res, 200, rest);
    }
    case "GET /guilds/:id/channels": {
      const g = state.guild(parts[1]);
      if (!g) return error(res, 404, "Unknown Guild", 10004);
      return sendJson(res, 200, g.channels.map(channelPayload));
    }
    case "GET /guilds/:id/webhooks": {
      const g = state.guild(parts[1]);
      if (!g) return error(res, 404, "Unknown Guild", 10004);
      return sendJson(
        res,
        200,
        state.webhooks.filter((w) => w.guildId === g.id).map((w) => webhookPayload(state, w)),
      );
    }
  }

  if (parts[0] === "channels" && parts[1]) {
    const channel = state.channel(parts[1]);
    if (!channel) return error(res, 404, "Unknown Channel", 10003);
    switch (route) {
      case "GET /channels/:id":
        return sendJson(res, 200, channelPayload(channel));
      case "GET /channels/:id/messages": {
        const limit = Math.min(100, Math.max(1, Number(url.searchParams.get("limit") ?? 50) || 50));
        const list = (state.messages.get(channel.id) ?? []).slice(-limit).reverse();
        return sendJson(res, 200, list.map(messagePayload));
      }
      case "GET /channels/:id/messages/:id": {
        const msg = state.findMessage(channel.id, parts[3]);
        if (!msg) return error(res, 404, "Unknown Message", 10008);
        return sendJson(res, 200, messagePayload(msg));
      }
      case "PATCH /channels/:id/messages/:id": {
        const msg = state.findMessage(channel.id, parts[3]);
        if (!msg) return error(res, 404, "Unknown Message", 10008);
        if (msg.author.id !== state.bot.id) return error(res, 403, "Cannot edit a message authored by another user", 50005);
        const body = await readPayload(req);
        if (!body) return error(res, 400, "400: Bad Request", 50109);
        if (typeof body.content === "string") {
          if (!body.content || body.content.length > MAX_CONTENT) return error(res, 400, "Invalid Form Body: content must be 1 to 2000 in length.", 50035);
          msg.content = body.content;
        }
        msg.edited_timestamp = new Date().toISOString();
        state.edits.push({ channelId: channel.id, id: msg.id, content: msg.content, at: Date.now() });
        const payload = messagePayload(msg);
        gateway.dispatchMessage("MESSAGE_UPDATE", payload);
        return sendJson(res, 200, payload);
      }
      case "DELETE /channels/:id/messages/:id": {
        const msg = state.findMessage(channel.id, parts[3]);
        if (!msg) return error(res, 404, "Unknown Message", 10008);
        state.removeMessage(channel.id, msg.id);
        state.deletes.push({ channelId: channel.id, id: msg.id, at: Date.now() });
        gateway.dispatchDelete({ id: msg.id, channel_id: channel.id, guild_id: channel.guildId });
        return sendJson(res, 204, null);
      }
      case "POST /channels/:id/typing":
        return sendJson(res, 204, null);
      case "POST /channels/:id/messages": {
        const body = await readPayload(req);
        if (!body) return error(res, 400, "400: Bad Request", 50109);
        const content = typeof body.content === "string" ? body.content : "";
        if (!content) return error(res, 400, "Cannot send an empty message", 50006);
        if (content.length > MAX_CONTENT) return error(res, 400, "Invalid Form Body: content must be 2000 or fewer in length.", 50035);
        const msg: SimMessage = {
          id: snowflake(),
          channel_id: channel.id,
          guild_id: channel.guildId,
          author: state.bot,
          content,
          timestamp: new Date().toISOString(),
          ...(typeof body.nonce === "string" || typeof body.nonce === "number" ? { nonce: body.nonce } : {}),
          ...(body.message_reference ? { message_reference: body.message_reference } : {}),
        };
        state.addMessage(msg);
        state.sent.push({
          kind: "message",
          id: msg.id,
          channelId: channel.id,
          guildId: channel.guildId,
          content,
          username: state.bot.username,
          avatarUrl: null,
          webhookId: null,
          allowedMentions: body.allowed_mentions ?? null,
          at: Date.now(),
        });
        const payload = messagePayload(msg);
        gateway.dispatchMessage("MESSAGE_CREATE", payload);
        return sendJson(res, 200, payload);
      }
      case "GET /channels/:id/webhooks":
        return sendJson(
          res,
          200,
          state.webhooks.filter((w) => w.channelId === channel.id).map((w) => webhookPayload(state, w)),
        );
      case "POST /channels/:id/webhooks": {
        const body = await readPayload(req);
        const name = typeof body?.name === "string" ? body.name : "";
        if (name.length < 1 || name.length > 80) return error(res, 400, "Invalid Form Body: name must be between 1 and 80 in length.", 50035);
        if (state.webhooks.filter((w) => w.channelId === channel.id).length >= 15) return error(res, 400, "Maximum number of webhooks reached (15)", 30007);
        const hook = {
          id: snowflake(),
          token: randomToken(),
          channelId: channel.id,
          guildId: channel.guildId,
          name,
          createdBy: state.bot.id,
        };
        state.webhooks.push(hook);
        return sendJson(res, 200, webhookPayload(state, hook));
      }
    }
  }
  if (route === "GET /webhooks/:id") {
    const hook = state.webhooks.find((w) => w.id === parts[1]);
    if (!hook) return error(res, 404, "Unknown Webhook", 10015);
    return sendJson(res, 200, webhookPayload(state, hook));
  }
  return error(res, 404, "404: Not Found");
}

function randomToken() {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let t = "";
  for (let i = 0; i < 68; i++) t += abc[Math.floor(Math.random() * abc.length)];
  return t;
}

async function handleWebhookToken(
  state: DiscordState,
  gateway: DiscordGateway,
  parts: string[],
  url: URL,
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const hook = state.webhooks.find((w) => w.id === parts[1]);
  if (!hook || hook.token !== parts[2]) return error(res, 401, "Invalid Webhook Token", 50027);
  if (parts.length === 3 && method === "GET") return sendJson(res, 200, webhookPayload(state, hook));
  if (parts.length !== 3 || method !== "POST") return error(res, 404, "404: Not Found");
  const body = await readPayload(req);
  if (!body) return error(res, 400, "400: Bad Request", 50109);
  const content = typeof body.content === "string" ? body.content : "";
  if (!content) return error(res, 400, "Cannot send an empty message", 50006);
  if (content.length > MAX_CONTENT) return error(res, 400, "Invalid Form Body: content must be 2000 or fewer in length.", 50035);
  const override = typeof body.username === "string" ? body.username : null;
  if (override !== null && (override.length < 1 || override.length > 80 || /discord/i.test(override))) {
    return error(res, 400, "Invalid Form Body: username is not allowed.", 50035);
  }
  const username = override ?? hook.name;
  const avatarUrl = typeof body.avatar_url === "string" ? body.avatar_url : null;
  const msg: SimMessage = {
    id: snowflake(),
    channel_id: hook.channelId,
    guild_id: hook.guildId,
    author: { id: hook.id, username, discriminator: "0000", global_name: null, avatar: null, bot: true },
    content,
    timestamp: new Date().toISOString(),
    webhook_id: hook.id,
  };
  state.addMessage(msg);
  state.sent.push({
    kind: "webhook",
    id: msg.id,
    channelId: hook.channelId,
    guildId: hook.guildId,
    content,
    username,
    avatarUrl,
    webhookId: hook.id,
    allowedMentions: body.allowed_mentions ?? null,
    at: Date.now(),
  });
  const payload = messagePayload(msg);
  gateway.dispatchMessage("MESSAGE_CREATE", payload);
  if (url.searchParams.get("wait") === "true") return sendJson(res, 200, payload);
  return sendJson(res, 204, null);
}
