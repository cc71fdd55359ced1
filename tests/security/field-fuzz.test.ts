/**
 * Issue 21 item 6, the standing per-route field fuzz: every /api route that takes a JSON body
 * starts from a valid body, then one field at a time (top level, and one level into lists
 * and objects — a sequence's planetType is where a lone surrogate once gave a 500) is
 * removed or replaced by a wrong type, an empty, huge, NUL, lone-surrogate or bidi text, an
 * odd number, a deep nest or a prototype key. No answer may be a 500, every error carries
 * `{ error, message }` with the same text, and no text is stored with U+FFFD (a lone surrogate
 * silently replaced) afterwards.
 *
 * The platform is down (nothing listens), so routes that call it answer 502: that is their
 * contract. A new /api route that reads a body must get a valid example below (the first test
 * fails otherwise).
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApiToken, createTestOperator, makeRequest, remixHandler } from "#tests/kit";
import { fullPath, routeTable } from "#tests/kit/remix";
import { getDb } from "~/db/client.server";
import { galacordAccounts, galacordBot } from "~/db/schema";
import { resetGalaxyServices } from "~/platform/galaxy-services.server";
import { upsertUser } from "~/models/user.server";
import { resetEnv } from "~/utils/env.server";
import { encryptSecret } from "~/utils/secrets.server";

const STALKER = "11111111";
const TRADER = "22222222";
const OTHER = "33333333";
const SUPPLIER = "44444444";
const CONSUMER = "55555555";
const BOWLER = "66666666";
const creds = { userID: STALKER, password: "pw-for-fuzz" };

/** `answer`: the valid request's status when it is not a success (e.g. 409 "Not connected": no live connection in a test). */
type Case = { method: string; path: string; body: () => unknown; answer?: number };

/** Ids of things the PUT routes change, made before the run. */
const ids: Record<string, string> = {};

/** A valid request for every /api route that reads a JSON body ("METHOD /api/pattern"). */
let fuzzRuns = 0;
const CASES: Record<string, Case> = {
  "POST /api/rates/update": { method: "POST", path: "/api/rates/update", body: () => ({ inputItem: "Gold Ring", outputItem: "Clay", rates: "1/2" }) },
  "POST /api/rates/status": { method: "POST", path: "/api/rates/status", body: () => ({ inputItem: "Gold Ring", outputItem: "Clay", status: false }) },
  "POST /api/rates/batch": {
    method: "POST",
    path: "/api/rates/batch",
    body: () => ({ updates: [{ inputItem: "Clay", outputItem: "Silver Ring", rates: [{ quantity: 0, rate: 1 }], status: true }] }),
  },
  "POST /api/categories": { method: "POST", path: "/api/categories", body: () => ({ value: "fuzzers" }) },
  "POST /api/create-creds": { method: "POST", path: "/api/create-creds", body: () => ({ rc: "ABCD1234", type: "bowling" }) },
  "POST /api/stalker/start": { method: "POST", path: "/api/stalker/start", body: () => ({ account_id: STALKER }) },
  "POST /api/stalker/stop": { method: "POST", path: "/api/stalker/stop", body: () => ({ account_id: STALKER }) },
  "POST /api/trader/start": { method: "POST", path: "/api/trader/start", body: () => ({ account_id: TRADER }) },
  "POST /api/trader/stop": { method: "POST", path: "/api/trader/stop", body: () => ({ account_id: TRADER }) },
  "POST /api/clay/mastic/run": { method: "POST", path: "/api/clay/mastic/run", body: () => ({ ...creds, collectionId: 178, numberOfRequests: 1 }) },
  "POST /api/clay/gifts/inventory": { method: "POST", path: "/api/clay/gifts/inventory", body: () => ({ ...creds, collectionId: 178 }) },
  "POST /api/clay/gifts/send": { method: "POST", path: "/api/clay/gifts/send", body: () => ({ ...creds, receiverUserId: OTHER, giftIdsToSend: ["1"] }) },
  "POST /api/clay/collection/:id/status": { method: "POST", path: "/api/clay/collection/178/status", body: () => creds },
  "POST /api/bowling-companions": {
    method: "POST",
    path: "/api/bowling-companions",
    body: () => ({ bowling_id: OTHER, supplier: SUPPLIER, consumer: CONSUMER }),
  },
  "PUT /api/bowling-companions/:id": {
    method: "PUT",
    path: "/api/bowling-companions/:companion",
    body: () => ({ bowling_id: BOWLER, supplier: SUPPLIER, consumer: CONSUMER }),
  },
  "POST /api/bowling-users/last-fetched": { method: "POST", path: "/api/bowling-users/last-fetched", body: () => ({ timestamp: "2026-03-01T12:00:00Z" }) },
  "POST /api/bowling-users/user-pics": { method: "POST", path: "/api/bowling-users/user-pics", body: () => ({ ...creds, userIds: [OTHER] }) },
  "POST /api/bowling-users/gift-stats/:id": { method: "POST", path: `/api/bowling-users/gift-stats/${OTHER}`, body: () => creds },
  "POST /api/bowling-users/collection-stats/:id": {
    method: "POST",
    path: `/api/bowling-users/collection-stats/${OTHER}`,
    body: () => ({ ...creds, collectionId: 178 }),
  },
  "POST /api/bowling-users/status/:id": { method: "POST", path: `/api/bowling-users/status/${OTHER}`, body: () => creds },
  "POST /api/bowling-users/user-pic/:id": { method: "POST", path: `/api/bowling-users/user-pic/${OTHER}`, body: () => creds },
  "POST /api/user-details/user-pics": { method: "POST", path: "/api/user-details/user-pics", body: () => ({ ...creds, userIds: [OTHER] }) },
  "POST /api/user-details/:kind/:id": { method: "POST", path: `/api/user-details/gift-stats/${OTHER}`, body: () => creds },
  "POST /api/user-agent": {
    method: "POST",
    path: "/api/user-agent",
    body: () => ({ [OTHER]: { headers: { "X-Galaxy-Platform": "web" }, device: "web", nick: "Fuzz" } }),
  },
  "POST /api/gift-rates": { method: "POST", path: "/api/gift-rates", body: () => ({ rates: { Clay: 2 } }) },
  "POST /api/bot/connect": { method: "POST", path: "/api/bot/connect", body: () => ({ accountId: OTHER, channelId: "100000000000000001" }) },
  "POST /api/bot/connect-new": { method: "POST", path: "/api/bot/connect-new", body: () => ({ channelId: "100000000000000001", recoveryCode: "ABCD1234" }) },
  "POST /api/bot/planet/:accountId": { method: "POST", path: `/api/bot/planet/${OTHER}`, body: () => ({ planet: "Mars" }), answer: 409 },
  "POST /api/bot/update-channel/:accountId": { method: "POST", path: `/api/bot/update-channel/${OTHER}`, body: () => ({ channelId: "100000000000000002" }) },
  "POST /api/planet-sequences": {
    method: "POST",
    path: "/api/planet-sequences",
    // A new name each time: sequence names are unique (409 otherwise, issue 19).
    body: () => ({
      name: `Fuzz run ${++fuzzRuns}`,
      sequence: [{ planetType: "Mars", shuffle: false }],
      seconds: 10,
      closedPlanetsLevel: 1,
      openPlanetsLevel: 1,
      isActive: true,
    }),
  },
  "PUT /api/planet-sequences": { method: "PUT", path: "/api/planet-sequences", body: () => ({ ids: [ids.sequence], updates: { isActive: false } }) },
  "PUT /api/planet-sequences/:id": {
    method: "PUT",
    path: "/api/planet-sequences/:sequence",
    body: () => ({ name: "Renamed", sequence: [{ planetType: "Venus" }] }),
  },
  "POST /api/custom-planets": { method: "POST", path: "/api/custom-planets", body: () => ({ name: "Fuzzland", type: "english" }) },
  "PUT /api/custom-planets/:id": { method: "PUT", path: "/api/custom-planets/:planet", body: () => ({ name: "Fuzzland2", type: "blacklisted" }) },
  "POST /api/ads": { method: "POST", path: "/api/ads", body: () => ({ adsMessage: "Buying clay", category: "ads", isActive: true }) },
  "PUT /api/ads/:id": { method: "PUT", path: "/api/ads/:ad", body: () => ({ adsMessage: "Selling clay", category: "msg", isActive: false }) },
  "POST /api/jobs/probe": { method: "POST", path: "/api/jobs/probe", body: () => ({ ms: 0 }) },
  "POST /api/backup": { method: "POST", path: "/api/backup", body: () => ({ passphrase: "fuzzing passphrase" }) },
  "PUT /api/alerts": {
    method: "PUT",
    path: "/api/alerts",
    body: () => ({ destinations: [{ kind: "webhook", url: "https://alerts.example.com/galaxy", secret: "fuzz-secret" }] }),
  },
};

/** Routes that read a body but take no field (any other body is refused; tests/security/api-fuzz.test.ts sends them every kind). */
const NO_FIELDS = new Set(["POST /api/bot/start", "POST /api/bot/stop"]);

const deep = (n: number): unknown => (n === 0 ? "bottom" : [deep(n - 1)]);
const MUTATIONS: Array<[string, unknown]> = [
  ["missing", undefined],
  ["null", null],
  ["zero", 0],
  ["negative", -1],
  ["fraction", 1.5],
  ["huge number", 1e21],
  ["boolean", true],
  ["empty text", ""],
  ["long text", "x".repeat(5_000)],
  ["lone surrogate", "\ud800"],
  ["lone low surrogate in text", "Mars\udc00"],
  ["NUL", "a\u0000b"],
  ["bidi override", "\u202egnp.exe"],
  ["list", []],
  ["object", {}],
  ["deep nest", deep(40)],
  ["prototype", { __proto__: { polluted: true } }],
];

/** Every path to a field: top level, and one level into lists (their first item) and objects. */
function fieldPaths(body: unknown): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [];
  if (!body || typeof body !== "object") return out;
  for (const [k, v] of Object.entries(body)) {
    out.push([k]);
    if (Array.isArray(v) && v.length) {
      out.push([k, 0]);
      if (v[0] && typeof v[0] === "object") for (const k2 of Object.keys(v[0] as object)) out.push([k, 0, k2]);
    } else if (v && typeof v === "object") for (const k2 of Object.keys(v)) out.push([k, k2]);
  }
  return out;
}

function mutate(body: unknown, at: Array<string | number>, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = at[at.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

/** JSON text of a body; a prototype key written out as a real "__proto__" member. */
function encode(body: unknown): string {
  return JSON.stringify(body, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v) && Object.getPrototypeOf(v)?.polluted ? { __proto__: { polluted: true } } : v,
  ).replace(/"__proto__":\{\}/g, '"__proto__":{"polluted":true}');
}

let handle: (request: Request) => Promise<Response>;
let token: string;

beforeAll(async () => {
  process.env.GALAXY_SERVICES_URL = "http://127.0.0.1:9";
  process.env.GALAXY_WS_URL = "ws://127.0.0.1:9";
  process.env.COLLECTIONS_TIME_SCALE = "0.001";
  resetEnv();
  resetGalaxyServices();
  handle = await remixHandler((r) => /\/api\./.test(r.id));
  const op = await createTestOperator({ name: "fuzzer" });
  token = await createTestApiToken(op.id, "fuzz");
  await upsertUser({ accountId: STALKER, nick: "Stalky", password: "pw", type: "stalker" });
  await upsertUser({ accountId: TRADER, nick: "Tradey", password: "pw", type: "trading" });
  await upsertUser({ accountId: OTHER, nick: "Other", password: "pw", type: "bowling" });
  await upsertUser({ accountId: BOWLER, nick: "Bowler", password: "pw", type: "bowling" });
  await upsertUser({ accountId: SUPPLIER, nick: "Supplier", password: "pw", type: "suppliers" });
  await upsertUser({ accountId: CONSUMER, nick: "Consumer", password: "pw", type: "recipients" });
  // The bot's channels and a saved GalaCord account, for the /api/bot/* routes that name them.
  const db = await getDb();
  const channel = (id: string, name: string) => ({ id, name, guildId: "9", guildName: "Guild" });
  await db
    .insert(galacordBot)
    .values({ id: 1, channels: [channel("100000000000000001", "relay"), channel("100000000000000002", "other")] })
    .onConflictDoUpdate({ target: galacordBot.id, set: { channels: [channel("100000000000000001", "relay"), channel("100000000000000002", "other")] } });
  await db.insert(galacordAccounts).values({
    accountId: OTHER,
    nick: "Other",
    channelId: "100000000000000001",
    channelName: "relay",
    guildName: "Guild",
    recoveryCode: encryptSecret("ABCD1234"),
  });
  const made = async (p: string, body: unknown, key: string, pick: (j: Record<string, unknown>) => unknown) => {
    const res = await handle(makeRequest(p, { token, json: body }));
    const json = (await res.json()) as Record<string, unknown>;
    expect(res.status, `fixture ${p}: ${JSON.stringify(json)}`).toBe(201);
    ids[key] = String(pick(json));
  };
  await made("/api/planet-sequences", CASES["POST /api/planet-sequences"]!.body(), "sequence", (j) => (j.sequence as { _id: string })._id);
  await made("/api/custom-planets", { name: "Fixture", type: "english" }, "planet", (j) => (j.planet as { _id: string })._id);
  await made("/api/ads", { adsMessage: "Fixture ad" }, "ad", (j) => (j.ad as { _id: string })._id);
  await made(
    "/api/bowling-companions",
    { bowling_id: BOWLER, supplier: SUPPLIER, consumer: CONSUMER },
    "companion",
    (j) => (j.companion as { _id: string })._id,
  );
});
afterAll(() => {
  for (const k of ["GALAXY_SERVICES_URL", "GALAXY_WS_URL", "COLLECTIONS_TIME_SCALE"]) delete process.env[k];
  resetEnv();
  resetGalaxyServices();
});

const urlOf = (c: Case) => c.path.replace(/:(\w+)/g, (_m, k: string) => ids[k] ?? k);

describe("per-route field fuzz", () => {
  it("has a valid example for every /api route that reads a body", async () => {
    const table = routeTable();
    const reading: string[] = [];
    for (const r of table) {
      const p = fullPath(r, table);
      if (!p.startsWith("/api/")) continue;
      const source = fs.readFileSync(path.resolve("app", r.file), "utf8");
      if (!/readJson\(|read\w+Body\(|readTradingJson\(|handle\w+\(request/.test(source)) continue;
      const methods = [...source.matchAll(/request\.method (?:===|!==) "(\w+)"/g)].map((m) => m[1]!);
      for (const method of methods.length ? methods : ["POST"]) if (method !== "GET" && method !== "DELETE") reading.push(`${method} ${p}`);
    }
    expect(reading.length).toBeGreaterThan(20);
    expect(reading.filter((k) => !CASES[k] && !NO_FIELDS.has(k))).toEqual([]);
    for (const [key, c] of Object.entries(CASES)) {
      const res = await handle(makeRequest(urlOf(c), { token, method: c.method, json: c.body() }));
      expect([200, 201, 202, 502, 503, ...(c.answer ? [c.answer] : [])], `${key}: ${res.status} ${await res.clone().text()}`).toContain(res.status);
      await res.arrayBuffer();
    }
  });

  it("one field at a time: no 500, {error, message} on every refusal", { timeout: 600_000 }, async () => {
    const failures: string[] = [];
    let requests = 0;
    for (const [key, c] of Object.entries(CASES)) {
      const body = c.body();
      for (const at of fieldPaths(body)) {
        for (const [label, value] of MUTATIONS) {
          const res = await handle(
            new Request(`http://localhost${urlOf(c)}`, {
              method: c.method,
              headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
              body: encode(mutate(body, at, value)),
            }),
          );
          requests++;
          const text = await res.text();
          const where = `${key} ${at.join(".")} = ${label}`;
          if (res.status === 500 || res.status > 503) failures.push(`${where}: ${res.status} ${text.slice(0, 160)}`);
          else if (res.status >= 400) {
            try {
              const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
              if (typeof parsed.error !== "string" || parsed.message !== parsed.error) failures.push(`${where}: ${res.status} body ${text.slice(0, 120)}`);
            } catch {
              failures.push(`${where}: ${res.status} not JSON: ${text.slice(0, 120)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(1_000);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    console.info(`[field-fuzz] ${Object.keys(CASES).length} routes, ${requests} requests, no 500`);
  });

  it("stored no text with U+FFFD: a lone surrogate is refused, never silently replaced", async () => {
    const db = await getDb();
    const tables = (await db.execute(sql`select tablename from pg_tables where schemaname = 'public' and tablename <> 'logs' order by 1`)) as unknown as {
      rows: { tablename: string }[];
    };
    const found: string[] = [];
    for (const { tablename } of tables.rows) {
      const res = (await db.execute(sql.raw(`select count(*)::int as n from "${tablename}" t where t::text like '%' || chr(65533) || '%'`))) as unknown as {
        rows: { n: number }[];
      };
      if (res.rows[0]!.n) found.push(`${tablename}: ${res.rows[0]!.n} rows`);
    }
    expect(found).toEqual([]);
  });
});
