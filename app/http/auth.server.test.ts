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
    const cookie = (await sessionCookie().serialize(session.token)).split(";")[0]!;
    const { token } = await createApiToken(op.id, "t");

    expect(await requireApiAuth(new Request("http://x/api/rates", { headers: { cookie } }))).toEqual({ id: op.id, name: "api-user", role: "admin" });
    expect(await requireApiAuth(new Request("http://x/api/rates", { headers: { authorization: `Bearer ${token}` } }))).toEqual({
      id: op.id,
      name: "api-user",
      role: "admin",
    });
    expect(await getOperator(new Request("http://x/", { headers: { authorization: `bearer ${token}` } }))).not.toBeNull();

    const res = await thrown(requireApiAuth(new Request("http://x/api/rates")));
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual(errorBody("Authentication required"));

    const forged = await thrown(requireApiAuth(new Request("http://x/api/rates", { headers: { cookie: `gt_session=${session.token}` } })));
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
  it("keeps same-site paths", () => {
    expect(safeRedirect("/logs?type=error#top")).toBe("/logs?type=error#top");
    expect(safeRedirect("/")).toBe("/");
    expect(safeRedirect("/a/./b/../c?next=//x")).toBe("/a/c?next=//x");
    expect(safeRedirect("/logs?q=a%20b")).toBe("/logs?q=a%20b");
  });

  // Issue 7 finding #2: "/.//evil.example" passed the raw check and came back as "//evil.example".
  it.each([
    "https://evil.example",
    "https:x",
    "http:/evil.example",
    "javascript:alert(1)",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "/.//x",
    "/./\\x",
    "/..//x",
    "/../..//x",
    "/x/../..//evil",
    "/a/b/../../..//evil",
    "/%2F%2Fx",
    "/%2f/x",
    "/%2Fevil.example",
    "/%252F%252Fx",
    "/%5Cx",
    "/%5cevil.example",
    "/%255Cx",
    "/.%2F/x",
    "/%2e/%2Fx",
    "/%2e%2e//x",
    "/x%0d%0aSet-Cookie:a=b",
    "/%00x",
    "/%E0%A4%A",
    "/%25252525252F%2Fx",
    "\t/x",
    "\\/evil.example",
    " /x",
    "/\tx",
    "/\n/evil.example",
    "/\u0000x",
    "/\u007fx",
    "evil",
    "/login",
    "/LOGIN?x=1",
    "/setup",
    "/logout",
    "/login.data",
    "/%6Cogin",
    "",
    null,
    undefined,
  ])("refuses %j", (bad) => {
    const out = safeRedirect(bad as string, "/fallback");
    expect(out).toBe("/fallback");
  });

  it("never returns a host-relative path, decoded or not, whatever the input", () => {
    const parts = ["/", "\\", ".", "..", "%2F", "%2f", "%5C", "%2e", "%252F", "x", "?", "#", "%09"];
    // Every 4-part combination after a leading "/": 13^4 = 28,561 inputs.
    for (const a of parts)
      for (const b of parts)
        for (const c of parts)
          for (const d of parts) {
            const out = safeRedirect(`/${a}${b}${c}${d}`, "/fallback");
            let decoded = out;
            for (let i = 0; i < 3; i++) decoded = decodeURIComponent(decoded);
            for (const v of [out, decoded]) {
              expect(v.startsWith("/"), `/${a}${b}${c}${d} → ${out}`).toBe(true);
              expect(/^\/[/\\]/.test(v), `/${a}${b}${c}${d} → ${out}`).toBe(false);
            }
          }
  });
});
