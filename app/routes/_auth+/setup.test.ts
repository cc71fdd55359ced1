import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { logs, operators } from "~/db/schema";
import { listOperators, resetOperatorExistsCache } from "~/models/operator.server";
import { getOperator, requireOperator } from "~/utils/auth.server";
import { action, loader } from "./setup";

/**
 * Issue "Foundation" item 3: "on first visit with no operator, a setup page creates the
 * first operator; then a login page."
 */
const args = (request: Request) => ({ request, params: {}, context: {} });
type DataResult = { data: { error?: Record<string, string[] | null> }; init: ResponseInit | null };

async function run(fn: () => Promise<unknown>): Promise<Response | DataResult> {
  try {
    return (await fn()) as Response | DataResult;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const post = (fields: Record<string, string>) =>
  new Request("http://localhost/setup", { method: "POST", body: new URLSearchParams(fields) });

beforeEach(async () => {
  const db = await getDb();
  await db.delete(operators);
  resetOperatorExistsCache();
});

describe("first-run setup", () => {
  it("every page leads to /setup while no operator exists", async () => {
    const res = (await run(() => requireOperator(new Request("http://localhost/exchange-rates")))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/setup");
    expect(await loader(args(new Request("http://localhost/setup")))).toBeNull();
  });

  it("creates the first operator, logs them in and goes to /", async () => {
    const res = (await run(() => action(args(post({ name: "admin", password: "long enough", confirmPassword: "long enough" }))))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
    expect((await getOperator(new Request("http://localhost/", { headers: { cookie } })))?.name).toBe("admin");
    expect((await listOperators()).map((o) => o.name)).toEqual(["admin"]);
    const db = await getDb();
    expect(await db.select().from(logs).where(eq(logs.message, "Operator admin created (first-run setup)"))).toHaveLength(1);
  });

  it("checks the password: at least 8 characters, confirmed", async () => {
    const short = (await run(() => action(args(post({ name: "admin", password: "1234567", confirmPassword: "1234567" }))))) as DataResult;
    expect(short.init?.status).toBe(400);
    expect(short.data.error?.password).toEqual(["Password must be at least 8 characters"]);
    const mismatch = (await run(() => action(args(post({ name: "admin", password: "long enough", confirmPassword: "long enougH" }))))) as DataResult;
    expect(mismatch.init?.status).toBe(400);
    expect(mismatch.data.error?.confirmPassword).toEqual(["Passwords do not match"]);
    expect(await listOperators()).toHaveLength(0);
  });

  it("is closed once an operator exists: the page and the form post redirect to the login", async () => {
    await run(() => action(args(post({ name: "admin", password: "long enough", confirmPassword: "long enough" }))));
    const page = (await run(() => loader(args(new Request("http://localhost/setup"))))) as Response;
    expect(page.headers.get("location")).toBe("/login");
    const again = (await run(() => action(args(post({ name: "intruder", password: "long enough", confirmPassword: "long enough" }))))) as Response;
    expect(again.headers.get("location")).toBe("/login");
    expect((await listOperators()).map((o) => o.name)).toEqual(["admin"]);
    // …and a page now asks for the login, coming back afterwards.
    const res = (await run(() => requireOperator(new Request("http://localhost/logs?type=error")))) as Response;
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Flogs%3Ftype%3Derror");
  });
});
