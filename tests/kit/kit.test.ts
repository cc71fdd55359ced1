import fs from "node:fs";
import path from "node:path";
import { data } from "@remix-run/node";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { AUTH_REQUIRED, requireApiAuth, requireOperator } from "~/http/auth.server";
import { callRoute, cookiesOf, createTestApiToken, createTestOperator, makeRequest, readJson } from ".";

/**
 * The test kit itself (docs/testing.md), exercised against the real auth code: it is the
 * example to copy for loader/action tests.
 */
describe("test kit", () => {
  it("this file's database is a copy of the migrated template: migrate() on open had nothing to do", async () => {
    const db = await getDb();
    const journal = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../drizzle/meta/_journal.json"), "utf8"));
    const applied = await db.execute(sql`select hash, created_at from drizzle.__drizzle_migrations order by id`);
    const rows = (applied as unknown as { rows: { created_at: string }[] }).rows;
    expect(rows).toHaveLength(journal.entries.length);
    const current = await db.execute(sql`select current_database() as name`);
    expect((current as unknown as { rows: { name: string }[] }).rows[0]!.name).toMatch(/^gt_test_/);
  });

  it("createTestOperator gives a logged-in session cookie that the app accepts", async () => {
    const op = await createTestOperator();
    expect(op.cookie).toMatch(/^gt_session=/);
    const who = await requireOperator(makeRequest("/logs", { cookie: op.cookie }));
    expect(who).toEqual({ id: op.id, name: op.name, role: op.role });

    const anonymous = await callRoute(({ request }) => requireOperator(request), makeRequest("/logs?type=error"));
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/login?redirectTo=%2Flogs%3Ftype%3Derror");
  });

  it("createTestApiToken gives a bearer token for /api; readJson checks the status of a refusal", async () => {
    const op = await createTestOperator();
    const token = await createTestApiToken(op.id, "kit");
    const who = await requireApiAuth(makeRequest("/api/rates", { token }));
    expect(who.name).toBe(op.name);

    const refused = await callRoute(({ request }) => requireApiAuth(request), makeRequest("/api/rates", { token: "gtk_wrong" }));
    expect(refused.status).toBe(401);
    expect(refused.data).toEqual({ error: AUTH_REQUIRED, message: AUTH_REQUIRED });
    expect(await readJson(refused.response!, 401)).toEqual({ error: AUTH_REQUIRED, message: AUTH_REQUIRED });
    await expect(readJson(Response.json({ error: "x" }, { status: 400 }), 200)).rejects.toThrow('Expected status 200, got 400: {"error":"x"}');
  });

  it("makeRequest builds form and JSON posts; callRoute unwraps data() answers", async () => {
    const form = makeRequest("/logs", { form: { intent: "clear", ids: "a" }, cookie: ["a=1", "b=2"] });
    expect(form.method).toBe("POST");
    expect(form.headers.get("Cookie")).toBe("a=1; b=2");
    expect(Object.fromEntries(await form.formData())).toEqual({ intent: "clear", ids: "a" });

    const json = makeRequest("/api/rates/update", { json: { inputItem: "Clay" }, query: { dry: "1" } });
    expect(json.url).toBe("http://localhost/api/rates/update?dry=1");
    expect(await json.json()).toEqual({ inputItem: "Clay" });

    const answer = await callRoute<{ ok: boolean }>(() => data({ ok: true }, { status: 202, headers: { "Set-Cookie": "x=1; Path=/" } }), makeRequest("/"));
    expect(answer).toMatchObject({ status: 202, data: { ok: true } });
    expect(cookiesOf(answer.headers)).toBe("x=1");
  });
});
