import { preferenceCookie } from "~/utils/plain-cookie.server";

/**
 * Dark mode (spec 2, "Main app shell": "Default is dark and the choice is remembered").
 * The root loader reads the cookie so the server renders the right theme: no flash.
 */
export const THEMES = ["dark", "light"] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = "dark";

export function isTheme(value: unknown): value is Theme {
  return value === "dark" || value === "light";
}

export const themeCookie = preferenceCookie("gt_theme", isTheme);

export function getTheme(request: Request): Theme {
  return themeCookie.read(request) ?? DEFAULT_THEME;
}

/** The Set-Cookie header value that remembers `theme`. */
export function setThemeCookie(theme: Theme): string {
  return themeCookie.serialize(theme);
}
