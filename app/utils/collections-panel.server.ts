import { preferenceCookie } from "./plain-cookie.server";

/**
 * The Collections floating panel (spec 2 "Main app shell": showCollections and a minimized
 * flag, remembered): one preference cookie read by the shell's loader, so the server renders
 * the panel as it was (no flash). "hide" = showCollections off; "show" and "minimized" = on.
 */
export type PanelMode = "show" | "minimized" | "hide";
const isPanelMode = (v: string): v is PanelMode => v === "show" || v === "minimized" || v === "hide";
export const collectionsPanelCookie = preferenceCookie<PanelMode>("gt_collections_panel", isPanelMode);
