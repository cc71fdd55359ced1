/**
 * The section menu of the main app shell (spec 2, "Main app shell"), in menu order.
 * Client-safe: the layout, the `/` redirect and every section route read this list.
 */
export const SECTIONS = [
  { id: "exchange-rates", label: "Exchange Rates", path: "/exchange-rates" },
  { id: "gifts", label: "Bowling Bots", path: "/gifts" },
  { id: "characters", label: "All Characters", path: "/characters" },
  { id: "trading-planets", label: "Trading Planets", path: "/trading-planets" },
  { id: "galacord", label: "GalaCord", path: "/galacord" },
  { id: "collections", label: "Collections", path: "/collections" },
] as const;

export type Section = (typeof SECTIONS)[number];
export type SectionId = Section["id"];

/** Spec 2: "the default is exchange-rates". */
export const DEFAULT_SECTION: SectionId = "exchange-rates";

export function isSectionId(value: unknown): value is SectionId {
  return typeof value === "string" && SECTIONS.some((s) => s.id === value);
}

export function getSection(id: SectionId): Section {
  return SECTIONS.find((s) => s.id === id)!;
}

/** The section a URL path belongs to (`/gifts` and `/gifts/anything` → gifts), if any. */
export function sectionForPath(pathname: string): Section | undefined {
  const path = pathname.replace(/\/+$/, "") || "/";
  return SECTIONS.find((s) => path === s.path || path.startsWith(`${s.path}/`));
}
