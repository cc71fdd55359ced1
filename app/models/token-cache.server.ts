import { remember } from "~/utils/remember.server";

/**
 * The verified API tokens this process remembers (app/models/api-token.server.ts fills and
 * reads it, and types its entries). Its own module so that operator changes (a demotion, a
 * deletion: app/models/operator.server.ts) can drop it without importing the token model,
 * which imports the operator model (no import cycle).
 */
const g = remember("api-tokens", (): { tokenCache?: Map<string, unknown> } => ({}));

/** The one map of this process; `T` is the entry type its only writer (api-token.server.ts) stores. */
export function tokenCacheMap<T>(): Map<string, T> {
  return (g.tokenCache ??= new Map()) as Map<string, T>;
}

/** Forgets every verified token (after a revoke, an operator deletion or demotion, or in tests). */
export function clearTokenCache() {
  g.tokenCache?.clear();
}
