/**
 * Authenticated requests for route tests. Every /api route requires an operator itself
 * (apiRoute in app/http/api.server.ts), so tests that call a route module directly send
 * a real API token of a real operator, created once per test file in its own database.
 *
 *   const res = await loader(apiArgs(new Request("http://localhost/api/logs")));
 */
import { expect } from "vitest";
import { createTestApiToken, createTestOperator } from "./auth";

async function makeToken(): Promise<string> {
  const operator = await createTestOperator({ name: "route-tests" });
  return createTestApiToken(operator.id, "route-tests");
}

// Keyed by the test file: without isolation (vitest.config.ts) this module outlives the file
// that made the token, and the next file has a database of its own.
let token: { file: string | undefined; value: Promise<string> } | undefined;

/** The test file's API token (created on first use). */
export function testApiToken(): Promise<string> {
  const file = expect.getState().testPath;
  if (!token || token.file !== file) token = { file, value: makeToken() };
  return token.value;
}

/** A copy of `request` that carries the test operator's bearer token. */
export async function withApiAuth(request: Request): Promise<Request> {
  const headers = new Headers(request.headers);
  headers.set("Authorization", `Bearer ${await testApiToken()}`);
  return new Request(request, { headers });
}

/** Loader/action arguments for an authenticated call. */
export async function apiArgs(request: Request, params: Record<string, string | undefined> = {}) {
  return { request: await withApiAuth(request), params, context: {} };
}

/** An /api error body: the same human text under `error` and `message` (issue 9, spec 2 §8). */
export function errorBody(text: string) {
  return { error: text, message: text };
}
