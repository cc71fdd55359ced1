/**
 * The simulator's control endpoint under `/__sim/` (JSON): seeded accounts and planets for
 * tests and demos, fault injection, and a few levers to make the world move.
 *
 *   GET  /__sim/accounts[?kind=bowling]   seeded accounts with recovery codes and passwords
 *   GET  /__sim/planets[?kind=cannon]     planets with kind, capacity and who is on them
 *   GET  /__sim/whereis/<id>              { online, planet } of an account
 *   GET  /__sim/faults                    current faults
 *   POST /__sim/faults                    { latencyMs, dropConnections, refuseConnections,
 *                                           loginCode: 451|452|950|601|null, loginCodeAccounts,
 *                                           fullPlanets: [...], flyIntervalMs,
 *                                           failAccounts: [ids], failActions: [actions], hold } (partial merge;
 *                                           failAccounts and failActions are the HTTP services' switches: every call
 *                                           about those accounts / of those actions answers 500; hold: true keeps
 *                                           every services answer and every login waiting until hold: false)
 *   POST /__sim/reset                     seeded presence, no faults, connections closed
 *   GET  /__sim/connections               open and recently closed socket sessions, logins refused, kicks (950 on a takeover)
 *   GET  /__sim/services/requests[?action=present_make]  the latest 500 HTTP services requests (no passwords)
 *   GET  /__sim/counters                  logins, 950 takeovers (a second login while the first was
 *                                           logged in), open sockets, accounts with two logged-in sockets
 *   POST /__sim/ping   { accountId? }     PING now (sessions must answer PONG)
 *   POST /__sim/send   { line, accountId? } raw text to sessions (malformed lines, notices…)
 *   POST /__sim/say    { planet, fromId, text, toId? }  chat from someone on a planet
 *   POST /__sim/presence { id, planet | null, how?: "leave"|"sleep" }  move someone
 *   POST /__sim/kick   { accountId, text? }          KICK aimed at that account's session
 *   POST /__sim/prison { accountId, planet? }        PRISON, then the session stands on Prison*N
 *   POST /__sim/another-device { accountId }         950 to that session, then close
 *   POST /__sim/drop   { accountId? }                close that account's sockets (or all) without handshake
 *   GET  /__sim/npcs                                 the moving scripted users: running, steps, last moves
 *   POST /__sim/npcs   { action: "start", intervalMs } | { action: "stop" } | { action: "step", steps? }
 *   GET  /__sim/flights, GET /__sim/chat, POST /__sim/population, POST /__sim/planet   (sim/trading.ts)
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { BadRequest, parseJsonBody as parse, readJsonBody as readBody, sendJson as send } from "./http";
import type { NpcMover } from "./npcs";
import type { SimSocketServer } from "./socket";
import { servicesState } from "./services-data";
import { handleTradingControl } from "./trading";
import type { SimFaults, World } from "./world";

const faultsSchema = z
  .object({
    latencyMs: z.number().int().min(0).max(120_000),
    dropConnections: z.boolean(),
    refuseConnections: z.boolean(),
    loginCode: z.union([z.literal(451), z.literal(452), z.literal(950), z.literal(601), z.null()]),
    loginCodeAccounts: z.array(z.string()).nullable(),
    fullPlanets: z.array(z.string()),
    flyIntervalMs: z.number().int().min(0).max(600_000),
    flyPenalty: z.enum(["notice", "kick"]),
    failAccounts: z.array(z.string().regex(/^\d{1,12}$/)).max(10_000),
    failActions: z.array(z.string().min(1).max(100)).max(100),
    hold: z.boolean(),
  })
  .partial()
  .strict();

const pingSchema = z.object({ accountId: z.string().nullish() }).strict();
const sendSchema = z.object({ line: z.string().min(1).max(100_000), accountId: z.string().nullish() }).strict();
const saySchema = z.object({ planet: z.string().min(1), fromId: z.string().min(1), text: z.string().min(1).max(10_000), toId: z.string().optional() }).strict();
const presenceSchema = z.object({ id: z.string().min(1), planet: z.string().min(1).nullable(), how: z.enum(["leave", "sleep"]).optional() }).strict();

const accountSchema = z.object({ accountId: z.string().regex(/^\d{1,12}$/) }).strict();
const kickSchema = z.object({ accountId: z.string().regex(/^\d{1,12}$/), text: z.string().min(1).max(500).optional() }).strict();
const prisonSchema = z.object({ accountId: z.string().regex(/^\d{1,12}$/), planet: z.string().min(1).optional() }).strict();
const dropSchema = z
  .object({
    accountId: z
      .string()
      .regex(/^\d{1,12}$/)
      .optional(),
  })
  .strict();
const npcsSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("start"), intervalMs: z.number().int().min(10).max(3_600_000) }).strict(),
  z.object({ action: z.literal("stop") }).strict(),
  z.object({ action: z.literal("step"), steps: z.number().int().min(1).max(10_000).optional() }).strict(),
]);

export function publicAccount(world: World, a: World["accounts"][number]) {
  return { ...a, ...world.whereIs(a.id) };
}

/** Handles a `/__sim/…` request. */
export async function handleControl(world: World, sockets: SimSocketServer, req: IncomingMessage, res: ServerResponse, npcs?: NpcMover): Promise<void> {
  const url = new URL(req.url ?? "/", "http://sim.local");
  const path = url.pathname.replace(/\/+$/, "");
  const method = req.method ?? "GET";
  try {
    if (method === "GET" && (path === "/__sim" || path === "")) {
      return send(res, 200, {
        seed: world.seed,
        endpoints: [
          "GET /__sim/accounts",
          "GET /__sim/planets",
          "GET /__sim/whereis/<id>",
          "GET|POST /__sim/faults",
          "POST /__sim/reset",
          "GET /__sim/connections",
          "GET /__sim/counters",
          "GET /__sim/services/requests",
          "POST /__sim/ping",
          "POST /__sim/send",
          "POST /__sim/say",
          "POST /__sim/presence",
          "POST /__sim/kick",
          "POST /__sim/prison",
          "POST /__sim/another-device",
          "POST /__sim/drop",
          "GET|POST /__sim/npcs",
          "GET /__sim/flights",
          "GET /__sim/chat",
          "POST /__sim/population",
          "POST /__sim/planet",
        ],
      });
    }
    if (method === "GET" && path === "/__sim/accounts") {
      const kind = url.searchParams.get("kind");
      const accounts = world.accounts.filter((a) => !kind || a.kind === kind).map((a) => publicAccount(world, a));
      return send(res, 200, { seed: world.seed, accounts });
    }
    if (method === "GET" && path === "/__sim/planets") {
      const kind = url.searchParams.get("kind");
      const planets = world.planets
        .filter((p) => !kind || p.kind === kind)
        .map((p) => {
          const users = world.occupants(p.name);
          return { ...p, users, count: users.length, full: world.isFull(p) };
        });
      return send(res, 200, { planets });
    }
    const where = /^\/__sim\/whereis\/(\d+)$/.exec(path);
    if (method === "GET" && where) return send(res, 200, world.whereIs(where[1]));
    if (path === "/__sim/faults") {
      const services = servicesState(world);
      const all = () => ({ ...world.faults, failAccounts: [...services.failAccounts], failActions: [...services.failActions] });
      if (method === "GET") return send(res, 200, { faults: all() });
      if (method === "POST") {
        const { dropConnections, failAccounts, failActions, ...rest } = await parse(req, faultsSchema);
        world.setFaults(rest as Partial<SimFaults>);
        for (const [set, ids] of [
          [services.failAccounts, failAccounts],
          [services.failActions, failActions],
        ] as const) {
          if (!ids) continue;
          set.clear();
          for (const id of ids) set.add(id);
        }
        const dropped = dropConnections ? sockets.dropAll() : 0;
        return send(res, 200, { faults: all(), dropped });
      }
    }
    if (method === "POST" && path === "/__sim/reset") {
      await readBody(req).catch(() => null);
      const dropped = sockets.dropAll();
      world.reset();
      sockets.clearHistory();
      return send(res, 200, { ok: true, dropped, faults: world.faults });
    }
    if (method === "GET" && path === "/__sim/connections") return send(res, 200, sockets.snapshot());
    if (method === "GET" && path === "/__sim/counters") return send(res, 200, sockets.counts());
    if (method === "GET" && path === "/__sim/services/requests") {
      const action = url.searchParams.get("action");
      const requests = servicesState(world).recent.filter((r) => !action || r.action === action);
      return send(res, 200, { requests });
    }
    if (method === "POST" && path === "/__sim/ping") {
      const { accountId } = await parse(req, pingSchema);
      return send(res, 200, { sent: sockets.ping(accountId) });
    }
    if (method === "POST" && path === "/__sim/send") {
      const { line, accountId } = await parse(req, sendSchema);
      return send(res, 200, { sent: sockets.sendRaw(line, accountId) });
    }
    if (method === "POST" && path === "/__sim/say") {
      const { planet, fromId, text, toId } = await parse(req, saySchema);
      if (/[\r\n]/.test(text)) throw new BadRequest("text: no line breaks");
      if (!world.planet(planet)) return send(res, 404, { error: `No planet ${planet}` });
      return send(res, 200, { sent: sockets.say(world.planet(planet)!.name, fromId, text, toId) });
    }
    if (method === "POST" && path === "/__sim/presence") {
      const { id, planet, how } = await parse(req, presenceSchema);
      if (!world.people.has(id)) return send(res, 404, { error: `No person ${id}` });
      if (sockets.sessions(id).length) return send(res, 409, { error: `${id} is logged in on a socket; move it with JOIN` });
      if (planet === null) {
        if (how === "leave") world.leavePlanet(id);
        else world.setOffline(id, how === "sleep" ? "sleep" : "offline");
      } else {
        const p = world.planet(planet);
        if (!p) return send(res, 404, { error: `No planet ${planet}` });
        world.moveTo(id, p.name);
      }
      return send(res, 200, world.whereIs(id));
    }
    if (method === "POST" && path === "/__sim/kick") {
      const { accountId, text } = await parse(req, kickSchema);
      if (text && /[\r\n]/.test(text)) throw new BadRequest("text: no line breaks");
      return send(res, 200, { sent: sockets.kick(accountId, text) });
    }
    if (method === "POST" && path === "/__sim/prison") {
      const { accountId, planet } = await parse(req, prisonSchema);
      const prison = world.planet(planet ?? "Prison*1");
      if (!prison || prison.kind !== "prison") return send(res, 404, { error: `No prison planet ${planet}` });
      return send(res, 200, { sent: sockets.imprison(accountId, prison.name) });
    }
    if (method === "POST" && path === "/__sim/another-device") {
      const { accountId } = await parse(req, accountSchema);
      return send(res, 200, { sent: sockets.anotherDevice(accountId) });
    }
    if (method === "POST" && path === "/__sim/drop") {
      const { accountId } = await parse(req, dropSchema);
      return send(res, 200, { dropped: accountId ? sockets.dropAccount(accountId) : sockets.dropAll() });
    }
    if (path === "/__sim/npcs" && npcs) {
      if (method === "GET") return send(res, 200, npcs.status());
      if (method === "POST") {
        const body = await parse(req, npcsSchema);
        let moves: unknown[] = [];
        if (body.action === "start") npcs.start(body.intervalMs);
        else if (body.action === "stop") npcs.stop();
        else moves = npcs.step(body.steps ?? 1);
        return send(res, 200, { ...npcs.status(), moves });
      }
    }
    if (await handleTradingControl(sockets.trading, (id) => sockets.sessions(id).length > 0, req, res, url, path, method)) return;
    return send(res, 404, { error: `Unknown control endpoint ${method} ${path}` });
  } catch (e) {
    if (e instanceof BadRequest) return send(res, 400, { error: e.message });
    return send(res, 500, { error: (e as Error).message });
  }
}
