/**
 * The local planet type catalogue (spec 2 §3 "Trading planets": russian (no entries), ring
 * (15 entries), cannon (35), bowling (30), english (two trade zone names)).
 *
 * OUR ASSUMPTION (docs/trading-planets.md, galaxy-runtime.md §2.1(b), §2.3): the spec gives the
 * counts but not the names. Game planets are named `<Game>*<N>` on the platform (`Cannon*12`,
 * `RingToss*N`), so the entries are `RingToss*1..15`, `Cannon*1..35`, `Bowling*1..30`; the two
 * english trade zones `TradeZone*1`, `TradeZone*2` are named by us (the simulator has them all). Custom planets of type english
 * join the english entries; blacklisted custom planets are dropped when a step is expanded.
 * This file is the one place the names live.
 */
import type { CustomPlanet } from "./trading";

const numbered = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}*${i + 1}`);

export const PLANET_CATALOGUE: Readonly<Record<string, readonly string[]>> = {
  russian: [],
  ring: numbered("RingToss", 15),
  cannon: numbered("Cannon", 35),
  bowling: numbered("Bowling", 30),
  english: ["TradeZone*1", "TradeZone*2"],
};

export const PLANET_TYPES = Object.keys(PLANET_CATALOGUE);

/** Entries of a type, with custom english planets added to english. */
export function planetEntries(type: string, custom: readonly CustomPlanet[] = []): string[] {
  const base = [...(PLANET_CATALOGUE[type] ?? [])];
  if (type === "english") for (const p of custom) if (p.type === "english") base.push(p.name);
  return base;
}

/** "ring (15)": the form's type option label (spec 2 §2 "planet type with its entry count in brackets"). */
export function planetTypeLabel(type: string, custom: readonly CustomPlanet[] = []): string {
  return `${type} (${planetEntries(type, custom).length})`;
}
