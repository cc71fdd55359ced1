import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";

/**
 * The audit entry's `target`, named the way the screens name things (issue 28 item 2;
 * docs/decisions/0025): an account as "Kazensar (123456)", a rate as "Gold Ring → Silver Ring",
 * a category, a sequence, a planet or an ad by its name. The route guard asks this for every
 * write whose action did not name its target itself (`auditNote`), from the URL parameters and
 * the request's fields alone, so a route added tomorrow is named without editing it.
 *
 * Asked twice: before the action (what a delete removes is gone afterwards) and, when that
 * found nothing, after it (what a create made exists only then). Never a secret: only ids,
 * names and nicks are read; recovery codes, passwords and `sek`s are neither read nor named.
 */
export type TargetRequest = {
  pattern: string;
  params: Record<string, string | undefined>;
  fields: Record<string, unknown>;
  /** Who writes: Collections' actions act on the account that operator is logged in as. */
  operatorId?: string;
};

const MAX_TARGET = 300;
const LISTED = 3;

const text = (v: unknown): string => (typeof v === "string" ? v.trim() : typeof v === "number" && Number.isFinite(v) ? String(v) : "");

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** "A, B, C and 4 more". */
export function listed(names: string[]): string {
  if (names.length <= LISTED) return names.join(", ");
  return `${names.slice(0, LISTED).join(", ")} and ${names.length - LISTED} more`;
}

/** "12 companions", "1 companion". */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** An account as the screens name it: "Nick (id)", or "account id" when no table knows its nick. */
export async function accountName(accountId: string): Promise<string> {
  const id = accountId.trim();
  if (!id) return "";
  const db = await getDb();
  const [row] = rowsOf<{ nick: string | null }>(
    await db.execute(sql`
      select nick from (
        select nick, 1 as o from users where account_id = ${id}
        union all select nick, 2 from galacord_accounts where account_id = ${id}
        union all select nick, 3 from collections_profiles where account_id = ${id}
        union all select nick, 4 from galaxy_user_agents where account_id = ${id} and nick is not null
        union all select nick, 5 from sightings where user_id = ${id}
      ) n where nick <> '' order by o limit 1`),
  );
  return row?.nick ? `${row.nick} (${id})` : `account ${id}`;
}

export function pairName(inputItem: string, outputItem: string): string {
  return `${inputItem} → ${outputItem}`;
}

async function one<T>(query: ReturnType<typeof sql>): Promise<T | undefined> {
  const db = await getDb();
  return rowsOf<T>(await db.execute(query))[0];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The rows a rate write names: "A → B" for each pair posted (JSON list, conform's `outputs[i]`, a no-JS row's `pair`). */
function ratePairs(fields: Record<string, unknown>, params: TargetRequest["params"]): string[] {
  const input = text(fields.inputItem ?? params.inputItem);
  const output = text(fields.outputItem ?? params.outputItem);
  if (input && output) return [pairName(input, output)];
  if (typeof fields.pair === "string") {
    try {
      const p: unknown = JSON.parse(fields.pair);
      if (Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === "string")) return [pairName(p[0] as string, p[1] as string)];
    } catch {
      // not a pair
    }
  }
  // POST /api/rates/batch {updates: [{inputItem, outputItem}]}.
  if (Array.isArray(fields.updates)) {
    return (fields.updates as unknown[]).flatMap((u) => {
      const f = u && typeof u === "object" ? (u as Record<string, unknown>) : {};
      return text(f.inputItem) && text(f.outputItem) ? [pairName(text(f.inputItem), text(f.outputItem))] : [];
    });
  }
  // The import's text: {"Gold Ring": {"Clay": "1/2", …}, …}.
  if (typeof fields.data === "string" && fields.intent === "import") {
    try {
      const map: unknown = JSON.parse(fields.data);
      if (map && typeof map === "object" && !Array.isArray(map)) {
        return Object.entries(map as Record<string, unknown>).flatMap(([i, outs]) =>
          outs && typeof outs === "object" && !Array.isArray(outs) ? Object.keys(outs).map((o) => pairName(i, o)) : [],
        );
      }
    } catch {
      // Not JSON: the import refuses it, nothing to name.
    }
  }
  if (input) {
    const outs = Object.entries(fields)
      .filter(([k]) => /^outputs\[\d+\]\.outputItem$/.test(k))
      .map(([, v]) => text(v))
      .filter(Boolean);
    if (outs.length) return outs.map((o) => pairName(input, o));
  }
  return [];
}

async function rateById(id: string): Promise<string> {
  if (!UUID.test(id)) return "";
  const row = await one<{ i: string; o: string }>(sql`select input_item as i, output_item as o from exchange_rates where id = ${id}`);
  return row ? pairName(row.i, row.o) : "";
}

async function nameOf(table: "categories" | "planet_sequences" | "custom_planets", column: "value" | "name", id: string): Promise<string> {
  if (!UUID.test(id)) return "";
  const row = await one<{ n: string }>(sql`select ${sql.raw(column)} as n from ${sql.raw(table)} where id = ${id}`);
  return row?.n ?? "";
}

async function companionName(id: string): Promise<string> {
  if (!UUID.test(id)) return "";
  const row = await one<{ b: string }>(sql`select bowling_id as b from bowling_companions where id = ${id}`);
  return row ? `companion of ${await accountName(row.b)}` : "";
}

async function adName(id: string): Promise<string> {
  if (!UUID.test(id)) return "";
  const row = await one<{ m: string; c: string }>(sql`select ads_message as m, category as c from ads where id = ${id}`);
  if (!row) return "";
  const first = row.m.split("\n")[0]!.trim();
  return `${row.c === "msg" ? "message" : "ad"} "${first.length > 60 ? `${first.slice(0, 60)}…` : first}"`;
}

async function profileName(id: string): Promise<string> {
  if (!UUID.test(id)) return "";
  const row = await one<{ a: string; n: string }>(sql`select account_id as a, nick as n from collections_profiles where id = ${id}`);
  return row ? `${row.n} (${row.a})` : "";
}

const ACCOUNT_FIELDS = ["accountId", "account_id", "userID", "userId", "bowling_id", "bowlingId"];

/**
 * A human name for what the request changes, or "" when nothing in it names a thing. Each
 * section's ids are looked up in that section's table; what is not found keeps its id.
 */
export async function describeTarget({ pattern, params, fields, operatorId }: TargetRequest): Promise<string> {
  const p = pattern.toLowerCase();
  const intent = text(fields.intent);
  const id = text(params.id ?? fields.id ?? fields._id);
  const name = await (async () => {
    if (p.includes("rates") && !p.includes("gift-rates")) {
      const pairs = ratePairs(fields, params);
      if (pairs.length) return listed(pairs);
      if (id) return rateById(id);
      const input = text(fields.inputItem ?? params.inputItem);
      if (input) return `${input} → every output`;
      return "";
    }
    if (p.includes("categor") || intent.includes("category")) {
      return (id && (await nameOf("categories", "value", id))) || text(fields.value ?? fields.name) || id;
    }
    if (p.includes("companion") || intent.includes("companion")) {
      const bowling = text(fields.bowling_id ?? fields.bowlingId);
      if (bowling) {
        const parts = [`companion of ${await accountName(bowling)}`];
        const supplier = text(fields.supplier);
        const consumer = text(fields.consumer);
        if (supplier) parts.push(`supplier ${await accountName(supplier)}`);
        if (consumer) parts.push(`recipient ${await accountName(consumer)}`);
        return parts.join(", ");
      }
      if (id) return companionName(id);
    }
    if (p.includes("planet-sequences") || intent.startsWith("sequence")) {
      const n = (id && (await nameOf("planet_sequences", "name", id))) || text(fields.name);
      if (n) return `sequence "${n}"`;
    }
    if (p.includes("custom-planets") || intent.startsWith("planet")) {
      const n = (id && (await nameOf("custom_planets", "name", id))) || text(fields.name);
      if (n) return `planet "${n}"`;
    }
    if (p.includes("/ads") || intent.startsWith("ad")) {
      const n = id ? await adName(id) : "";
      if (n) return n;
      const message = text(fields.adsMessage ?? fields.message)
        .split("\n")[0]!
        .trim();
      if (message) return `ad "${message.length > 60 ? `${message.slice(0, 60)}…` : message}"`;
    }
    const profile = text(fields.profileId);
    if (profile) {
      const n = await profileName(profile);
      if (n) return n;
    }
    for (const key of ["accountId", "account_id", "userID", "userId"]) {
      const v = text(params[key]);
      if (v) return accountName(v);
    }
    // /api/users/:id and friends: the id of an account-keyed route is an account id.
    if (id && /^\d{1,12}$/.test(id) && /users|stalker|galacord|bot|user-details|collection|clay/.test(p)) return accountName(id);
    for (const key of ACCOUNT_FIELDS) {
      const v = text(fields[key]);
      if (/^\d{1,12}$/.test(v)) return accountName(v);
    }
    // POST /api/user-agent {"<accountId>": {...}}: the accounts are the body's keys.
    if (p.includes("user-agent")) {
      const ids = Object.keys(fields).filter((k) => /^\d{1,12}$/.test(k));
      if (ids.length)
        return listed(await Promise.all(ids.slice(0, LISTED + 1).map(accountName))) + (ids.length > LISTED + 1 ? ` (${ids.length} accounts)` : "");
    }
    // Collections acts as the account its operator is logged in as.
    if ((p.includes("collections") || p.includes("/clay")) && operatorId && UUID.test(operatorId)) {
      const row = await one<{ a: string; n: string }>(
        sql`select p.account_id as a, p.nick as n from collections_state s join collections_profiles p on p.id = s.profile_id where s.operator_id = ${operatorId}`,
      );
      if (row) return `${row.n} (${row.a})`;
    }
    return fixedName(p, intent, fields);
  })();
  return name.slice(0, MAX_TARGET);
}

/** Writes that act on one well-known thing rather than a row: named as the screen names it. */
function fixedName(p: string, intent: string, fields: Record<string, unknown>): string {
  if (intent === "refresh") return p.includes("gifts") ? "bowling users" : p.includes("characters") ? "all characters" : "";
  if (p.includes("/bot/") || p.endsWith("/bot") || intent.startsWith("bot-")) return "GalaCord bot";
  if (p.includes("logs")) return "System Logs";
  if (p.includes("jobs/probe")) return `probe job${text(fields.key) ? ` "${text(fields.key)}"` : ""}`;
  if (p.includes("gift-rates")) return text(fields.name) ? `gift rate "${text(fields.name)}"` : "gift rates";
  if (p.includes("theme")) return "theme (this browser)";
  if (p.includes("logout")) return "own session";
  if (p.includes("collections")) return "Collections";
  if (p.includes("trading") || p.includes("trader")) return "trader";
  return "";
}

/**
 * A target for an entry nothing named: the route and, for a page, the form's intent, plus the
 * fields it carried (names only) — readable, never empty, never a value that could be a secret.
 */
export function fallbackTarget(action: string, fields: Record<string, unknown> = {}): string {
  const keys = Object.keys(fields).filter((k) => !["intent", "redirectTo", "errorRedirectTo"].includes(k));
  const where = action.trim() || "(unnamed request)";
  return keys.length ? `${where} (fields: ${listed(keys)})` : where;
}
