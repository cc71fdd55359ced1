/**
 * The relay's Discord side: one discord.js 14 Client, created anew for every start (a
 * destroyed Client must not log in again), logged in with our own timeout and backoff
 * (discord.js retries a dead gateway forever). Fatal gateway closes (4004 token refused,
 * 4010-4014) and a refused token end the bot with its error ("Bot Error").
 */
import { countRelayMessage } from "~/utils/metrics.server";
import {
  ChannelType,
  Client,
  Events,
  GatewayIntentBits,
  Partials,
  PermissionFlagsBits,
  type Message,
  type PartialMessage,
  type TextChannel,
  type Webhook,
} from "discord.js";
import type { Channel } from "#api/galacord";
import { errorText } from "~/utils/errors";
import { backoff, type RelaySettings } from "./settings";
import { pause } from "~/utils/pause";

/** Close codes after which discord.js does not reconnect (Discord's "do not reconnect" list). */
export const FATAL_CLOSE_CODES = new Map([
  [4004, "Authentication failed"],
  [4010, "Invalid shard"],
  [4011, "Sharding required"],
  [4012, "Invalid API version"],
  [4013, "Invalid intents"],
  [4014, "Disallowed intents"],
]);
const FATAL_LOGIN =
  /Authentication failed|invalid token|TokenInvalid|disallowed intents|Invalid intent|Sharding required|Invalid shard|Invalid API version|DISCORD_TOKEN/i;

export class FatalBotError extends Error {}

export type IncomingDiscord = {
  channelId: string;
  messageId: string;
  author: string;
  /** The text with mentions cleaned, then the attachments' and embeds' URLs (Galaxy is text only). */
  content: string;
  /** A reply: the message it answers, and (when the bot has it) who wrote it and what. */
  reply: { messageId: string; author: string | null; content: string | null } | null;
};

export type DiscordBotEvents = {
  onReady(info: { channels: Channel[]; botUserId: string }): void;
  /** Login failed for now: the reason, the attempt number and when the next try is. */
  onStarting(error: string, attempt: number, nextRetryAt: Date): void;
  onFatal(error: string): void;
  onMessage(msg: IncomingDiscord): void;
  /** A user edited a message (edited_timestamp set; link previews are not edits). */
  onEdit(msg: IncomingDiscord): void;
  onDelete(msg: { channelId: string; messageId: string }): void;
  /** The Discord-bound backlog changed (pendingFor / droppedFor). */
  onBacklog(): void;
};

/** One relayed Galaxy line waiting to be posted. */
type Post = {
  build: (mode: "webhook" | "bot") => string;
  username: string | null;
  /** Post as a reply to this message (a bot message: webhooks cannot reply). */
  replyTo: string | null;
  /** The relay connection it came from (its backlog on the GalaCord row). */
  origin: string;
  resolve: (id: string | null) => void;
  /** When it was queued (the relay latency of /metrics). */
  at?: number;
};
type ChannelQueue = { items: Post[]; current: Post | null };

/** A display name: server nickname, else global name, else username. */
function displayName(m: Message | PartialMessage): string {
  return m.member?.displayName ?? m.author?.globalName ?? m.author?.username ?? "someone";
}

/** The message as Galaxy text: cleaned content, then attachment and embed URLs not already in it. */
export function messageText(m: Message | PartialMessage): string {
  const content = m.cleanContent ?? "";
  const urls: string[] = [];
  for (const a of m.attachments.values()) urls.push(a.url);
  for (const e of m.embeds) {
    const url = e.url ?? e.image?.url ?? e.video?.url ?? e.thumbnail?.url;
    if (url) urls.push(url);
  }
  const extra = [...new Set(urls)].filter((u) => !content.includes(u));
  return [content, ...extra].filter(Boolean).join(" ");
}

export class DiscordBot {
  client: Client | null = null;
  /** Webhooks we post through (loop prevention ignores their messages). */
  readonly ourWebhooks = new Set<string>();
  #hooks = new Map<string, Promise<Webhook | null>>();
  /** Per channel, posts run in order, one at a time; at most RELAY_DISCORD_QUEUE_MAX wait. */
  #queues = new Map<string, ChannelQueue>();
  #dropped = new Map<string, number>();
  #ready = false;
  #readyWaiters: (() => void)[] = [];
  sent = 0;

  constructor(
    private readonly settings: RelaySettings,
    private readonly events: DiscordBotEvents,
    private readonly signal: AbortSignal,
  ) {}

  get ready() {
    return this.#ready;
  }

  /** Logs in (with backoff) until ready, fatal, or aborted. Never throws. */
  async run(): Promise<void> {
    let attempt = 0;
    while (!this.signal.aborted) {
      attempt++;
      try {
        await this.#loginOnce();
        return;
      } catch (err) {
        await this.#destroy();
        if (this.signal.aborted) return;
        const text = errorText(err);
        if (err instanceof FatalBotError || FATAL_LOGIN.test(text)) {
          this.events.onFatal(text);
          return;
        }
        const wait = backoff(attempt, this.settings.RELAY_BACKOFF_MS, this.settings.RELAY_BACKOFF_MAX_MS);
        this.events.onStarting(text, attempt, new Date(Date.now() + wait));
        await pause(wait, this.signal);
      }
    }
  }

  async #loginOnce(): Promise<void> {
    const token = this.settings.DISCORD_TOKEN;
    if (!token) throw new FatalBotError("DISCORD_TOKEN is not set: the bot cannot log in to Discord");
    const client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
      rest: { api: this.settings.DISCORD_API_URL },
      allowedMentions: { parse: [] },
      // Edits and deletes of messages no longer in discord.js's cache still arrive (our map knows them).
      partials: [Partials.Message],
      ...(this.settings.RELAY_FAST_IDENTIFY === "1" ? { ws: { buildIdentifyThrottler: () => Promise.resolve({ waitForIdentify: async () => {} }) } } : {}),
    });
    this.client = client;
    client.on(Events.Error, (err) => console.warn(`[relay] discord client error: ${errorText(err)}`));
    client.on(Events.ShardDisconnect, (ev) => {
      if (FATAL_CLOSE_CODES.has(ev.code) && this.client === client)
        this.events.onFatal(`Discord closed the gateway: ${FATAL_CLOSE_CODES.get(ev.code)} (${ev.code})`);
    });
    client.on(Events.MessageCreate, (m) => {
      const msg = this.#incoming(m);
      if (msg) this.events.onMessage(msg);
    });
    client.on(Events.MessageUpdate, (old, m) => {
      // matterbridge: an edit is an update with edited_timestamp (a link preview has none).
      if (!m.editedTimestamp || (!old.partial && old.content === m.content)) return;
      const msg = this.#incoming(m);
      if (msg) this.events.onEdit(msg);
    });
    client.on(Events.MessageDelete, (m) => this.events.onDelete({ channelId: m.channelId, messageId: m.id }));
    client.on(Events.MessageBulkDelete, (messages, channel) => {
      for (const id of messages.keys()) this.events.onDelete({ channelId: channel.id, messageId: id });
    });
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("Discord login timed out")), this.settings.RELAY_LOGIN_TIMEOUT_MS);
    });
    const aborted = new Promise<never>((_, reject) => this.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));
    try {
      await Promise.race([Promise.all([client.login(token), ready]), timeout, aborted]);
    } finally {
      clearTimeout(timer);
    }
    this.#ready = true;
    for (const w of this.#readyWaiters.splice(0)) w();
    this.events.onReady({ channels: this.channels(), botUserId: client.user!.id });
  }

  /** The guild text channels the bot sees, by server then position. */
  channels(): Channel[] {
    const client = this.client;
    if (!client) return [];
    const out: Channel[] = [];
    const guilds = [...client.guilds.cache.values()].sort((a, b) => a.name.localeCompare(b.name));
    for (const g of guilds) {
      const texts = [...g.channels.cache.values()]
        .filter((c): c is TextChannel => c.type === ChannelType.GuildText)
        .sort((a, b) => a.position - b.position || a.name.localeCompare(b.name));
      for (const c of texts) out.push({ id: c.id, name: c.name, guildId: g.id, guildName: g.name });
    }
    return out;
  }

  #incoming(m: Message | PartialMessage): IncomingDiscord | null {
    const client = this.client;
    if (!client?.user || !m.author) return null;
    // Loop prevention: never the bot's own messages, never our webhooks' posts.
    if (m.author.id === client.user.id) return null;
    if (m.webhookId && (this.ourWebhooks.has(m.webhookId) || m.applicationId === client.user.id)) return null;
    if (!m.inGuild()) return null;
    const content = messageText(m);
    if (!content.trim()) return null;
    const refId = m.reference?.messageId && m.reference.channelId === m.channelId ? m.reference.messageId : null;
    const ref = refId ? m.channel.messages.cache.get(refId) : undefined;
    return {
      channelId: m.channelId,
      messageId: m.id,
      author: displayName(m),
      content,
      reply: refId ? { messageId: refId, author: ref && !ref.partial ? displayName(ref) : null, content: ref && !ref.partial ? messageText(ref) : null } : null,
    };
  }

  /** Waits for clientReady (or abort). */
  whenReady(): Promise<void> {
    if (this.#ready || this.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      this.#readyWaiters.push(resolve);
      this.signal.addEventListener("abort", () => resolve(), { once: true });
    });
  }

  /**
   * Queues a relayed Galaxy line for a channel: posted through the channel's webhook with the
   * name as username when the bot may manage webhooks, else (or when it is a reply, which
   * webhooks cannot make) as a bot message. In order per channel, one at a time; discord.js
   * absorbs 429s (it waits Retry-After and retries), so while Discord rate-limits the backlog
   * waits here, visible (pendingFor) and bounded (RELAY_DISCORD_QUEUE_MAX per channel: the
   * oldest waiting line is dropped beyond it, counted in droppedFor). Resolves with the posted
   * message's id (null when dropped or refused).
   */
  post(channelId: string, post: Omit<Post, "resolve">): Promise<string | null> {
    return new Promise((resolve) => {
      let q = this.#queues.get(channelId);
      if (!q) this.#queues.set(channelId, (q = { items: [], current: null }));
      q.items.push({ ...post, resolve, at: Date.now() });
      if (q.items.length > this.settings.RELAY_DISCORD_QUEUE_MAX) {
        const old = q.items.shift()!;
        this.#dropped.set(old.origin, (this.#dropped.get(old.origin) ?? 0) + 1);
        countRelayMessage("to_discord", "dropped");
        console.warn(`[relay] Discord backlog for channel ${channelId} over ${this.settings.RELAY_DISCORD_QUEUE_MAX}: the oldest line is dropped`);
        old.resolve(null);
      }
      this.events.onBacklog();
      if (!q.current) void this.#drainChannel(channelId, q);
    });
  }

  async #drainChannel(channelId: string, q: ChannelQueue) {
    while (q.items.length) {
      const p = (q.current = q.items.shift()!);
      let id: string | null = null;
      try {
        id = await this.#postNow(channelId, p);
      } catch (err) {
        console.warn(`[relay] could not post to Discord channel ${channelId}: ${errorText(err)}`);
      }
      q.current = null;
      if (id) countRelayMessage("to_discord", "relayed", p.at);
      p.resolve(id);
      this.events.onBacklog();
    }
  }

  /** Lines from this relay connection waiting for Discord (the one being posted included). */
  pendingFor(origin: string): number {
    let n = 0;
    for (const q of this.#queues.values()) {
      if (q.current?.origin === origin) n++;
      for (const p of q.items) if (p.origin === origin) n++;
    }
    return n;
  }

  /** Lines from this relay connection dropped because the channel's backlog was full. */
  droppedFor(origin: string): number {
    return this.#dropped.get(origin) ?? 0;
  }

  async #postNow(channelId: string, p: Post): Promise<string | null> {
    await this.whenReady();
    const client = this.client;
    if (!client || this.signal.aborted) return null;
    const channel = client.channels.cache.get(channelId);
    if (!channel || channel.type !== ChannelType.GuildText) throw new Error(`Unknown channel ${channelId}`);
    if (p.replyTo) {
      const m = await channel.send({
        content: p.build("bot"),
        reply: { messageReference: p.replyTo, failIfNotExists: false },
        allowedMentions: { parse: [], repliedUser: false },
      });
      this.sent++;
      return m.id;
    }
    const hook = p.username ? await this.#webhook(channel) : null;
    if (hook && p.username) {
      try {
        const m = await hook.send({ content: p.build("webhook"), username: p.username, allowedMentions: { parse: [] } });
        this.sent++;
        return m.id;
      } catch (err) {
        console.warn(`[relay] webhook post failed, sending as the bot: ${errorText(err)}`);
      }
    }
    const m = await channel.send({ content: p.build("bot"), allowedMentions: { parse: [] } });
    this.sent++;
    return m.id;
  }

  #webhook(channel: TextChannel): Promise<Webhook | null> {
    let hook = this.#hooks.get(channel.id);
    if (!hook) {
      hook = this.#findOrCreateWebhook(channel).catch((err: unknown) => {
        console.warn(`[relay] no webhook for #${channel.name}: ${errorText(err)}`);
        this.#hooks.delete(channel.id);
        return null;
      });
      this.#hooks.set(channel.id, hook);
    }
    return hook;
  }

  async #findOrCreateWebhook(channel: TextChannel): Promise<Webhook | null> {
    const me = channel.guild.members.me;
    if (!me || !channel.permissionsFor(me).has(PermissionFlagsBits.ManageWebhooks)) return null;
    const botId = this.client!.user!.id;
    const existing = (await channel.fetchWebhooks()).find(
      (w) => w.token && (w.owner?.id === botId || w.applicationId === botId) && w.name === "GalaCord relay",
    );
    const hook = existing ?? (await channel.createWebhook({ name: "GalaCord relay" }));
    this.ourWebhooks.add(hook.id);
    return hook;
  }

  /** Looks up (or creates) the channel's webhook ahead of traffic, so its posts are known as ours. */
  prepare(channelId: string) {
    const channel = this.client?.channels.cache.get(channelId);
    if (this.#ready && channel && channel.type === ChannelType.GuildText) void this.#webhook(channel);
  }

  async #destroy() {
    const client = this.client;
    this.client = null;
    this.#ready = false;
    this.#hooks.clear();
    // destroy() can wait on a gateway that never said Hello: never longer than 2 s.
    if (client) await Promise.race([client.destroy().catch(() => {}), new Promise((r) => setTimeout(r, 2_000).unref())]);
  }

  async stop(): Promise<void> {
    for (const w of this.#readyWaiters.splice(0)) w();
    await this.#destroy();
  }
}
