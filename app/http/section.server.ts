import { DEFAULT_SECTION, getSection, isSectionId, sectionForPath, type SectionId } from "~/components/shell/sections";
import { preferenceCookie } from "~/utils/plain-cookie.server";

/**
 * The remembered section (spec 2, "Main app shell": "The chosen section is remembered
 * across visits; the default is exchange-rates"). A cookie, so `/` can redirect on the
 * server before anything renders.
 */
export const sectionCookie = preferenceCookie("gt_section", isSectionId);

export function getRememberedSection(request: Request): SectionId {
  return sectionCookie.read(request) ?? DEFAULT_SECTION;
}

/** Where `/` sends this visitor. */
export function rememberedSectionPath(request: Request): string {
  return getSection(getRememberedSection(request)).path;
}

/**
 * The Set-Cookie header for a visit to `request`'s URL: a section page that differs from
 * the remembered one updates it; any other page (System Logs, settings) leaves it alone.
 */
export function rememberSectionHeader(request: Request): string | undefined {
  const section = sectionForPath(new URL(request.url).pathname);
  if (!section || sectionCookie.read(request) === section.id) return undefined;
  return sectionCookie.serialize(section.id);
}
