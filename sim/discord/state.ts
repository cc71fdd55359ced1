/**
 * The Discord simulator's world: seeded guilds, text channels and users, the bot's identity and
 * application settings, every message and webhook, the record of what the bot sent, and the fault
 * switches. Every wire shape below is typed with the installed discord-api-types (v10), so a
 * required field that goes missing fails `tsc`; `sim/discord/shapes.test.ts` checks the JSON that
 * actually goes over the wire against the same types.
 */
import type {
  APIApplication,
  APIAttachment,
  APIEmbed,
  APIGuild,
  APIGuildMember,
  APIMessage,
  APIRole,
  APITextChannel,
  APIUser,
  APIWebhook,
  ChannelFlags,
  GatewayGuildCreateDispatchData,
  GatewayMessageCreateDispatchData,
  GatewayMessageDeleteDispatchData,
  GuildMemberFlags,
  GuildSystemChannelFlags,
  MessageFlags,
  RESTGetAPICurrentUserGuildsResult,
  RoleFlags,
} from "discord-api-types/v10";

/** Discord's epoch (2015-01-01); ids are real 18/19-digit snowflakes so libraries can read their time. */
const DISCORD_EPOCH = 1420070400000n;
let increment = 0n;
export function snowflake(at = Date.now()): string {
  increment = (increment + 1n) & 0xfffn;
  return (((BigInt(at) - DISCORD_EPOCH) << 22n) | (1n << 17n) | increment).toString();
}
export const isSnowflake = (s: string) => /^\d{17,20}$/.test(s);

/** Permission bits (discord-api-types PermissionFlagsBits). */
export const PERMS = {
  ViewChannel: 1024n,
  SendMessages: 2048n,
  ManageMessages: 8192n,
  EmbedLinks: 16384n,
  AttachFiles: 32768n,
  ReadMessageHistory: 65536n,
  MentionEveryone: 131072n,
  ManageWebhooks: 536870912n,
};
/** Intents (discord-api-types GatewayIntentBits). */
export const INTENTS = { Guilds: 1, GuildMembers: 2, GuildPresences: 256, GuildMessages: 512, MessageContent: 32768 };
/** Every intent bit Discord defines (Gateway "List of Intents"); any other bit is a 4013. */
export const KNOWN_INTENTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 21, 24, 25].reduce((all, bit) => all | (1 << bit), 0);

/** The application's privileged intents, as toggled in the Developer Portal ("Privileged Intents"). */
export type PrivilegedIntents = { guildMembers: boolean; guildPresences: boolean; messageContent: boolean };

export type DiscordUser = APIUser;
export type SimChannel = { id: string; guildId: string; name: string; position: number; topic: string | null };
export type SimGuild = { id: string; name: string; ownerId: string; channels: SimChannel[]; botRoleId: string };
export type SimWebhook = { id: string; token: string; channelId: string; guildId: string; name: string; createdBy: string };
export type SimMessage = {
  id: string;
  channel_id: string;
  guild_id: string;
  author: DiscordUser;
  content: string;
  timestamp: string;
  edited_timestamp?: string | null;
  webhook_id?: string;
  nonce?: string | number;
  message_reference?: APIMessage["message_reference"];
  /** Files a user posted (Message resource › Attachment Object); the URLs are Discord's CDN form. */
  attachments?: APIAttachment[];
  /** Rich embeds (a bot's or a webhook's), or the link previews Discord adds after the fact. */
  embeds?: APIEmbed[];
};
/** One thing the bot put in a channel: a bot message or a webhook execution (with its username). */
export type SentRecord = {
  kind: "message" | "webhook";
  id: string;
  channelId: string;
  guildId: string;
  content: string;
  /** The bot's username for bot messages; the per-message override (or the hook's name) for webhooks. */
  username: string;
  avatarUrl: string | null;
  webhookId: string | null;
  allowedMentions: unknown;
  at: number;
};

export type DiscordFaults = {
  /** The next `count` REST calls answer 429 with `Retry-After` (whole seconds) and `retry_after = retryAfterMs / 1000`. */
  rest429: { count: number; retryAfterMs: number; global: boolean; scope: "user" | "shared" };
  /** Gateway connections are accepted but never hear Hello. */
  deadGateway: boolean;
  /** Every Identify is answered by closing with this code (e.g. 4004 Authentication failed). */
  identifyCloseCode: number | null;
};

/**
 * A file a user posted, as Discord describes it (Message resource › Attachment Object): `url` on
 * Discord's CDN and `proxy_url` on its media proxy, both signed since 2024 (`ex` expiry, `is`
 * issued, `hm` signature; Reference › Signed Attachment CDN URLs). The simulator serves no files.
 */
export function attachmentPayload(channelId: string, file: { filename: string; size?: number; contentType?: string }): APIAttachment {
  const id = snowflake();
  const now = Math.floor(Date.now() / 1000);
  const signed = `?ex=${(now + 86_400).toString(16)}&is=${now.toString(16)}&hm=${id.slice(-16).padStart(64, "0")}&`;
  const path = `attachments/${channelId}/${id}/${encodeURIComponent(file.filename)}`;
  return {
    id,
    filename: file.filename,
    size: file.size ?? 1024,
    url: `https://cdn.discordapp.com/${path}${signed}`,
    proxy_url: `https://media.discordapp.net/${path}${signed}`,
    ...(file.contentType ? { content_type: file.contentType } : {}),
  };
}

export function noFaults(): DiscordFaults {
  return { rest429: { count: 0, retryAfterMs: 200, global: false, scope: "user" }, deadGateway: false, identifyCloseCode: null };
}

export type DiscordState = ReturnType<typeof createDiscordState>;

/** Stable seeded ids (fixed snowflakes from 2024) so tests and demos can name channels. */
export const SEED = {
  token: "sim-bot-token",
  botId: "1180000000000000001",
  applicationId: "1180000000000000001",
  guilds: [
    {
      id: "1180000000000000100",
      name: "Galaxy Fans",
      channels: [
        { id: "1180000000000000101", name: "general", topic: "Talk about anything" },
        { id: "1180000000000000102", name: "relay", topic: "Planet chat relay" },
        { id: "1180000000000000103", name: "off-topic", topic: null },
      ],
    },
    {
      id: "1180000000000000200",
      name: "Test Server",
      channels: [
        { id: "1180000000000000201", name: "chat", topic: null },
        { id: "1180000000000000202", name: "bots", topic: null },
      ],
    },
  ],
  users: [
    { id: "1180000000000001001", username: "alice", global_name: "Alice" },
    { id: "1180000000000001002", username: "bob", global_name: "Bob" },
    { id: "1180000000000001003", username: "carol", global_name: null },
  ],
} as const;

/** Discord's identify budget ("Session Start Limit Object"): 1000 per 24 h. */
const SESSION_START_TOTAL = 1000;
const SESSION_START_WINDOW_MS = 24 * 60 * 60 * 1000;

export function createDiscordState(options: { token?: string; botUsername?: string } = {}) {
  const token = options.token ?? SEED.token;
  const bot: DiscordUser = { id: SEED.botId, username: options.botUsername ?? "GalaCord", discriminator: "0", global_name: null, avatar: null, bot: true };
  const users: DiscordUser[] = SEED.users.map((u) => ({ ...u, discriminator: "0", avatar: null }));
  const guilds: SimGuild[] = SEED.guilds.map((g) => ({
    id: g.id,
    name: g.name,
    ownerId: users[0].id,
    botRoleId: (BigInt(g.id) + 50n).toString(),
    channels: g.channels.map((c, i) => ({ id: c.id, guildId: g.id, name: c.name, position: i, topic: c.topic ?? null })),
  }));
  const state = {
    token,
    bot,
    users,
    guilds,
    /** Developer Portal switches; a privileged intent that is off gets close 4014 on Identify. */
    privilegedIntents: { guildMembers: true, guildPresences: true, messageContent: true } as PrivilegedIntents,
    /** Identify times within the last 24 h (session_start_limit.remaining). */
    identifies: [] as number[],
    messages: new Map<string, SimMessage[]>(),
    webhooks: [] as SimWebhook[],
    sent: [] as SentRecord[],
    /** Edits and deletions the bot made (REST PATCH / DELETE of messages). */
    edits: [] as { channelId: string; id: string; content: string; at: number }[],
    deletes: [] as { channelId: string; id: string; at: number }[],
    faults: noFaults(),
    restCalls: 0,

    channel(id: string): SimChannel | undefined {
      for (const g of guilds) for (const c of g.channels) if (c.id === id) return c;
      return undefined;
    },
    guild(id: string): SimGuild | undefined {
      return guilds.find((g) => g.id === id);
    },
    user(idOrName: string): DiscordUser | undefined {
      if (idOrName === bot.id) return bot;
      return users.find((u) => u.id === idOrName || u.username === idOrName);
    },
    addMessage(m: SimMessage) {
      const list = state.messages.get(m.channel_id) ?? [];
      list.push(m);
      if (list.length > 5000) list.shift();
      state.messages.set(m.channel_id, list);
    },
    findMessage(channelId: string, id: string) {
      return state.messages.get(channelId)?.find((m) => m.id === id);
    },
    removeMessage(channelId: string, id: string): boolean {
      const list = state.messages.get(channelId);
      const i = list?.findIndex((m) => m.id === id) ?? -1;
      if (!list || i < 0) return false;
      list.splice(i, 1);
      return true;
    },
    recordIdentify(now = Date.now()) {
      state.identifies.push(now);
    },
    /** GET /gateway/bot's session_start_limit: 1000 identifies per 24 h, counted for real. */
    sessionStartLimit(now = Date.now()) {
      state.identifies = state.identifies.filter((t) => t > now - SESSION_START_WINDOW_MS);
      const oldest = state.identifies[0];
      return {
        total: SESSION_START_TOTAL,
        remaining: Math.max(0, SESSION_START_TOTAL - state.identifies.length),
        reset_after: oldest === undefined ? SESSION_START_WINDOW_MS : oldest + SESSION_START_WINDOW_MS - now,
        max_concurrency: 1,
      };
    },
    /** Application flags as Discord reports them for an app in < 100 guilds: the "…Limited" bit per enabled privileged intent. */
    applicationFlags(): number {
      const p = state.privilegedIntents;
      return (p.guildPresences ? 1 << 13 : 0) | (p.guildMembers ? 1 << 15 : 0) | (p.messageContent ? 1 << 19 : 0);
    },
    /** Privileged intent bits requested in `intents` that the application has not enabled. */
    disallowedIntents(intents: number): number {
      const p = state.privilegedIntents;
      const off =
        (p.guildMembers ? 0 : INTENTS.GuildMembers) | (p.guildPresences ? 0 : INTENTS.GuildPresences) | (p.messageContent ? 0 : INTENTS.MessageContent);
      return intents & off;
    },
    reset() {
      state.messages.clear();
      state.webhooks.length = 0;
      state.sent.length = 0;
      state.edits.length = 0;
      state.deletes.length = 0;
      state.faults = noFaults();
      state.privilegedIntents = { guildMembers: true, guildPresences: true, messageContent: true };
      state.restCalls = 0;
    },
  };
  return state;
}

// ---- wire shapes (typed by discord-api-types v10) --------------------------------------------------

const joinedAt = (g: SimGuild) => new Date(Number((BigInt(g.id) >> 22n) + DISCORD_EPOCH)).toISOString();

export function channelPayload(c: SimChannel): APITextChannel {
  return {
    id: c.id,
    type: 0,
    guild_id: c.guildId,
    name: c.name,
    position: c.position,
    parent_id: null,
    permission_overwrites: [],
    topic: c.topic,
    nsfw: false,
    last_message_id: null,
    rate_limit_per_user: 0,
    flags: 0 as ChannelFlags,
  };
}

export function rolesPayload(g: SimGuild): APIRole[] {
  const everyone = PERMS.ViewChannel | PERMS.SendMessages | PERMS.ReadMessageHistory;
  const botPerms = everyone | PERMS.ManageMessages | PERMS.EmbedLinks | PERMS.AttachFiles | PERMS.ManageWebhooks;
  const role = (id: string, name: string, position: number, permissions: bigint): APIRole => ({
    id,
    name,
    color: 0,
    // Required since Discord's enhanced role colours (2025); libraries that build a cache read it.
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions: permissions.toString(),
    managed: id !== g.id,
    mentionable: false,
    flags: 0 as RoleFlags,
    ...(id !== g.id ? { tags: { bot_id: SEED.botId } } : {}),
  });
  return [role(g.id, "@everyone", 0, everyone), role(g.botRoleId, "GalaCord", 1, botPerms)];
}

export function memberPayload(state: DiscordState, g: SimGuild, u: DiscordUser): APIGuildMember {
  return {
    user: u,
    nick: null,
    avatar: null,
    banner: null,
    roles: u.id === state.bot.id ? [g.botRoleId] : [],
    joined_at: joinedAt(g),
    deaf: false,
    mute: false,
    flags: 0 as GuildMemberFlags,
  };
}

/** The guild object of `GET /guilds/{id}` (no channels or members; those come in GUILD_CREATE). */
export function guildPayload(g: SimGuild, state: DiscordState): APIGuild {
  return {
    id: g.id,
    name: g.name,
    icon: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: g.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: rolesPayload(g),
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0 as GuildSystemChannelFlags,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    vanity_url_code: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: "en-US" as APIGuild["preferred_locale"],
    nsfw_level: 0,
    hub_type: null,
    incidents_data: null,
    max_members: 500000,
    approximate_member_count: state.users.length + 1,
  };
}

/** GUILD_CREATE: the guild plus the gateway-only fields (Gateway Events "Guild Create"). */
export function guildCreatePayload(state: DiscordState, g: SimGuild): GatewayGuildCreateDispatchData {
  const { approximate_member_count: _a, ...guild } = guildPayload(g, state);
  return {
    ...guild,
    joined_at: joinedAt(g),
    large: false,
    unavailable: false,
    member_count: state.users.length + 1,
    voice_states: [],
    members: [state.bot, ...state.users].map((u) => memberPayload(state, g, u)),
    channels: g.channels.map(channelPayload),
    threads: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

export function partialGuildsPayload(state: DiscordState): RESTGetAPICurrentUserGuildsResult {
  return state.guilds.map((g) => ({ id: g.id, name: g.name, icon: null, banner: null, owner: false, permissions: "0", features: [] }));
}

const MENTION = /<@!?(\d{17,20})>/g;
const ROLE_MENTION = /<@&(\d{17,20})>/g;

export function messagePayload(state: DiscordState, m: SimMessage, depth = 0): APIMessage {
  const mentioned = [...new Set([...m.content.matchAll(MENTION)].map((x) => x[1]))].map((id) => state.user(id)).filter((u) => u !== undefined);
  // Message resource › Message Types: a reply is type 19 and carries `referenced_message` (null once deleted).
  const ref = m.message_reference?.message_id;
  const referenced = ref ? state.findMessage(m.message_reference!.channel_id, ref) : undefined;
  return {
    id: m.id,
    type: ref ? 19 : 0,
    channel_id: m.channel_id,
    author: m.author,
    content: m.content,
    timestamp: m.timestamp,
    edited_timestamp: m.edited_timestamp ?? null,
    tts: false,
    mention_everyone: false,
    mentions: mentioned,
    mention_roles: [...new Set([...m.content.matchAll(ROLE_MENTION)].map((x) => x[1]))],
    attachments: m.attachments ?? [],
    embeds: m.embeds ?? [],
    components: [],
    pinned: false,
    flags: 0 as MessageFlags,
    ...(m.webhook_id ? { webhook_id: m.webhook_id } : {}),
    ...(m.nonce !== undefined ? { nonce: m.nonce } : {}),
    ...(m.message_reference ? { message_reference: m.message_reference } : {}),
    ...(ref && depth === 0 ? { referenced_message: referenced ? messagePayload(state, referenced, 1) : null } : {}),
  };
}

/** MESSAGE_CREATE / MESSAGE_UPDATE: the message plus `guild_id` and the author's `member` (none for webhooks). */
export function messageEventPayload(state: DiscordState, m: SimMessage): GatewayMessageCreateDispatchData {
  const base = messagePayload(state, m);
  const g = state.guild(m.guild_id);
  if (!g) return { ...base, guild_id: m.guild_id };
  const { user: _u, ...member } = memberPayload(state, g, m.author);
  return {
    ...base,
    guild_id: m.guild_id,
    ...(m.webhook_id ? {} : { member }),
    mentions: base.mentions.map((u) => {
      const { user: _mu, ...mm } = memberPayload(state, g, u);
      return { ...u, member: mm };
    }),
  };
}

export function messageDeletePayload(m: { id: string; channel_id: string; guild_id: string }): GatewayMessageDeleteDispatchData {
  return { id: m.id, channel_id: m.channel_id, guild_id: m.guild_id };
}

export function webhookPayload(state: DiscordState, w: SimWebhook, withToken = true): APIWebhook {
  return {
    id: w.id,
    type: 1,
    ...(withToken ? { token: w.token } : {}),
    channel_id: w.channelId,
    guild_id: w.guildId,
    name: w.name,
    avatar: null,
    application_id: state.bot.id,
    user: state.bot,
  };
}

/** `GET /applications/@me` and READY's `application` (flags carry the enabled privileged intents). */
export function applicationPayload(state: DiscordState): APIApplication {
  const flags = state.applicationFlags();
  return {
    id: SEED.applicationId,
    name: state.bot.username,
    icon: null,
    description: "",
    bot_public: false,
    bot_require_code_grant: false,
    bot: state.bot,
    verify_key: "0".repeat(64),
    team: null,
    flags,
    flags_new: String(flags),
    summary: "",
    approximate_guild_count: state.guilds.length,
  };
}
