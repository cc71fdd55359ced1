/**
 * Simulator parts for the trading run (issue 11; galaxy-runtime.md §2.3 "Simulator"):
 *
 * - a flight log: every JOIN a session sent, with what the server answered (ok, 403 no such
 *   planet, 471 full, 473 locked, or "fly-rate" when it came sooner than `flyIntervalMs` after
 *   the session's last flight; the penalty is an 850 notice or, with the fault
 *   `flyPenalty: "kick"`, a KICK aimed at the session with the platform's text);
 * - a chat log: every PRIVMSG a session sent to its planet (what other sessions there see as
 *   `PRIVMSG <senderId> 0 <targetId> :<text>`);
 * - populations: fill a planet with exactly N scripted users (head-count), change a planet's
 *   capacity or closed flag (restored by /__sim/reset).
 *
 * Control (JSON, mounted by sim/control.ts):
 *   GET  /__sim/flights[?accountId=]              { flights: [{accountId, planet, result, at}] }
 *   GET  /__sim/chat[?planet=&fromId=]             { chat: [{fromId, nick, planet, toId, text, at}] }
 *   POST /__sim/population { planet, count }       that many scripted users stand there (others leave)
 *   POST /__sim/planet { name, capacity?, closed? } change a planet until the next reset
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { parseJsonBody as parse, sendJson as send } from "./http";
import type { SimPlanet, World } from "./world";

export type FlightResult = "ok" | "403" | "471" | "473" | "fly-rate";
export type SimFlight = { accountId: string; planet: string | null; result: FlightResult; at: number };
export type SimChatLine = { fromId: string; nick: string; planet: string; toId: string; text: string; at: number };

/** The platform's fly-rate text (galaxy-runtime.md §2.1(c) CLIENT_TEXT_268). */
export const flyTooOftenKick = (planet: string, seconds: number) =>
  `Oops! You can't go to ${planet}! You aren't allowed to change Planets that frequently. Please wait ${seconds} seconds.`;

const MAX_LOG = 5_000;
/** Scripted crowd ids (never an account id: those have 7–8 digits). */
const CROWD_BASE = 700_000_000;

export class SimTrading {
  readonly flights: SimFlight[] = [];
  readonly chat: SimChatLine[] = [];
  #original = new Map<string, Pick<SimPlanet, "capacity" | "closed">>();
  #crowd = 0;

  constructor(readonly world: World) {
    world.onReset(() => {
      this.flights.length = 0;
      this.chat.length = 0;
      for (const [name, orig] of this.#original) Object.assign(this.world.planet(name)!, orig);
      this.#original.clear();
    });
  }

  recordFlight(accountId: string, planet: string | null, result: FlightResult) {
    this.flights.push({ accountId, planet, result, at: Date.now() });
    if (this.flights.length > MAX_LOG) this.flights.shift();
  }

  recordChat(fromId: string, planet: string, toId: string, text: string) {
    const nick = this.world.people.get(fromId)?.nick ?? fromId;
    this.chat.push({ fromId, nick, planet, toId, text, at: Date.now() });
    if (this.chat.length > MAX_LOG) this.chat.shift();
  }

  /** Exactly `count` scripted users on `planet` besides logged-in sessions (`isSession`). */
  setPopulation(planetName: string, count: number, isSession: (id: string) => boolean) {
    const planet = this.world.planet(planetName);
    if (!planet) throw new Error(`No planet ${planetName}`);
    for (const id of this.world.occupants(planet.name)) if (!isSession(id)) this.world.setOffline(id);
    for (let i = 0; i < count; i++) {
      const id = String(CROWD_BASE + ++this.#crowd);
      this.world.people.set(id, {
        id,
        nick: `Crowd${this.#crowd}`,
        clan: null,
        gender: (this.#crowd % 2) as 0 | 1,
        viewCount: 0,
        views: [],
        position: 100 + (this.#crowd % 700),
        bot: false,
        operator: false,
      });
      this.world.setOnline(id);
      this.world.moveTo(id, planet.name);
    }
    return this.world.occupants(planet.name).length;
  }

  editPlanet(name: string, change: { capacity?: number; closed?: boolean }): SimPlanet {
    const planet = this.world.planet(name);
    if (!planet) throw new Error(`No planet ${name}`);
    if (!this.#original.has(planet.name)) this.#original.set(planet.name, { capacity: planet.capacity, closed: planet.closed });
    if (change.capacity !== undefined) planet.capacity = change.capacity;
    if (change.closed !== undefined) planet.closed = change.closed;
    return planet;
  }
}

const populationSchema = z.object({ planet: z.string().min(1), count: z.number().int().min(0).max(1000) }).strict();
const planetSchema = z.object({ name: z.string().min(1), capacity: z.number().int().min(0).max(10_000).optional(), closed: z.boolean().optional() }).strict();

/** Handles the trading levers; false when the path is not one of them. */
export async function handleTradingControl(
  trading: SimTrading,
  isSession: (id: string) => boolean,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  path: string,
  method: string,
): Promise<boolean> {
  if (method === "GET" && path === "/__sim/flights") {
    const accountId = url.searchParams.get("accountId");
    send(res, 200, { flights: trading.flights.filter((f) => !accountId || f.accountId === accountId) });
    return true;
  }
  if (method === "GET" && path === "/__sim/chat") {
    const planet = url.searchParams.get("planet");
    const fromId = url.searchParams.get("fromId");
    send(res, 200, { chat: trading.chat.filter((c) => (!planet || c.planet === planet) && (!fromId || c.fromId === fromId)) });
    return true;
  }
  if (method === "POST" && path === "/__sim/population") {
    const { planet, count } = await parse(req, populationSchema);
    if (!trading.world.planet(planet)) return (send(res, 404, { error: `No planet ${planet}` }), true);
    send(res, 200, { planet: trading.world.planet(planet)!.name, count: trading.setPopulation(planet, count, isSession) });
    return true;
  }
  if (method === "POST" && path === "/__sim/planet") {
    const { name, ...change } = await parse(req, planetSchema);
    if (!trading.world.planet(name)) return (send(res, 404, { error: `No planet ${name}` }), true);
    send(res, 200, { planet: trading.editPlanet(name, change) });
    return true;
  }
  return false;
}
