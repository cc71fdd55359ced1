/**
 * Authenticated requests for route tests. Every /api route requires an operator itself
 * (apiRoute in app/utils/api.server.ts), so tests that call a route module directly send
 * a real API token of a real operator, created once per test file in its own database.
 *
 *   const res = await loader(apiArgs(new Request("http://localhost/api/logs")));
 */
import { createApiToken } from "~/models/api-token.server";
import { createOperator, findOperatorByName } from "~/models/operator.server";

const NAME = "route-tests";

async function makeToken(): Promise<string> {
  const operator = (await findOperatorByName(NAME)) ?? (await createOperator(NAME, "route-tests-password"));
  return (await createApiToken(operator.id, `kit-${Date.now()}-${Math.random().toString(36).slice(2)}`)).token;
}

let token: Promise<string> | undefined;

/** The test file's API token (created on first use). */
export function testApiToken(): Promise<string> {
  token ??= makeToken();
  return token;
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
