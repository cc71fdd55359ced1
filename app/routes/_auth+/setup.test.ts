import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { logs, operators } from "~/db/schema";
import { listOperators, resetOperatorExistsCache } from "~/models/operator.server";
import { getOperator, requireOperator } from "~/http/auth.server";
import { callRoute, cookiesOf, makeRequest, routeArgs } from "#tests/kit";
import { action, loader } from "./setup";

/**
 * Issue "Foundation" item 3: "on first visit with no operator, a setup page creates the
 * first operator; then a login page."
 */
type FormData = { error?: Record<string, string[] | null> };

const post = (fields: Record<string, string>) => callRoute<FormData>(action, makeRequest("/setup", { form: fields }));

beforeEach(async () => {
  const db = await getDb();
  await db.delete(operators);
  resetOperatorExistsCache();
});

describe("first-run setup", () => {
  it("every page leads to /setup while no operator exists", async () => {
    const res = await callRoute(({ request }) => requireOperator(request), makeRequest("/exchange-rates"));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/setup");
    expect(await loader(routeArgs(makeRequest("/setup")))).toBeNull();
  });

  it("creates the first operator, logs them in and goes to /", async () => {
    const res = await post({ name: "admin", password: "long enough", confirmPassword: "long enough" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect((await getOperator(makeRequest("/", { cookie: cookiesOf(res.headers) })))?.name).toBe("admin");
    expect((await listOperators()).map((o) => o.name)).toEqual(["admin"]);
    const db = await getDb();
    expect(await db.select().from(logs).where(eq(logs.message, "Operator admin created (first-run setup)"))).toHaveLength(1);
  });

  it("checks the password: at least 8 characters, confirmed", async () => {
    const short = await post({ name: "admin", password: "1234567", confirmPassword: "1234567" });
    expect(short.status).toBe(400);
    expect(short.data.error?.password).toEqual(["Password must be at least 8 characters"]);
    const mismatch = await post({ name: "admin", password: "long enough", confirmPassword: "long enougH" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.data.error?.confirmPassword).toEqual(["Passwords do not match"]);
    expect(await listOperators()).toHaveLength(0);
  });

  it("is closed once an operator exists: the page and the form post redirect to the login", async () => {
    await post({ name: "admin", password: "long enough", confirmPassword: "long enough" });
    const page = await callRoute(loader, makeRequest("/setup"));
    expect(page.headers.get("location")).toBe("/login");
    const again = await post({ name: "intruder", password: "long enough", confirmPassword: "long enough" });
    expect(again.headers.get("location")).toBe("/login");
    expect((await listOperators()).map((o) => o.name)).toEqual(["admin"]);
    // …and a page now asks for the login, coming back afterwards.
    const res = await callRoute(({ request }) => requireOperator(request), makeRequest("/logs?type=error"));
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Flogs%3Ftype%3Derror");
  });
});
