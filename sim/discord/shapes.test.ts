/**
 * Every shape the simulator sends validates against the installed discord-api-types (issue 22 A).
 *
 * The builders in state.ts are typed with discord-api-types, so `tsc` already refuses a builder that
 * drops a required field. This test checks what really goes over the wire: it drives the simulator
 * (raw WebSocket and HTTP), collects each gateway frame and REST answer, writes them as object
 * literals annotated with their discord-api-types type, and type-checks that source with the
 * TypeScript compiler. A missing required field, a wrong type or an undocumented extra field fails.
 */
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startDiscordSimulator, type DiscordSimulator } from "./server";
import { SEED } from "./state";

let sim: DiscordSimulator;
const GENERAL = SEED.guilds[0].channels[0].id;
const RELAY = SEED.guilds[0].channels[1].id;
const FANS = SEED.guilds[0].id;

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0, heartbeatIntervalMs: 1000 });
});
afterAll(async () => {
  await sim.close();
});

/** One observed payload and the discord-api-types type (an expression over `V10`/`V9`) it must satisfy. */
type Sample = { name: string; type: string; value: unknown };

/**
 * Frames whose `d` Discord sends as `null` but discord-api-types models as `undefined` (JSON has no
 * undefined): checked as the type with `d: null`.
 */
const NULL_D = (t: string) => `Omit<${t}, "d"> & { d: null }`;

/**
 * JSON carries an enum as its value, so each type is checked through `Wire<T>`: a string enum as the
 * union of its values ("READY", "en-US"), a numeric enum as the union of its numbers (a channel type
 * must still be one Discord defines), and bit-flag fields as any number (0 and combinations are not
 * members of the flag enums). Optional and required fields keep their meaning.
 */
const WIRE = `
type FlagKey = "flags" | "public_flags" | "system_channel_flags";
type Wire<T> = T extends string
  ? string extends T ? string : \`\${T}\`
  : T extends number
    ? number extends T ? number : \`\${T}\` extends \`\${infer N extends number}\` ? N : number
    : T extends boolean | null | undefined | bigint
      ? T
      : T extends object
        ? { [K in keyof T]: K extends FlagKey ? number : Wire<T[K]> }
        : T;`;

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Type-checks groups of samples against discord-api-types in one compiler run (one virtual module per
 * group); returns, per group, one line per problem naming the sample.
 */
function typeCheck(groups: Record<string, Sample[]>): Record<string, string[]> {
  const files = new Map<string, { source: string; owner: string[]; header: number; group: string }>();
  for (const [group, samples] of Object.entries(groups)) {
    const lines = [`import type * as V10 from "discord-api-types/v10";`, `import type * as V9 from "discord-api-types/v9";`, ...WIRE.trim().split("\n")];
    const header = lines.length;
    const owner: string[] = [];
    samples.forEach((s, i) => {
      const text = `export const sample${i}: Wire<${s.type}> = ${JSON.stringify(s.value, null, 1)};`;
      lines.push(text);
      for (let n = text.split("\n").length; n > 0; n--) owner.push(s.name);
    });
    files.set(path.join(ROOT, `sim/discord/__wire_shapes_${group}__.ts`), { source: lines.join("\n"), owner, header, group });
  }
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts"],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, ...rest) => {
    const virtual = files.get(path.resolve(file));
    return virtual ? ts.createSourceFile(file, virtual.source, lang) : getSourceFile(file, lang, ...rest);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => files.has(path.resolve(file)) || fileExists(file);
  const program = ts.createProgram([...files.keys()], options, host);
  const out: Record<string, string[]> = Object.fromEntries(Object.keys(groups).map((g) => [g, [] as string[]]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const virtual = d.file ? files.get(path.resolve(d.file.fileName)) : undefined;
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!virtual) throw new Error(`type-check setup: ${text}`);
    out[virtual.group].push(`${virtual.owner[line - virtual.header] ?? "?"}: ${text}`);
  }
  return out;
}

type Frame = { op: number; d: unknown; s: number | null; t: string | null };
function socket(url: string) {
  const ws = new WebSocket(url);
  const frames: Frame[] = [];
  ws.on("message", (data) => frames.push(JSON.parse(String(data)) as Frame));
  const until = async (match: (f: Frame) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const f = frames.find(match);
      if (f) return f;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error("frame never came");
  };
  const send = (op: number, d: unknown) => ws.send(JSON.stringify({ op, d }));
  return { ws, frames, until, send };
}

async function collect(): Promise<Sample[]> {
  const samples: Sample[] = [];
  const control = (p: string, body: unknown) =>
    fetch(`${sim.controlUrl}${p}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(
      (r) => r.json() as Promise<{ id: string }>,
    );
  const rest = async (name: string, type: string, p: string, init: RequestInit & { auth?: boolean; status?: number } = {}) => {
    const res = await fetch(`${sim.url}/api${p}`, {
      ...init,
      headers: { ...(init.auth === false ? {} : { authorization: `Bot ${sim.token}` }), ...(init.body ? { "content-type": "application/json" } : {}) },
    });
    expect(res.status, name).toBe(init.status ?? 200);
    const value = (await res.json()) as unknown;
    samples.push({ name, type, value });
    return value as Record<string, unknown>;
  };
  const post = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) });

  // The gateway, v10: everything a bot session receives.
  const c = socket(`${sim.gatewayUrl}?v=10&encoding=json`);
  const frame = async (name: string, type: string, match: (f: Frame) => boolean) => samples.push({ name, type, value: await c.until(match) });
  await frame("HELLO", "V10.GatewayHello", (f) => f.op === 10);
  c.send(2, { token: sim.token, intents: 1 | 512 | 32768, properties: { os: "linux", browser: "shapes", device: "shapes" } });
  c.send(1, null);
  await frame("READY", "V10.GatewayReadyDispatch", (f) => f.t === "READY");
  await frame("GUILD_CREATE", "V10.GatewayGuildCreateDispatch", (f) => f.t === "GUILD_CREATE");
  await frame("HEARTBEAT_ACK", NULL_D("V10.GatewayHeartbeatAck"), (f) => f.op === 11);
  const user = await control("messages", { channelId: GENERAL, username: "bob", content: `hi <@${SEED.botId}>` });
  await frame("MESSAGE_CREATE (a user, with a mention)", "V10.GatewayMessageCreateDispatch", (f) => f.t === "MESSAGE_CREATE");
  await control("messages/edit", { channelId: GENERAL, messageId: user.id, content: "edited" });
  await frame("MESSAGE_UPDATE", "V10.GatewayMessageUpdateDispatch", (f) => f.t === "MESSAGE_UPDATE");
  await control("messages/delete", { channelId: GENERAL, messageId: user.id });
  await frame("MESSAGE_DELETE", "V10.GatewayMessageDeleteDispatch", (f) => f.t === "MESSAGE_DELETE");
  c.send(8, { guild_id: FANS, query: "", limit: 0, nonce: "x" });
  await frame("GUILD_MEMBERS_CHUNK", "V10.GatewayGuildMembersChunkDispatch", (f) => f.t === "GUILD_MEMBERS_CHUNK");

  // REST, each answer as Discord's route documents it.
  await rest("GET /gateway", "V10.RESTGetAPIGatewayResult", "/v10/gateway", { auth: false });
  await rest("GET /gateway/bot", "V10.RESTGetAPIGatewayBotResult", "/v10/gateway/bot");
  await rest("GET /users/@me", "V10.RESTGetAPICurrentUserResult", "/v10/users/@me");
  await rest("GET /users/@me/guilds", "V10.RESTGetAPICurrentUserGuildsResult", "/v10/users/@me/guilds");
  await rest("GET /users/{id}", "V10.RESTGetAPIUserResult", `/v10/users/${SEED.users[0].id}`);
  await rest("GET /applications/@me", "V10.RESTGetCurrentApplicationResult", "/v10/applications/@me");
  await rest("GET /guilds/{id}", "V10.RESTGetAPIGuildResult", `/v10/guilds/${FANS}?with_counts=true`);
  // discord-api-types types this route as the base APIGuildChannel[] (no `position`, so every real answer
  // would fail the excess-field check); Discord's docs say it returns channel objects, so each is checked as one.
  await rest("GET /guilds/{id}/channels", "V10.APIChannel[]", `/v10/guilds/${FANS}/channels`);
  await rest("GET /guilds/{id}/roles", "V10.RESTGetAPIGuildRolesResult", `/v10/guilds/${FANS}/roles`);
  await rest("GET /guilds/{id}/members/{user}", "V10.RESTGetAPIGuildMemberResult", `/v10/guilds/${FANS}/members/${SEED.botId}`);
  await rest("GET /channels/{id}", "V10.RESTGetAPIChannelResult", `/v10/channels/${RELAY}`);
  const sent = await rest("POST /channels/{id}/messages", "V10.RESTPostAPIChannelMessageResult", `/v10/channels/${RELAY}/messages`, post({ content: "hello" }));
  await frame("MESSAGE_CREATE (the bot's own)", "V10.GatewayMessageCreateDispatch", (f) => f.t === "MESSAGE_CREATE" && (f.d as { id: string }).id === sent.id);
  await rest("PATCH /channels/{id}/messages/{m}", "V10.RESTPatchAPIChannelMessageResult", `/v10/channels/${RELAY}/messages/${String(sent.id)}`, {
    method: "PATCH",
    body: JSON.stringify({ content: "hello again" }),
  });
  const reply = await rest("POST /channels/{id}/messages (a reply)", "V10.RESTPostAPIChannelMessageResult", `/v10/channels/${RELAY}/messages`, {
    ...post({ content: "a reply", message_reference: { message_id: sent.id } }),
  });
  await frame("MESSAGE_CREATE (a reply)", "V10.GatewayMessageCreateDispatch", (f) => f.t === "MESSAGE_CREATE" && (f.d as { id: string }).id === reply.id);
  await rest("GET /channels/{id}/messages", "V10.RESTGetAPIChannelMessagesResult", `/v10/channels/${RELAY}/messages?limit=10`);
  await rest("GET /channels/{id}/messages/{m}", "V10.RESTGetAPIChannelMessageResult", `/v10/channels/${RELAY}/messages/${String(sent.id)}`);
  const hook = await rest("POST /channels/{id}/webhooks", "V10.RESTPostAPIChannelWebhookResult", `/v10/channels/${RELAY}/webhooks`, post({ name: "relay" }));
  await rest("GET /channels/{id}/webhooks", "V10.RESTGetAPIChannelWebhooksResult", `/v10/channels/${RELAY}/webhooks`);
  await rest("GET /guilds/{id}/webhooks", "V10.RESTGetAPIGuildWebhooksResult", `/v10/guilds/${FANS}/webhooks`);
  await rest("GET /webhooks/{id}", "V10.RESTGetAPIWebhookResult", `/v10/webhooks/${String(hook.id)}`);
  const hookPath = `/v10/webhooks/${String(hook.id)}/${String(hook.token)}`;
  await rest("GET /webhooks/{id}/{token}", "V10.RESTGetAPIWebhookWithTokenResult", hookPath, { auth: false });
  const wm = await rest("POST /webhooks/{id}/{token}?wait=true", "V10.RESTPostAPIWebhookWithTokenWaitResult", `${hookPath}?wait=true`, {
    ...post({ content: "from the planet", username: "StarNick" }),
    auth: false,
  });
  await frame("MESSAGE_CREATE (a webhook)", "V10.GatewayMessageCreateDispatch", (f) => f.t === "MESSAGE_CREATE" && (f.d as { id: string }).id === wm.id);
  await rest("GET /webhooks/{id}/{token}/messages/{m}", "V10.RESTGetAPIWebhookWithTokenMessageResult", `${hookPath}/messages/${String(wm.id)}`, {
    auth: false,
  });
  await rest("PATCH /webhooks/{id}/{token}/messages/{m}", "V10.RESTPatchAPIWebhookWithTokenMessageResult", `${hookPath}/messages/${String(wm.id)}`, {
    method: "PATCH",
    body: JSON.stringify({ content: "fixed" }),
    auth: false,
  });

  const doomed = await Promise.all(["one", "two"].map((content) => control("messages", { channelId: GENERAL, username: "carol", content })));
  await fetch(`${sim.url}/api/v10/channels/${GENERAL}/messages/bulk-delete`, {
    method: "POST",
    headers: { authorization: `Bot ${sim.token}`, "content-type": "application/json" },
    body: JSON.stringify({ messages: doomed.map((m) => m.id) }),
  });
  await frame("MESSAGE_DELETE_BULK", "V10.GatewayMessageDeleteBulkDispatch", (f) => f.t === "MESSAGE_DELETE_BULK");

  // Errors and rate limits.
  await rest("401", "V10.RESTError", "/v10/users/@me", { auth: false, status: 401 });
  await rest("404 route", "V10.RESTError", "/v10/nothing", { status: 404 });
  await rest("405", "V10.RESTError", "/v10/gateway", { method: "DELETE", status: 405 });
  await rest("400 50041 version", "V10.RESTError", "/v8/users/@me", { status: 400 });
  await rest("404 10003", "V10.RESTError", "/v10/channels/1180000000000009999", { status: 404 });
  await rest("404 10015", "V10.RESTError", `/v10/webhooks/1180000000000009999/${"x".repeat(68)}`, { ...post({ content: "x" }), auth: false, status: 404 });
  await rest("401 50027", "V10.RESTError", `/v10/webhooks/${String(hook.id)}/${"y".repeat(68)}`, { ...post({ content: "x" }), auth: false, status: 401 });
  await rest("400 50035 content", "V10.RESTError", `/v10/channels/${RELAY}/messages`, { ...post({ content: "x".repeat(2001) }), status: 400 });
  await rest("400 50035 snowflake", "V10.RESTError", "/v10/channels/abc", { status: 400 });
  await rest("400 50109", "V10.RESTError", `/v10/channels/${RELAY}/messages`, { method: "POST", body: "{", status: 400 });
  await rest("400 50006", "V10.RESTError", `/v10/channels/${RELAY}/messages`, { ...post({ content: "" }), status: 400 });
  for (const scope of ["user", "shared"]) {
    await control("faults", { rest429: { count: 1, retryAfterMs: 100, scope } });
    await rest(`429 ${scope}`, "V10.RESTRateLimit", "/v10/users/@me", { status: 429 });
  }
  await control("faults", { rest429: { count: 1, retryAfterMs: 100, global: true } });
  await rest("429 global", "V10.RESTRateLimit", "/v10/users/@me", { status: 429 });

  // Resume, op 7, op 1, op 9 on the same session.
  const ready = (await c.until((f) => f.t === "READY")).d as { session_id: string };
  const seq = Math.max(...c.frames.map((f) => f.s ?? 0));
  await control("gateway", { action: "heartbeat" });
  await frame("HEARTBEAT (request)", NULL_D("V10.GatewayHeartbeatRequest"), (f) => f.op === 1);
  await control("gateway", { action: "reconnect" });
  await frame("RECONNECT", NULL_D("V10.GatewayReconnect"), (f) => f.op === 7);
  await control("gateway", { action: "invalidate", resumable: true });
  await frame("INVALID_SESSION", "V10.GatewayInvalidSession", (f) => f.op === 9);
  c.send(6, { token: sim.token, session_id: ready.session_id, seq });
  await frame("RESUMED", NULL_D("V10.GatewayResumedDispatch"), (f) => f.t === "RESUMED");
  c.ws.close(1000);

  // A v9 session: its READY and GUILD_CREATE against the v9 types.
  const v9 = socket(`${sim.gatewayUrl}/?v=9&encoding=json`);
  await v9.until((f) => f.op === 10);
  v9.send(2, { token: sim.token, intents: 1 | 512 | 32768, properties: {} });
  samples.push({ name: "READY v9", type: "V9.GatewayReadyDispatch", value: await v9.until((f) => f.t === "READY") });
  samples.push({ name: "GUILD_CREATE v9", type: "V9.GatewayGuildCreateDispatch", value: await v9.until((f) => f.t === "GUILD_CREATE") });
  v9.ws.close(1000);
  return samples;
}

describe("wire shapes against discord-api-types", () => {
  let samples: Sample[];
  let problems: Record<string, string[]>;

  beforeAll(async () => {
    samples = await collect();
    // The same check on copies with a required field removed or an unknown one added: it must object.
    const guild = structuredClone(samples.find((s) => s.name === "GUILD_CREATE")!);
    delete (guild.value as { d: { roles: Record<string, unknown>[] } }).d.roles[0].colors;
    const message = structuredClone(samples.find((s) => s.name === "POST /channels/{id}/messages")!);
    delete (message.value as Record<string, unknown>).mentions;
    const hello = structuredClone(samples.find((s) => s.name === "HELLO")!);
    (hello.value as { d: Record<string, unknown> }).d.heartbeat = 1;
    problems = typeCheck({ wire: samples, broken: [guild, message, hello] });
  }, 60_000);

  it("every gateway frame and REST answer the simulator sends type-checks as its discord-api-types type", () => {
    expect(samples.length).toBeGreaterThan(50);
    expect(problems.wire).toEqual([]);
  });

  it("the check fails when a required field is missing (a role without colors, a message without mentions) or an extra one appears", () => {
    expect(problems.broken).toHaveLength(3);
    expect(problems.broken[0]).toMatch(/^GUILD_CREATE: .*colors/s);
    expect(problems.broken[1]).toMatch(/^POST \/channels\/\{id\}\/messages: .*mentions/s);
    expect(problems.broken[2]).toMatch(/^HELLO: .*heartbeat/s);
  });
});
