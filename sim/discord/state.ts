/**
 * The Discord simulator's world: seeded guilds, text channels and users, the bot's identity,
 * every message and webhook, the record of what the bot sent, and the fault switches.
 * Shapes follow discord-api-types v10 (only the fields discord.js 14 reads; reference §2.2).
 */

/** Discord's epoch (2015-01-01); ids are real 18/19-digit snowflakes so discord.js can read their time. */
const DISCORD_EPOCH = 1420070400000n;
let increment = 0n;
export function snowflake(at = Date.now()): string {
  increment = (increment + 1n) & 0xfffn;
  return (((BigInt(at) - DISCORD_EPOCH) << 22n) | (1n << 17n) | increment).toString();
}

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
export const INTENTS = { Guilds: 1, GuildMessages: 512, MessageContent: 32768 };

export type DiscordUser = { id: string; username: string; discriminator: string; global_name: string | null; avatar: null; bot?: boolean };
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
  message_reference?: unknown;
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
  /** The next `count` REST calls answer 429 with `Retry-After: retryAfterMs/1000`. */
  rest429: { count: number; retryAfterMs: number; global: boolean };
  /** Gateway connections are accepted but never hear Hello. */
  deadGateway: boolean;
  /** Every Identify is answered by closing with this code (e.g. 4004 Authentication failed). */
  identifyCloseCode: number | null;
};

export function noFaults(): DiscordFaults {
  return { rest429: { count: 0, retryAfterMs: 200, global: false }, deadGateway: false, identifyCloseCode: null };
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
    reset() {
      state.messages.clear();
      state.webhooks.length = 0;
      state.sent.length = 0;
      state.edits.length = 0;
      state.deletes.length = 0;
      state.faults = noFaults();
      state.restCalls = 0;
    },
  };
  return state;
}

// ---- wire shapes ------------------------------------------------------------------------------

export function channelPayload(c: SimChannel) {
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
  };
}

export function rolesPayload(g: SimGuild) {
  const everyone = PERMS.ViewChannel | PERMS.SendMessages | PERMS.ReadMessageHistory;
  const botPerms = everyone | PERMS.ManageMessages | PERMS.EmbedLinks | PERMS.AttachFiles | PERMS.ManageWebhooks;
  const role = (id: string, name: string, position: number, permissions: bigint) => ({
    id,
    name,
    color: 0,
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions: permissions.toString(),
    managed: id !== g.id,
    mentionable: false,
    flags: 0,
  });
  return [role(g.id, "@everyone", 0, everyone), role(g.botRoleId, "GalaCord", 1, botPerms)];
}

export function guildPayload(state: DiscordState, g: SimGuild) {
  const joined = new Date(Number((BigInt(g.id) >> 22n) + 1420070400000n)).toISOString();
  const member = (u: DiscordUser, roles: string[]) => ({ user: u, nick: null, roles, joined_at: joined, deaf: false, mute: false, flags: 0 });
  return {
    id: g.id,
    name: g.name,
    icon: null,
    owner_id: g.ownerId,
    features: [],
    unavailable: false,
    member_count: state.users.length + 1,
    joined_at: joined,
    large: false,
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    mfa_level: 0,
    system_channel_id: null,
    premium_tier: 0,
    preferred_locale: "en-US",
    roles: rolesPayload(g),
    channels: g.channels.map(channelPayload),
    members: [member(state.bot, [g.botRoleId]), ...state.users.map((u) => member(u, []))],
    threads: [],
    presences: [],
    voice_states: [],
    emojis: [],
    stickers: [],
  };
}

export function messagePayload(m: SimMessage) {
  return {
    id: m.id,
    type: 0,
    channel_id: m.channel_id,
    guild_id: m.guild_id,
    author: m.author,
    content: m.content,
    timestamp: m.timestamp,
    edited_timestamp: m.edited_timestamp ?? null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    components: [],
    pinned: false,
    flags: 0,
    ...(m.webhook_id ? { webhook_id: m.webhook_id } : {}),
    ...(m.nonce !== undefined ? { nonce: m.nonce } : {}),
    ...(m.message_reference ? { message_reference: m.message_reference } : {}),
  };
}

export function webhookPayload(state: DiscordState, w: SimWebhook) {
  return {
    id: w.id,
    type: 1,
    token: w.token,
    channel_id: w.channelId,
    guild_id: w.guildId,
    name: w.name,
    avatar: null,
    application_id: state.bot.id,
    user: state.bot,
  };
}
