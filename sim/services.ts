import type { IncomingMessage, ServerResponse } from "node:http";
import { getServicesConfig, place, type ServicesConfig } from "~/galaxy/services-config";
import {
  COLLECTION_SIZE,
  SIM_CATALOGUE,
  SIM_COLLECTIONS,
  SIM_GIFT_TYPES,
  applyMastic,
  collectionCounts,
  collectionGoodsId,
  dailyStatsOf,
  giftStatsOf,
  hasPicture,
  inventoryOf,
  lastOnlineText,
  servicesState,
  transferGifts,
  type ServicesWorld,
} from "./services-data";

/**
 * The simulated Galaxy HTTP services (`/services/`), reference §7.
 *
 * Documented actions answer in the shapes the public clients expect: `user_pics_ajax` (JSON
 * by user id), `show_inventory` (HTML with `div.s__item`, `goodID=`, `div.s__name`,
 * `div.s__pages__counter`), `present_make` (HTML), `search_ajax` (JSON searchResult),
 * `pay_get_balance` (a number). The undocumented ones (gift stats, collection stats, online
 * status, mastic, daily figures) answer under the names and in the shapes of the active
 * services configuration (app/galaxy/services-config.ts), so an operator's override is
 * exercised end to end. Every request checks userID/password against the world and waits
 * `world.faults.latencyMs` first, then for the `hold` fault to be off. Images live under `/services/img/`.
 */

const INVENTORY_PAGE_SIZE = 20;
const MAX_BODY = 1024 * 1024;

type Params = Map<string, string>;

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function send(res: ServerResponse, status: number, type: string, body: string) {
  if (res.headersSent) return;
  res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}
const sendJson = (res: ServerResponse, status: number, value: unknown) => send(res, status, "application/json; charset=utf-8", JSON.stringify(value));
const sendHtml = (res: ServerResponse, status: number, html: string) => send(res, status, "text/html; charset=utf-8", html);

/** The answer shaped by a configured path: "" means the value is the whole answer. */
function shaped(path: string, value: unknown): unknown {
  return path ? place({}, path, value) : value;
}

function item(fields: Array<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, value] of fields) if (path) place(out, path, value);
  return out;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function readParams(req: IncomingMessage, url: URL): Promise<Params> {
  const params: Params = new Map(url.searchParams);
  if (req.method !== "POST") return params;
  const body = await readBody(req);
  const type = String(req.headers["content-type"] ?? "");
  if (/multipart\/form-data|application\/x-www-form-urlencoded/i.test(type)) {
    const form = await new Response(new Uint8Array(body), { headers: { "content-type": type } }).formData();
    for (const [k, v] of form) if (typeof v === "string") params.set(k, v);
  } else if (/json/i.test(type) && body.length) {
    const json = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    for (const [k, v] of Object.entries(json)) params.set(k, String(v));
  }
  return params;
}

function imageBase(req: IncomingMessage) {
  const secure = (req.socket as { encrypted?: boolean }).encrypted;
  return `${secure ? "https" : "http"}://${req.headers.host ?? "127.0.0.1"}/services/img`;
}

function hue(text: string) {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) % 360;
  return h;
}

/** Small generated pictures so the dashboard shows something without the real image host. */
function svg(label: string, seed: string, round = false) {
  const h = hue(seed);
  const shape = round
    ? `<circle cx="32" cy="32" r="30" fill="hsl(${h} 55% 45%)"/>`
    : `<rect x="2" y="2" width="60" height="60" rx="12" fill="hsl(${h} 60% 42%)"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">${shape}<text x="32" y="38" font-family="sans-serif" font-size="${label.length > 3 ? 12 : 18}" text-anchor="middle" fill="#fff">${escapeHtml(label)}</text></svg>`;
}

function serveImage(res: ServerResponse, world: ServicesWorld, rest: string) {
  const parts = rest
    .replace(/\.(svg|png)$/, "")
    .split("/")
    .map(decodeURIComponent);
  const [kind, a, b] = parts;
  let body: string | undefined;
  if (kind === "gift" && a) body = svg(a.slice(0, 5), a);
  // The catalogue's pictures as the app names them (`<slug>.png`, GIFT_IMAGE_BASE_URL) so
  // the demo needs no image host. Drawn as SVG (the Content-Type says so; browsers follow
  // the header, not the extension): the slug's initials, "fire-cannon-ball" → "FCB".
  else if (kind === "gifts" && a && /^[a-z0-9-]+$/.test(a))
    body = svg(
      a
        .split("-")
        .map((w) => w[0]!.toUpperCase())
        .join("")
        .slice(0, 4),
      a,
    );
  else if (kind === "collection" && a && b && SIM_COLLECTIONS[Number(a)]) body = svg(`#${b}`, `${a}-${b}`);
  else if (kind === "avatar" && a) {
    const nick = world.findAccount(a)?.nick ?? a;
    body = svg(
      nick
        .replace(/[^\p{L}\p{N}]/gu, "")
        .slice(0, 2)
        .toUpperCase() || "?",
      nick,
      true,
    );
  }
  if (!body) return send(res, 404, "text/plain; charset=utf-8", "Not found");
  // CORS: the app keeps gift pictures in Cache Storage, which needs a readable response.
  res.writeHead(200, { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=3600", "Access-Control-Allow-Origin": "*" });
  res.end(body);
}

function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Node http handler for `/services/*`. Never throws; answers 500 on a simulator bug. */
export async function handleServices(
  world: ServicesWorld,
  req: IncomingMessage,
  res: ServerResponse,
  config: ServicesConfig = getServicesConfig(),
): Promise<void> {
  const state = servicesState(world);
  const url = new URL(req.url ?? "/", "http://sim.local");
  const rest = url.pathname.replace(/^\/services\/?/, "");
  if (rest.startsWith("img/")) return serveImage(res, world, rest.slice(4));
  if (rest !== "" && rest !== "index.php") return send(res, 404, "text/plain; charset=utf-8", "Not found");

  state.inFlight++;
  state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
  try {
    let params: Params;
    try {
      params = await readParams(req, url);
    } catch {
      return send(res, 400, "text/plain; charset=utf-8", "Bad request");
    }
    const latency = Number(world.faults?.latencyMs ?? 0);
    if (latency > 0) await sleep(latency);
    await world.untilReleased?.();

    const action = params.get("a") ?? "";
    const userID = params.get("userID") ?? "";
    const usercur = params.get("usercur") || userID;
    state.counts.set(action, (state.counts.get(action) ?? 0) + 1);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && /^(x-galaxy-|user-agent$)/i.test(k)) headers[k.toLowerCase()] = v;
    const shown = Object.fromEntries([...params].map(([k, v]) => [k, k === "password" ? "***" : v]));
    const remoteAddress = req.socket.remoteAddress?.replace(/^::ffff:/, "") ?? null;
    state.recent.push({ action, method: req.method ?? "GET", userID, usercur, params: shown, headers, at: Date.now(), remoteAddress });
    if (state.recent.length > 500) state.recent.splice(0, state.recent.length - 500);

    if (!userID || !world.checkPassword(userID, params.get("password") ?? "")) {
      return sendJson(res, 401, { error: "Wrong user ID or password" });
    }
    if (state.failActions.has(action) || state.failAccounts.has(usercur)) return sendJson(res, 500, { error: "Simulated service failure" });
    return answer(world, config, req, res, action, userID, usercur, params);
  } catch (err) {
    return send(res, 500, "text/plain; charset=utf-8", `Simulator error: ${(err as Error).message}`);
  } finally {
    state.inFlight--;
  }
}

function answer(
  world: ServicesWorld,
  config: ServicesConfig,
  req: IncomingMessage,
  res: ServerResponse,
  action: string,
  userID: string,
  usercur: string,
  params: Params,
) {
  const img = imageBase(req);
  const u = config.undocumented;
  const d = config.documented;
  const target = world.findAccount(usercur);
  const needTarget = () => {
    sendJson(res, 404, { error: "User not found" });
    return undefined;
  };

  switch (action) {
    case d.userPics.action: {
      const ids = (params.get(d.userPics.idsParam) ?? "").split(",").filter(Boolean).slice(0, 500);
      const out: Record<string, Record<string, string>> = {};
      for (const id of ids) {
        if (!world.findAccount(id)) continue;
        out[id] = hasPicture(world, id)
          ? // Numeric size keys: the official web client shows `avatars.2` (its templates), the
            // only size the sources name; the others are the simulator's [D] (docs/galaxy-services.md).
            { "1": `${img}/avatar/${id}.svg?s=50`, "2": `${img}/avatar/${id}.svg`, "3": `${img}/avatar/${id}.svg?s=200` }
          : {};
      }
      return sendJson(res, 200, out);
    }

    case d.inventory.action: {
      const items = inventoryOf(world, userID);
      const pages = Math.max(1, Math.ceil(items.length / INVENTORY_PAGE_SIZE));
      const page = Math.min(Math.max(1, Number(params.get(d.inventory.pageParam)) || 1), pages);
      const slice = items.slice((page - 1) * INVENTORY_PAGE_SIZE, page * INVENTORY_PAGE_SIZE);
      const html = [
        `<div class="s__inventory">`,
        ...slice.map(
          (i) =>
            `<div class="s__item"><a class="s__link" href="?a=present_info&amp;goodID=${i.goodId}${i.goodsId ? `&amp;goodsID=${i.goodsId}` : ""}"><img src="${i.goodsId ? `${img}/collection/${Math.floor(i.goodsId / 1000)}/${i.goodsId % 1000}.svg` : `${img}/gift/${encodeURIComponent(i.code)}.svg`}" alt=""></a><div class="s__name">${escapeHtml(i.name)}</div></div>`,
        ),
        items.length ? "" : `<div class="s__empty">Your inventory is empty</div>`,
        `<div class="s__pages"><div class="s__pages__counter">${page}/${pages}</div></div>`,
        `</div>`,
      ].join("\n");
      return sendHtml(res, 200, html);
    }

    case d.sendGifts.action: {
      if (!target) return sendHtml(res, 200, `<div class="s__present__error">User not found</div>`);
      if (usercur === userID) return sendHtml(res, 200, `<div class="s__present__error">You cannot give gifts to yourself</div>`);
      const ids = [...params.keys()].flatMap((k) => {
        const m = /^checked_items\[(\d+)\]$/.exec(k);
        return m && params.get(k) === "1" ? [Number(m[1])] : [];
      });
      if (!ids.length) return sendHtml(res, 200, `<div class="s__present__error">Choose at least one gift</div>`);
      const result = transferGifts(world, userID, usercur, ids);
      if (!result.ok) return sendHtml(res, 200, `<div class="s__present__error">${escapeHtml(result.error)}</div>`);
      // No public source shows the real answer (reference §7.2): a plain page, no class that confirms
      // anything; the product confirms by a fresh inventory read (issue 34 item 3).
      return sendHtml(res, 200, `<div>Gifts sent: ${result.sent} to ${escapeHtml(target.nick)}</div>`);
    }

    case d.search.action: {
      const needle = (params.get(d.search.valueField) ?? "").trim().toLowerCase();
      const matches = needle ? world.accounts.filter((a) => a.nick.toLowerCase().includes(needle)).slice(0, 20) : [];
      const list = matches.map((a) => {
        const id = String(a.id);
        const online = !!world.whereIs(id)?.online;
        return item([
          [d.search.userId, Number(id) || id],
          [d.search.nick, a.nick],
          [d.search.lastOnline, lastOnlineText(world, id, online)],
        ]);
      });
      return sendJson(res, 200, shaped(d.search.listPath, list));
    }

    case "pay_get_balance":
      return send(res, 200, "text/plain; charset=utf-8", String(1000 + (Number(userID) % 5000)));

    case u.giftStats.action: {
      if (!target) return needTarget();
      const r = u.giftStats.response;
      const list = giftStatsOf(world, String(target.id)).map((g) =>
        item([
          [r.type, g.type],
          [r.name, g.name],
          [r.img, `${img}/gift/${encodeURIComponent(g.code)}.svg`],
          [r.amount, g.amount],
        ]),
      );
      return sendJson(res, 200, shaped(r.listPath, list));
    }

    case u.onlineStatus.action: {
      if (!target) return needTarget();
      const where = world.whereIs(String(target.id));
      const r = u.onlineStatus.response;
      return sendJson(
        res,
        200,
        item([
          [r.isOnline, !!where?.online],
          [r.room, where?.online ? (where.planet ?? null) : null],
        ]),
      );
    }

    case u.collectionStats.action: {
      if (!target) return needTarget();
      const id = Number(params.get(u.collectionStats.collectionParam) ?? u.collectionStats.defaultCollectionId);
      if (!SIM_COLLECTIONS[id]) return sendJson(res, 404, { error: "Unknown collection" });
      const r = u.collectionStats.response;
      const counts = collectionCounts(world, String(target.id), id);
      const items = counts.map((count, i) =>
        item([
          [r.index, i + 1],
          [r.goodsId, collectionGoodsId(id, i + 1)],
          [r.imageUrl, `${img}/collection/${id}/${i + 1}.svg`],
          [r.count, count],
        ]),
      );
      const half = COLLECTION_SIZE / 2;
      const body: Record<string, unknown> = {};
      place(body, r.firstRowPath, items.slice(0, half));
      place(body, r.secondRowPath, items.slice(half));
      if (r.firstRowPath.includes(".")) place(body, `${r.firstRowPath.split(".")[0]}.name`, SIM_COLLECTIONS[id]);
      return sendJson(res, 200, body);
    }

    case u.mastic.action: {
      const id = Number(params.get(u.mastic.collectionParam));
      if (!SIM_COLLECTIONS[id])
        return sendJson(
          res,
          200,
          item([
            [u.mastic.response.success, false],
            [u.mastic.response.message, "Unknown collection"],
          ]),
        );
      const got = applyMastic(world, userID, id);
      return sendJson(res, 200, {
        ...item([
          [u.mastic.response.success, true],
          [u.mastic.response.message, `Mastic used: item ${got.index} of ${SIM_COLLECTIONS[id]}`],
        ]),
        item: got,
      });
    }

    case u.dailyStats.action: {
      if (!target) return needTarget();
      const days = Math.min(Math.max(Number(params.get(u.dailyStats.daysParam)) || 7, 1), 31);
      const r = u.dailyStats.response;
      const list = dailyStatsOf(world, target, days).map((day) =>
        item([
          [r.date, day.date],
          [r.awards, day.awards],
          [r.spent, day.spent],
        ]),
      );
      return sendJson(res, 200, shaped(r.listPath, list));
    }

    default:
      return send(res, 404, "text/plain; charset=utf-8", `Unknown action ${action}`);
  }
}

export { SIM_CATALOGUE, SIM_GIFT_TYPES, SIM_COLLECTIONS };
