import { describe, expect, it } from "vitest";
import { createApiToken } from "~/models/api-token.server";
import { createOperator, createSession } from "~/models/operator.server";
import { getOperator, requireApiAuth, requireOperator, returnPath, safeRedirect, sessionCookie } from "./auth.server";
import { errorBody } from "#tests/kit/api";

/** Issue "Foundation" item 3: the helpers every route codes against (docs/auth.md). */
async function thrown(p: Promise<unknown>): Promise<Response> {
  try {
    await p;
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
  throw new Error("expected a thrown Response");
}

describe("requireApiAuth", () => {
  it("accepts the session cookie or a bearer token, else throws 401 JSON { error: 'Authentication required' }", async () => {
    const op = await createOperator("api-user", "correct horse");
    const session = await createSession(op.id);
    const cookie = (await sessionCookie().serialize(session.id)).split(";")[0]!;
    const { token } = await createApiToken(op.id, "t");

    expect(await requireApiAuth(new Request("http://x/api/rates", { headers: { cookie } }))).toEqual({ id: op.id, name: "api-user" });
    expect(await requireApiAuth(new Request("http://x/api/rates", { headers: { authorization: `Bearer ${token}` } }))).toEqual({
      id: op.id,
      name: "api-user",
    });
    expect(await getOperator(new Request("http://x/", { headers: { authorization: `bearer ${token}` } }))).not.toBeNull();

    const res = await thrown(requireApiAuth(new Request("http://x/api/rates")));
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual(errorBody("Authentication required"));

    const forged = await thrown(requireApiAuth(new Request("http://x/api/rates", { headers: { cookie: `gt_session=${session.id}` } })));
    expect(forged.status).toBe(401);
  });
});

describe("requireOperator", () => {
  it("redirects to the login with the page (path + query) to come back to", async () => {
    await createOperator("someone", "correct horse");
    const res = await thrown(requireOperator(new Request("http://x/exchange-rates?q=a%20b")));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Fexchange-rates%3Fq%3Da%2Bb");
    expect((await thrown(requireOperator(new Request("http://x/")))).headers.get("location")).toBe("/login");
  });

  it("drops Remix's internal query parameters from the way back", () => {
    expect(returnPath(new Request("http://x/settings?_routes=routes%2F_app&tab=1"))).toBe("/settings?tab=1");
  });
});

describe("safeRedirect", () => {
  it("keeps same-site paths and refuses everything else", () => {
    expect(safeRedirect("/logs?type=error#top")).toBe("/logs?type=error#top");
    expect(safeRedirect("/")).toBe("/");
    for (const bad of ["https://evil.example", "//evil.example", "/\\evil.example", "evil", "", null, undefined, "/\tx", "/login", "/setup", "/logout"]) {
      expect(safeRedirect(bad as string, "/fallback"), String(bad)).toBe("/fallback");
    }
  });
});
