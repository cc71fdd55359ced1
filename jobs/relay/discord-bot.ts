/**
 * The relay's Discord side: one discord.js 14 Client, created anew for every start (a
 * destroyed Client must not log in again), logged in with our own timeout and backoff
 * (discord.js retries a dead gateway forever). Fatal gateway closes (4004 token refused,
 * 4010-4014) and a refused token end the bot with its error ("Bot Error").
 */
import { ChannelType, Client, Events, GatewayIntentBits, PermissionFlagsBits, type Message, type TextChannel, type Webhook } from "discord.js";
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

export type IncomingDiscord = { channelId: string; author: string; content: string; messageId: string };

export type DiscordBotEvents = {
  onReady(info: { channels: Channel[]; botUserId: string }): void;
  /** Login failed for now: the reason, the attempt number and when the next try is. */
  onStarting(error: string, attempt: number, nextRetryAt: Date): void;
  onFatal(error: string): void;
  onMessage(msg: IncomingDiscord): void;
};

export class DiscordBot {
  client: Client | null = null;
  /** Webhooks we post through (loop prevention ignores their messages). */
  readonly ourWebhooks = new Set<string>();
  #hooks = new Map<string, Promise<Webhook | null>>();
  /** Per channel, sends run in order (one chain each). */
  #chains = new Map<string, Promise<void>>();
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
      ...(this.settings.RELAY_FAST_IDENTIFY === "1" ? { ws: { buildIdentifyThrottler: () => Promise.resolve({ waitForIdentify: async () => {} }) } } : {}),
    });
    this.client = client;
    client.on(Events.Error, (err) => console.warn(`[relay] discord client error: ${errorText(err)}`));
    client.on(Events.ShardDisconnect, (ev) => {
      if (FATAL_CLOSE_CODES.has(ev.code) && this.client === client)
        this.events.onFatal(`Discord closed the gateway: ${FATAL_CLOSE_CODES.get(ev.code)} (${ev.code})`);
    });
    client.on(Events.MessageCreate, (m) => this.#incoming(m));
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

  #incoming(m: Message) {
    const client = this.client;
    if (!client?.user) return;
    // Loop prevention: never the bot's own messages, never our webhooks' posts.
    if (m.author.id === client.user.id) return;
    if (m.webhookId && (this.ourWebhooks.has(m.webhookId) || m.applicationId === client.user.id)) return;
    if (!m.inGuild()) return;
    const author = m.member?.displayName ?? m.author.globalName ?? m.author.username;
    const attachments = [...m.attachments.values()].map((a) => a.url);
    const content = [m.cleanContent, ...attachments].filter(Boolean).join(" ");
    if (!content.trim()) return;
    this.events.onMessage({ channelId: m.channelId, author, content, messageId: m.id });
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
   * Posts a relayed Galaxy line to a channel: through the channel's webhook with the nick as
   * username when the bot may manage webhooks, else as a bot message. In order per channel;
   * discord.js absorbs 429s (it waits Retry-After and retries). Resolves when posted.
   */
  post(channelId: string, nick: string, build: (mode: "webhook" | "bot") => string, username: string | null): Promise<void> {
    const prev = this.#chains.get(channelId) ?? Promise.resolve();
    const next = prev
      .then(() => this.#postNow(channelId, build, username))
      .catch((err: unknown) => {
        console.warn(`[relay] could not post to Discord channel ${channelId}: ${errorText(err)}`);
      });
    this.#chains.set(channelId, next);
    void nick;
    return next;
  }

  async #postNow(channelId: string, build: (mode: "webhook" | "bot") => string, username: string | null): Promise<void> {
    await this.whenReady();
    const client = this.client;
    if (!client || this.signal.aborted) return;
    const channel = client.channels.cache.get(channelId);
    if (!channel || channel.type !== ChannelType.GuildText) throw new Error(`Unknown channel ${channelId}`);
    const hook = username ? await this.#webhook(channel) : null;
    if (hook && username) {
      try {
        await hook.send({ content: build("webhook"), username, allowedMentions: { parse: [] } });
        this.sent++;
        return;
      } catch (err) {
        console.warn(`[relay] webhook post failed, sending as the bot: ${errorText(err)}`);
      }
    }
    await channel.send({ content: build("bot"), allowedMentions: { parse: [] } });
    this.sent++;
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

  /** Sends after `idle` (every queued post done). */
  async idle(): Promise<void> {
    await Promise.all([...this.#chains.values()]);
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
