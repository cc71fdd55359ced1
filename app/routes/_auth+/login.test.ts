import { eq, like } from "drizzle-orm";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { logs, operatorSessions } from "~/db/schema";
import { createOperator, hashSessionToken } from "~/models/operator.server";
import { CLIENT_IP_HEADER, getOperator, readSessionToken } from "~/http/auth.server";
import { clearFailedLoginWindows, FAILED_LOGIN_WINDOW_MS } from "~/models/failed-login.server";
import { clearLoginLimits } from "~/http/rate-limit.server";
import { callRoute, cookiesOf, makeRequest } from "#tests/kit";
import { action as loginAction, loader as loginLoader } from "./login";
import { action as logoutAction, loader as logoutLoader } from "./logout";

/**
 * Issue "Foundation" item 3: "a login page; sessions in a signed, httpOnly, SameSite=Lax
 * cookie; logout … Login attempts rate-limited … pages redirect to login and back."
 * Loaders and actions are called with real Requests against the real database.
 */
type FormData = { status?: string; error?: Record<string, string[] | null> };

/** Posts the login form from 192.0.2.10 (or the address in `headers`). */
const login = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  callRoute<FormData>(loginAction, makeRequest("/login", { form: fields, headers: { [CLIENT_IP_HEADER]: "192.0.2.10", ...headers } }));

beforeAll(async () => {
  await createOperator("alice", "correct horse");
});
beforeEach(async () => {
  await clearLoginLimits();
  await clearFailedLoginWindows();
  await (await getDb()).delete(logs);
  // Each test starts a minute into a failed-login window (15 minutes, on the wall clock), the
  // clock running from there: a run that crossed a window's end wrote two rows where one was
  // asked (a fresh-clone CI run at 18:45:04).
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(Math.ceil(Date.now() / FAILED_LOGIN_WINDOW_MS) * FAILED_LOGIN_WINDOW_MS + 60_000);
});
afterEach(() => {
  vi.useRealTimers();
});

/** The System Logs rows about failed logins. */
async function failedLoginRows() {
  const db = await getDb();
  return db.select().from(logs).where(like(logs.message, "Failed logins:%"));
}

describe("login action", () => {
  it("logs in with the right password: session row, signed httpOnly SameSite=Lax cookie, redirect to a safe redirectTo", async () => {
    const res = await login({ name: "alice", password: "correct horse", redirectTo: "/logs?type=error" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/logs?type=error");
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^gt_session=/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/); // SECURE_COOKIES is off in tests
    const token = await readSessionToken(cookiesOf(res.headers));
    const db = await getDb();
    // Issue 21: the row holds the token's hash, never the token (nor is the token the row's id).
    const [row] = await db
      .select()
      .from(operatorSessions)
      .where(eq(operatorSessions.tokenHash, hashSessionToken(token!)));
    expect(row).toBeDefined();
    expect(JSON.stringify(await db.select().from(operatorSessions))).not.toContain(token!);
    const me = await getOperator(makeRequest("/", { cookie: cookiesOf(res.headers) }));
    expect(me?.name).toBe("alice");
  });

  it("never redirects off-site after login", async () => {
    for (const redirectTo of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "/login"]) {
      const res = await login({ name: "alice", password: "correct horse", redirectTo });
      expect(res.headers.get("location"), redirectTo).toBe("/");
    }
  });

  it('answers a wrong password or unknown name with "Invalid name or password"; the log shows operators\' names, masks others, never the password', async () => {
    for (const [name, password] of [
      ["alice", "wrong password"],
      ["mallory", "correct horse"],
    ]) {
      const res = await login({ name: name!, password: password! });
      expect(res.status).toBe(401);
      expect(res.data.error?.[""]).toEqual(["Invalid name or password"]);
    }
    const [entry, ...more] = await failedLoginRows();
    expect(more).toHaveLength(0);
    expect(entry).toMatchObject({
      type: "error",
      source: "system",
      message: "Failed logins: 2 from 1 address (latest for m***)",
      details: { count: 2, addresses: 1, rateLimited: 0, latestName: "m***", latestIp: "192.0.2.10" },
    });
    expect(JSON.stringify(entry)).not.toMatch(/mallory|wrong password|correct horse/);

    await login({ name: "alice", password: "wrong again" });
    expect((await failedLoginRows())[0]).toMatchObject({ message: "Failed logins: 3 from 1 address (latest for alice)" });
  });

  // Issue 7 #5: people type their password into the Name field.
  it("a password typed as the name is logged masked: first character only, not its length", async () => {
    await login({ name: "Tr0ub4dor&3-long-secret", password: "whatever1" });
    const [entry] = await failedLoginRows();
    expect(entry!.message).toBe("Failed logins: 1 from 1 address (latest for T***)");
    expect(JSON.stringify(entry)).not.toContain("r0ub4dor");
  });

  // Issue 7 #4: one System Logs row per window, however many failures.
  it("N failed logins from many addresses make exactly one log row, counting them", async () => {
    const N = 12;
    for (let i = 0; i < N; i++) {
      const res = await login({ name: `guess-${i}`, password: "wrong password" }, { [CLIENT_IP_HEADER]: `198.51.100.${i % 4}` });
      expect(res.status).toBe(401);
    }
    const rows = await failedLoginRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      message: "Failed logins: 12 from 4 addresses (latest for g***)",
      details: { count: N, addresses: 4, latestIp: "198.51.100.3" },
    });
    expect(await (await getDb()).select().from(logs)).toHaveLength(1);
  });

  it("validates the form: both fields required (400)", async () => {
    const res = await login({ name: "", password: "" });
    expect(res.status).toBe(400);
    expect(res.data.error?.name).toEqual(["Name is required"]);
    expect(res.data.error?.password).toEqual(["Password is required"]);
  });

  it("after 5 failures for a name from one address answers 429 there, even for the right password; the same name from elsewhere still logs in", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await login({ name: "alice", password: `wrong ${i}` });
      expect(res.status).toBe(401);
    }
    const res = await login({ name: "alice", password: "correct horse" });
    expect(res.status).toBe(429);
    expect(res.data.error?.[""]).toEqual(["Too many failed logins. Try again in 15 minutes."]);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Issue 7 #4: the failures do not lock alice out for everyone.
    const elsewhere = await login({ name: "alice", password: "correct horse" }, { [CLIENT_IP_HEADER]: "192.0.2.99" });
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.headers.get("set-cookie")).toMatch(/^gt_session=/);
    // The refused attempt is counted in the same log row.
    expect((await failedLoginRows())[0]).toMatchObject({ details: { count: 6, rateLimited: 1 } });
  });
});

describe("login loader", () => {
  it("shows the form with a safe redirectTo, and sends a logged-in operator on", async () => {
    const res = await callRoute(loginLoader, makeRequest("/login?redirectTo=%2Flogs"));
    expect(res.data).toEqual({ redirectTo: "/logs" });
    const evil = await callRoute(loginLoader, makeRequest("/login?redirectTo=https://evil.example"));
    expect(evil.data).toEqual({ redirectTo: "" });

    const loggedIn = await login({ name: "alice", password: "correct horse" });
    const again = await callRoute(loginLoader, makeRequest("/login?redirectTo=%2Flogs", { cookie: cookiesOf(loggedIn.headers) }));
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe("/logs");

    // Issue 7 #2: the URL parser turns "/.//evil.example" into "//evil.example" (another host).
    for (const trick of ["/.//evil.example", "/x/../..//evil.example", "/%2F%2Fevil.example", "/%5Cevil.example"]) {
      const res = await callRoute(loginLoader, makeRequest(`/login?redirectTo=${encodeURIComponent(trick)}`, { cookie: cookiesOf(loggedIn.headers) }));
      expect(res.headers.get("location"), trick).toBe("/");
    }
  });
});

describe("logout", () => {
  it("POST deletes the session row and clears the cookie; the old cookie no longer works", async () => {
    const loggedIn = await login({ name: "alice", password: "correct horse" });
    const cookie = cookiesOf(loggedIn.headers);
    const token = await readSessionToken(cookie);
    const res = await callRoute(logoutAction, makeRequest("/logout", { method: "POST", cookie }));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
    expect(res.headers.get("set-cookie")).toMatch(/gt_session=;.*Max-Age=0/);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(operatorSessions)
        .where(eq(operatorSessions.tokenHash, hashSessionToken(token!))),
    ).toHaveLength(0);
    expect(await getOperator(makeRequest("/", { cookie }))).toBeNull();
  });

  it("GET shows a confirmation when logged in, else goes to the login", async () => {
    const loggedIn = await login({ name: "alice", password: "correct horse" });
    const shown = await callRoute(logoutLoader, makeRequest("/logout", { cookie: cookiesOf(loggedIn.headers) }));
    expect(shown.data).toEqual({ name: "alice" });
    const anon = await callRoute(logoutLoader, makeRequest("/logout"));
    expect(anon.headers.get("location")).toBe("/login");
  });
});
