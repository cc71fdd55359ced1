/**
 * The platform's planet-name rule, in one place for everything that names a planet: the
 * Galaxy client's JOIN (app/galaxy/connection.server.ts), GalaCord's Change Planet
 * (api/galacord-schemas.ts) and Trading Planets' custom planets (api/trading-schemas.ts and
 * the Custom Planets dialog). A name the platform cannot join — "Trade Zone 🌍", "a:b" — is
 * refused where it is typed (400 on the /api) instead of being stored and then skipped by
 * every trading round with "Invalid planet name" (issue 19).
 *
 * OUR ASSUMPTION (galaxy-runtime.md, the IRC-like JOIN line): a planet name is one
 * parameter of the line, so it holds no whitespace and no colon, and at most 64 characters.
 * No zod here: the screens check with it without loading zod (bench/first-load.ts).
 */
export const PLANET_NAME_MAX = 64;

export const PLANET_NAME_PATTERN = /^[^\s:\0]{1,64}$/;

export const PLANET_NAME_RULE = "A planet name is one word (no spaces or colons), at most 64 characters";

export function isPlanetName(name: string): boolean {
  return PLANET_NAME_PATTERN.test(name);
}
