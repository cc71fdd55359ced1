import fs from "node:fs";
import { z } from "zod";

/**
 * THE configuration of the Galaxy HTTP services client (docs/galaxy-services.md).
 *
 * Two kinds of entries live here:
 *  - `documented`: actions seen in public clients (reference §7.2): user pictures, inventory,
 *    sending gifts, search. Their names come from the reference; only response details the
 *    reference does not show (which picture size to take, how a send is confirmed) are guesses.
 *  - `undocumented`: gift stats, collection stats, online status, "mastic" and the daily
 *    award/spend figures. No public source shows these actions, so every action name,
 *    parameter name and response path below is an ASSUMPTION that our simulator answers.
 *    An operator who learns the real names adjusts them without touching code.
 *
 * Override: point GALAXY_SERVICES_CONFIG at a JSON file holding any subset of this object;
 * it is deep-merged over the defaults (arrays and header maps are replaced whole) and
 * validated when first used. A bad file fails loudly instead of silently calling wrong actions.
 *
 * Response paths are dot paths into the JSON answer ("collection.firstRow", "items.0.url");
 * an empty path means the answer itself.
 */

const method = z.enum(["GET", "POST"]);
const params = z.record(z.string(), z.string());
const path = z.string();

const schema = z.object({
  limits: z.object({
    /** Outgoing calls in flight at once, over all accounts (bounded concurrency). */
    concurrency: z.number().int().min(1).max(256),
    /** Sustained calls per second for one game account (token bucket refill rate). */
    perAccountPerSecond: z.number().positive().max(1000),
    /** Calls one account may make back to back before the rate applies (bucket size). */
    perAccountBurst: z.number().int().min(1).max(1000),
    /** Every call is aborted after this long (the whole HTTP exchange, body included). */
    timeoutMs: z.number().int().min(100).max(120_000),
    /** How long an answer is reused for the same account and call; 0 disables the cache. */
    cacheTtlMs: z.number().int().min(0).max(600_000),
    cacheMaxEntries: z.number().int().min(1).max(1_000_000),
  }),
  headers: z.object({
    /** Sent when the account's stored iHeaders do not say otherwise (reference §7.1, web client). */
    defaults: z.record(z.string(), z.string()),
    /** Laid over the defaults for an account with a `sek` (an Android device). */
    android: z.record(z.string(), z.string()),
    /** Which stored iHeaders are forwarded (case-insensitive regular expression on the name). */
    forward: z.string(),
    /** Header that carries the account's sek, or null to keep the sek off the wire. */
    sekHeader: z.string().nullable(),
  }),
  documented: z.object({
    userPics: z.object({
      action: z.string().min(1),
      method,
      idsParam: z.string().min(1),
      /** The answer maps each id to a map of picture URLs; take this field if present… */
      pictureField: z.string().nullable(),
      /** …else the value at this position (spec 2 §7: "taken from fields by position"). */
      picturePosition: z.number().int().min(0),
      /** Ids per request; longer lists are split. */
      maxIdsPerCall: z.number().int().min(1).max(500),
    }),
    inventory: z.object({
      action: z.string().min(1),
      method,
      params,
      pageParam: z.string().min(1),
      /** Stop after this many pages even if the counter says more. */
      maxPages: z.number().int().min(1).max(500),
    }),
    sendGifts: z.object({
      action: z.string().min(1),
      method,
      params,
      form: params,
      /**
       * A regular expression that, matched by the HTML answer, confirms the send at once. No
       * public source shows the real answer (reference §7.2; a public bot takes HTTP 200 as
       * success), so by default it is null and a send is confirmed by a 2xx answer and a fresh
       * inventory read that no longer holds the items (issue 34 item 3).
       */
      successPattern: z.string().min(1).nullable(),
    }),
    search: z.object({
      action: z.string().min(1),
      method,
      form: params,
      valueField: z.string().min(1),
      listPath: path,
      userId: path,
      nick: path,
      lastOnline: path,
    }),
  }),
  undocumented: z.object({
    giftStats: z.object({
      action: z.string().min(1),
      method,
      params,
      response: z.object({ listPath: path, type: path, name: path, img: path, amount: path }),
    }),
    onlineStatus: z.object({
      action: z.string().min(1),
      method,
      params,
      response: z.object({ isOnline: path, room: path }),
    }),
    collectionStats: z.object({
      action: z.string().min(1),
      method,
      params,
      collectionParam: z.string().min(1),
      /** Spec 1 §7 / §9: collection stats use the collection parameter 151 (Capybara). */
      defaultCollectionId: z.number().int().positive(),
      /** Collections the /api accepts (151 Capybara; spec 2 §3: 161 and 178, the Dragon sets). */
      collections: z.record(z.string().regex(/^\d+$/), z.string()),
      response: z.object({
        firstRowPath: path,
        secondRowPath: path,
        imageUrl: path,
        count: path,
        goodsId: path,
        index: path,
      }),
    }),
    mastic: z.object({
      action: z.string().min(1),
      method,
      params,
      collectionParam: z.string().min(1),
      response: z.object({ success: path, message: path }),
    }),
    dailyStats: z.object({
      action: z.string().min(1),
      method,
      params,
      daysParam: z.string().min(1),
      response: z.object({ listPath: path, date: path, awards: path, spent: path }),
    }),
  }),
});

export type ServicesConfig = z.infer<typeof schema>;

export const DEFAULT_SERVICES_CONFIG: ServicesConfig = {
  limits: {
    concurrency: 16,
    // The Characters screen fetches every user's stats with one account's credentials
    // (spec 2 §6), so one account must be able to make a few hundred calls in seconds.
    perAccountPerSecond: 20,
    perAccountBurst: 40,
    timeoutMs: 10_000,
    cacheTtlMs: 15_000,
    cacheMaxEntries: 5_000,
  },
  headers: {
    // getRequestHeaders() of the official web client, version 9.5 (reference §7.1).
    defaults: {
      "X-Galaxy-Kbv": "352",
      "X-Galaxy-Platform": "web",
      "X-Galaxy-Scr-W": "700",
      "X-Galaxy-Scr-H": "675",
      "X-Galaxy-Lng": "en",
      "X-Galaxy-Client-Ver": "9.5",
      "X-Galaxy-Model": "chrome 137.0.0.0",
      "X-Galaxy-User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Safari/537.36",
      "X-Galaxy-Scr-Dpi": "1",
      "X-Galaxy-Os-Ver": "1",
      "X-Galaxy-Orientation": "portrait",
    },
    // The Android APK build seen in SAB (reference §7.1): source id 4, empty request signature.
    android: {
      "X-Galaxy-Platform": "android",
      "X-Galaxy-App-Source-Id": "4",
      "X-Galaxy-Http-Sign": "",
    },
    forward: "^(x-galaxy-[a-z0-9-]+|user-agent|accept-language)$",
    sekHeader: null,
  },
  documented: {
    userPics: { action: "user_pics_ajax", method: "GET", idsParam: "users_ids", pictureField: "2", picturePosition: 0, maxIdsPerCall: 100 },
    inventory: {
      action: "show_inventory",
      method: "GET",
      params: { sock: "0", select_all: "0", unselect_all: "0" },
      pageParam: "page",
      maxPages: 50,
    },
    sendGifts: {
      action: "present_make",
      method: "POST",
      params: { confirm: "1" },
      form: { search_field: "", give_anonymous: "1" },
      successPattern: null,
    },
    search: {
      action: "search_ajax",
      method: "POST",
      form: { type: "1" },
      valueField: "search_value",
      listPath: "searchResult.initialMatchList",
      userId: "userId",
      nick: "userNickData.nick",
      lastOnline: "lastOnline",
    },
  },
  undocumented: {
    giftStats: {
      action: "gift_stats_ajax",
      method: "GET",
      params: {},
      response: { listPath: "gifts", type: "type", name: "name", img: "img", amount: "amount" },
    },
    onlineStatus: {
      action: "user_status_ajax",
      method: "GET",
      params: {},
      response: { isOnline: "online", room: "planet" },
    },
    collectionStats: {
      action: "collection_stats_ajax",
      method: "GET",
      params: {},
      collectionParam: "collection_id",
      defaultCollectionId: 151,
      collections: { "151": "Capybara", "161": "Dragon Collection Set 1", "178": "Dragon Collection Set 2" },
      response: {
        firstRowPath: "collection.firstRow",
        secondRowPath: "collection.secondRow",
        imageUrl: "imageUrl",
        count: "count",
        goodsId: "goodsID",
        index: "index",
      },
    },
    mastic: {
      action: "collection_mastic_ajax",
      method: "POST",
      params: {},
      collectionParam: "collection_id",
      response: { success: "success", message: "message" },
    },
    dailyStats: {
      action: "bowling_daily_ajax",
      method: "GET",
      params: {},
      daysParam: "days",
      response: { listPath: "days", date: "date", awards: "awards", spent: "spent" },
    },
  },
};

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === "object" && v !== null && !Array.isArray(v);

/** Objects merge key by key; arrays, scalars and header/param maps given in the override replace. */
function merge(base: unknown, over: unknown, key = ""): unknown {
  if (!isPlain(base) || !isPlain(over)) return over === undefined ? base : over;
  if (["defaults", "android", "params", "form", "collections"].includes(key)) return over;
  const out: Plain = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = merge(base[k], v, k);
  return out;
}

/** Validates an override object against the defaults; throws a readable error. */
export function buildServicesConfig(override: unknown = {}): ServicesConfig {
  if (!isPlain(override)) throw new Error("Galaxy services config must be a JSON object");
  const parsed = schema.safeParse(merge(DEFAULT_SERVICES_CONFIG, override));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid Galaxy services config: ${issues}`);
  }
  try {
    new RegExp(parsed.data.headers.forward, "i");
    const pattern = parsed.data.documented.sendGifts.successPattern;
    if (pattern !== null) new RegExp(pattern, "i");
  } catch (err) {
    throw new Error(`Invalid Galaxy services config: ${(err as Error).message}`);
  }
  return parsed.data;
}

/** Reads the override file named by GALAXY_SERVICES_CONFIG (if any). */
export function loadServicesConfig(file = process.env.GALAXY_SERVICES_CONFIG): ServicesConfig {
  if (!file) return buildServicesConfig();
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    throw new Error(`GALAXY_SERVICES_CONFIG: cannot read ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`GALAXY_SERVICES_CONFIG: ${file} is not valid JSON: ${(err as Error).message}`);
  }
  return buildServicesConfig(json);
}

let cached: ServicesConfig | undefined;

/** The active configuration, loaded once. */
export function getServicesConfig(): ServicesConfig {
  cached ??= loadServicesConfig();
  return cached;
}

/** Forget the loaded configuration (tests switch GALAXY_SERVICES_CONFIG). */
export function resetServicesConfig() {
  cached = undefined;
}

/** Reads a dot path ("a.b.0.c"); "" is the value itself. */
export function pick(value: unknown, dotPath: string): unknown {
  if (!dotPath) return value;
  let cur: unknown = value;
  for (const part of dotPath.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** The inverse of `pick`: writes `value` at a dot path, creating objects on the way (simulator). */
export function place(target: Record<string, unknown>, dotPath: string, value: unknown): Record<string, unknown> {
  if (!dotPath) return target;
  const parts = dotPath.split(".");
  let cur: Record<string, unknown> = target;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    if (next === null || typeof next !== "object") cur[part] = {};
    cur = cur[part] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
  return target;
}
