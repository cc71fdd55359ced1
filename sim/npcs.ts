/**
 * Moving scripted users (galaxy-runtime.md §1.3 "Simulator requirements"): NPCs that JOIN,
 * PART and SLEEP between the general planets on a seeded schedule, so a stalker's roster and
 * sightings change. Deterministic: the same world seed and the same number of steps give the
 * same moves. Accounts logged in on a socket are never moved (their client decides).
 *
 *   const npcs = new NpcMover(world, (id) => sockets.sessions(id).length > 0);
 *   npcs.step(3);            // three moves now
 *   npcs.start(2_000);       // a move every 2 s until npcs.stop()
 */
import { GENERAL_PLANETS, prng, type Prng, type World } from "./world";

export type NpcMove = { step: number; id: string; from: string | null; to: string | null; how: "join" | "leave" | "sleep" };

export type NpcStatus = { running: boolean; intervalMs: number | null; steps: number; last: NpcMove[] };

export class NpcMover {
  #rng: Prng;
  #timer: NodeJS.Timeout | null = null;
  #intervalMs: number | null = null;
  #steps = 0;
  #last: NpcMove[] = [];

  constructor(
    private readonly world: World,
    /** True for accounts a client holds on a socket: the schedule leaves them alone. */
    private readonly busy: (id: string) => boolean = () => false,
  ) {
    this.#rng = prng(world.seed ^ 0x4e9c);
    world.onReset(() => this.reset());
  }

  /** The scripted users: every seeded account except stalkers (those are ours to run). */
  get pool(): string[] {
    return this.world.accounts.filter((a) => a.kind !== "stalker").map((a) => a.id);
  }

  /** Makes `n` moves now; returns them. */
  step(n = 1): NpcMove[] {
    const moves: NpcMove[] = [];
    const pool = this.pool;
    for (let i = 0; i < n; i++) {
      const id = this.#rng.pick(pool);
      this.#steps++;
      if (this.busy(id)) continue;
      const { online, planet } = this.world.whereIs(id);
      const roll = this.#rng.next();
      let move: NpcMove;
      if (!online || !planet) {
        const to = this.#rng.pick(GENERAL_PLANETS);
        this.world.moveTo(id, to);
        move = { step: this.#steps, id, from: null, to, how: "join" };
      } else if (roll < 0.5) {
        const to = this.#rng.pick(GENERAL_PLANETS.filter((p) => p !== planet));
        this.world.moveTo(id, to);
        move = { step: this.#steps, id, from: planet, to, how: "join" };
      } else if (roll < 0.75) {
        this.world.leavePlanet(id);
        move = { step: this.#steps, id, from: planet, to: null, how: "leave" };
      } else {
        this.world.setOffline(id, "sleep");
        move = { step: this.#steps, id, from: planet, to: null, how: "sleep" };
      }
      moves.push(move);
    }
    this.#last = [...this.#last, ...moves].slice(-20);
    return moves;
  }

  /** A move every `intervalMs` until stop(). */
  start(intervalMs: number) {
    this.stop();
    this.#intervalMs = intervalMs;
    this.#timer = setInterval(() => this.step(1), intervalMs);
    this.#timer.unref();
  }

  stop() {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#intervalMs = null;
  }

  /** Stopped, and the schedule starts over (POST /__sim/reset). */
  reset() {
    this.stop();
    this.#rng = prng(this.world.seed ^ 0x4e9c);
    this.#steps = 0;
    this.#last = [];
  }

  status(): NpcStatus {
    return { running: this.#timer !== null, intervalMs: this.#intervalMs, steps: this.#steps, last: [...this.#last] };
  }
}
