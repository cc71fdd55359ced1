import { expect, request as playwrightRequest } from "@playwright/test";

/**
 * Seeds System Logs entries through the app itself: a failed login writes an `error`
 * entry from source `system` ("Login failed for {name}"). Each call comes from its own
 * made-up client address (the app trusts X-Forwarded-For from loopback), so seeding never
 * trips the login rate limit of 127.0.0.1 that other specs log in from.
 */
export async function seedFailedLogin(baseURL: string, name: string): Promise<string> {
  const ip = `10.${rand()}.${rand()}.${rand()}`;
  const ctx = await playwrightRequest.newContext({
    baseURL,
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { "X-Forwarded-For": ip },
  });
  try {
    const res = await ctx.post("/login", { form: { name, password: "definitely-not-the-password" }, maxRedirects: 0 });
    expect(res.status(), `failed login for ${name} should answer 401`).toBe(401);
  } finally {
    await ctx.dispose();
  }
  return `Login failed for ${name}`;
}

function rand() {
  return 1 + Math.floor(Math.random() * 250);
}

export function uniqueName(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}
