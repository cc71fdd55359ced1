import { expect, request as playwrightRequest } from "@playwright/test";
import { WORLD } from "./world";

/**
 * Seeds one distinct `error` entry (source `system`) in System Logs through the app
 * itself: a user-agent map whose only entry has unparsable iHeaders is skipped and logged
 * as "User agent of {name} skipped: …" (spec 1 §5). Failed logins no longer serve: they
 * are summed into one entry per window (docs/decisions/0012).
 * The call is the logged-in operator's (the run's storage state), same-origin JSON.
 */
export async function seedFailedLogin(baseURL: string, name: string): Promise<string> {
  const ctx = await playwrightRequest.newContext({
    baseURL,
    storageState: WORLD.storageState,
    extraHTTPHeaders: { Origin: baseURL },
  });
  try {
    const res = await ctx.post("/api/user-agent", { data: { [name]: { headers: "{not json" } } });
    expect(res.status(), `the user-agent map for ${name} should be answered`).toBe(200);
    const body = (await res.json()) as { skipped: Array<{ id: string; reason: string }> };
    const skipped = body.skipped.find((s) => s.id === name);
    expect(skipped, `${name} should be skipped`).toBeDefined();
    return `User agent of ${name} skipped: ${skipped!.reason}`;
  } finally {
    await ctx.dispose();
  }
}

/**
 * Seeds one `error`/`system` entry per name, in order (the first name's entry is the oldest),
 * with one user-agent map like `seedFailedLogin`. Returns the messages in the same order.
 */
export async function seedSkippedEntries(baseURL: string, names: string[]): Promise<string[]> {
  const ctx = await playwrightRequest.newContext({
    baseURL,
    storageState: WORLD.storageState,
    extraHTTPHeaders: { Origin: baseURL },
  });
  try {
    const res = await ctx.post("/api/user-agent", { data: Object.fromEntries(names.map((n) => [n, { headers: "{not json" }])) });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { skipped: Array<{ id: string; reason: string }> };
    const reasons = new Map(body.skipped.map((s) => [s.id, s.reason]));
    return names.map((n) => `User agent of ${n} skipped: ${reasons.get(n)}`);
  } finally {
    await ctx.dispose();
  }
}

export function uniqueName(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/**
 * A type and source whose filter shows no entry right now (other sections' journeys log
 * under several sources while the run goes on, so no fixed pair is sure to stay empty).
 * `except` keeps a source out of the choice (the one the test filtered by just before).
 */
export async function emptyFilter(baseURL: string, except: { type?: string; source?: string } = {}): Promise<{ type: string; source: string }> {
  const ctx = await playwrightRequest.newContext({ baseURL, storageState: WORLD.storageState });
  try {
    for (const type of ["debug", "disconnect", "info", "error"]) {
      for (const source of ["discord", "galaxyAuth", "bot", "system"]) {
        if (type === except.type && source === except.source) continue;
        const res = await ctx.get(`/api/logs?type=${type}&source=${source}`);
        expect(res.status()).toBe(200);
        if (((await res.json()) as { logs: unknown[] }).logs.length === 0) return { type, source };
      }
    }
    throw new Error("every type/source filter has entries: no empty filter to show");
  } finally {
    await ctx.dispose();
  }
}
