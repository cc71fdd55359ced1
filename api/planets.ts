/**
 * The local planet type catalogue (spec 2 §3 "Trading planets": russian (no entries), ring
 * (15 entries), cannon (35), bowling (30), english (two trade zone names)).
 *
 * OUR ASSUMPTION (docs/trading-planets.md, galaxy-runtime.md §2): the spec gives the counts
 * but not the names. The names below follow the platform's naming of numbered public planets
 * (`<type>_<n>`); the two english trade zones are named by us. Custom planets of type english
 * join the english entries; blacklisted custom planets are dropped when a step is expanded.
 * This file is the one place the names live.
 */
import type { CustomPlanet } from "./trading";

const numbered = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}_${i + 1}`);

export const PLANET_CATALOGUE: Readonly<Record<string, readonly string[]>> = {
  russian: [],
  ring: numbered("ring", 15),
  cannon: numbered("cannon", 35),
  bowling: numbered("bowling", 30),
  english: ["trade_zone", "trade_zone_2"],
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
