import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { apiTokens } from "~/db/schema";
import { findOperatorByToken, hashToken } from "~/models/api-token.server";
import { createSession, findSession, verifyOperatorPassword } from "~/models/operator.server";
import { CLIENT_IP_HEADER } from "~/http/auth.server";
import { clearLoginLimits } from "~/http/rate-limit.server";
import { TYPE_SECRET_AGAIN } from "~/utils/kept-fields";
import { callRoute, cookiesOf, createTestOperator, makeRequest, toastOf } from "#tests/kit";
import { action, loader } from "./settings";
import { action as backupAction } from "./settings_.backup";
import { openBackup } from "~/models/backup.server";

/**
 * Operator settings (/settings): "API token … created and revoked by an operator, stored
 * hashed" (issue "Foundation" item 3) — shown once — and changing one's own password.
 */
type LoaderData = {
  newToken: string | null;
  confirmRevoke: { id: string; name: string } | null;
  tokens: { id: string; name: string; prefix: string; lastUsedAt: string | null }[];
};
type FormAnswer = { intent: string; result: { error: Record<string, string[]> } };

let cookie: string;
let sessionToken: string;
let operatorId: string;

beforeAll(async () => {
  ({ id: operatorId, sessionToken, cookie } = await createTestOperator({ name: "settler", password: "correct horse" }));
});
beforeEach(() => clearLoginLimits());

const post = (fields: Record<string, string>) =>
  callRoute<FormAnswer>(action, makeRequest("/settings", { cookie, form: fields, headers: { [CLIENT_IP_HEADER]: "192.0.2.50" } }));
const getPage = (extraCookie = "", query = "") => callRoute<LoaderData>(loader, makeRequest(`/settings${query}`, { cookie: [cookie, extraCookie] }));

describe("API tokens on /settings", () => {
  it("create: redirects with a toast; the next page load shows the token once, then never again", async () => {
    const res = await post({ intent: "create-token", name: "nightly import" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/settings");
    const setCookies = res.headers.getSetCookie();
    expect(toastOf(res)).toEqual({ type: "success", message: 'API token "nightly import" created' });
    const sealed = setCookies.find((c) => c.startsWith("gt_new_token="))!;
    expect(sealed).toMatch(/HttpOnly/);
    expect(sealed).toMatch(/Max-Age=300/);

    const page = await getPage(cookiesOf(res.headers));
    const token = page.data.newToken!;
    expect(token).toMatch(/^gtk_/);
    // The cookie carried it encrypted, not in clear.
    expect(decodeURIComponent(sealed)).not.toContain(token.slice(4));
    expect(page.headers.getSetCookie().some((c) => /^gt_new_token=;.*Max-Age=0/.test(c))).toBe(true);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect((await findOperatorByToken(token))?.name).toBe("settler");
    const listed = page.data.tokens.find((t) => t.name === "nightly import")!;
    expect(listed.prefix).toBe(token.slice(0, 10));
    const db = await getDb();
    const [stored] = await db.select().from(apiTokens).where(eq(apiTokens.id, listed.id));
    expect(stored!.tokenHash).toBe(hashToken(token));

    const reload = await getPage();
    expect(reload.data.newToken).toBeNull();
  });

  it("create: a name is required (400, inline error)", async () => {
    const res = await post({ intent: "create-token", name: "  " });
    expect(res.status).toBe(400);
    expect(res.data.result.error.name).toEqual(["Token name is required"]);
  });

  it("create: a name the operator already uses is refused inline (400), nothing created", async () => {
    await post({ intent: "create-token", name: "twice" });
    const res = await post({ intent: "create-token", name: "twice" });
    expect(res.status).toBe(400);
    expect(res.data.result.error.name).toEqual(['You already have an API token named "twice". Choose another name.']);
    expect((await getPage()).data.tokens.filter((t) => t.name === "twice")).toHaveLength(1);
  });

  it("revoke: asks first (?revoke=id), then revokes; the token stops working at once", async () => {
    const created = await post({ intent: "create-token", name: "to go" });
    const token = (await getPage(cookiesOf(created.headers))).data.newToken!;
    const id = (await getPage()).data.tokens.find((t) => t.name === "to go")!.id;
    expect((await getPage("", `?revoke=${id}`)).data.confirmRevoke).toEqual({ id, name: "to go" });

    const res = await post({ intent: "revoke-token", tokenId: id });
    expect(res.status).toBe(302);
    expect(await findOperatorByToken(token)).toBeNull();
    expect((await getPage()).data.tokens.some((t) => t.id === id)).toBe(false);

    const again = await post({ intent: "revoke-token", tokenId: id });
    expect(again.status).toBe(302);
    expect(toastOf(again)).toEqual({ type: "error", message: "That API token does not exist (already revoked?)" });
  });

  it("answers an unknown intent with 400", async () => {
    const res = await post({ intent: "explode" });
    expect(res.status).toBe(400);
  });
});

describe("change password on /settings", () => {
  it("needs the current password; keeps this session, ends the others", async () => {
    const other = await createSession(operatorId);
    const wrong = await post({ intent: "change-password", currentPassword: "nope nope", newPassword: "brand new pw", confirmPassword: "brand new pw" });
    expect(wrong.status).toBe(400);
    expect(wrong.data.result.error.currentPassword).toEqual(["Current password is wrong"]);

    const mismatch = await post({ intent: "change-password", currentPassword: "correct horse", newPassword: "brand new pw", confirmPassword: "other" });
    expect(mismatch.data.result.error.confirmPassword).toEqual(["Passwords do not match"]);

    const ok = await post({ intent: "change-password", currentPassword: "correct horse", newPassword: "brand new pw", confirmPassword: "brand new pw" });
    expect(ok.status).toBe(302);
    expect(await verifyOperatorPassword("settler", "brand new pw")).not.toBeNull();
    expect(await findSession(sessionToken)).not.toBeNull();
    expect(await findSession(other.token)).toBeNull();
  });
});

/** Issue 21 item 1: admins manage operators and download backups from /settings. */
describe("operators and backups on /settings (admins)", () => {
  const postAs = (who: string, fields: Record<string, string>) =>
    callRoute<FormAnswer>(action, makeRequest("/settings", { cookie: who, form: fields, headers: { [CLIENT_IP_HEADER]: "192.0.2.51" } }));

  it("only admins see the operators and the backups", async () => {
    const page = await callRoute<{ admin: { operators: { name: string; role: string }[]; backups: { daily: boolean } } | null }>(
      loader,
      makeRequest("/settings", { cookie }),
    );
    expect(page.data.admin?.operators.find((o) => o.name === "settler")?.role).toBe("admin");
    expect(page.data.admin?.backups.daily).toBe(false); // PostgreSQL in tests: off by default
    const op = await createTestOperator({ name: "plain-op", role: "operator" });
    const theirs = await callRoute<{ admin: unknown }>(loader, makeRequest("/settings", { cookie: op.cookie }));
    expect(theirs.data.admin).toBeNull();
  });

  it("creates an operator with a role; a duplicate name is refused inline; a non-admin gets 403", async () => {
    const res = await post({ intent: "create-operator", name: "newbie", password: "newbie password", role: "viewer" });
    expect(res.status).toBe(302);
    expect(toastOf(res)).toEqual({ type: "success", message: 'Operator "newbie" created (Viewer)' });
    expect(await verifyOperatorPassword("newbie", "newbie password")).toMatchObject({ role: "viewer" });
    const dupe = await post({ intent: "create-operator", name: "newbie", password: "newbie password", role: "viewer" });
    expect(dupe.status).toBe(400);
    expect(dupe.data.result.error.name).toEqual(['An operator named "newbie" already exists']);
    const op = await createTestOperator({ name: "not-admin", role: "operator" });
    const refused = await postAs(op.cookie, { intent: "create-operator", name: "sneak", password: "sneak password", role: "admin" });
    expect(refused.status).toBe(403);
    expect(await verifyOperatorPassword("sneak", "sneak password")).toBeNull();
  });

  it("changes roles (never the last admin's), resets a password (their sessions end), deletes (not oneself)", async () => {
    const bob = await createTestOperator({ name: "bobby", role: "operator", password: "bobby password" });
    const promoted = await post({ intent: "set-role", operatorId: bob.id, role: "admin" });
    expect(toastOf(promoted)).toEqual({ type: "success", message: "bobby is now Admin" });
    // Two admins: settler may step down, but bobby then cannot (last admin).
    await post({ intent: "set-role", operatorId: operatorId, role: "operator" });
    const last = await postAs(bob.cookie, { intent: "set-role", operatorId: bob.id, role: "viewer" });
    expect(toastOf(last)?.message).toMatch(/bobby is the last admin/);
    await postAs(bob.cookie, { intent: "set-role", operatorId: operatorId, role: "admin" });

    const reset = await post({ intent: "reset-password", operatorId: bob.id, newPassword: "fresh password 1" });
    expect(toastOf(reset)?.type).toBe("success");
    expect(await verifyOperatorPassword("bobby", "fresh password 1")).not.toBeNull();
    expect(await findSession(bob.sessionToken)).toBeNull();

    const self = await post({ intent: "delete-operator", operatorId });
    expect(toastOf(self)?.message).toMatch(/cannot delete yourself/);
    const del = await post({ intent: "delete-operator", operatorId: bob.id });
    expect(toastOf(del)).toEqual({ type: "success", message: 'Operator "bobby" deleted' });
    expect(await verifyOperatorPassword("bobby", "fresh password 1")).toBeNull();
  });

  it("creates a read-only token from the checkbox", async () => {
    await post({ intent: "create-token", name: "reader", readOnly: "on" });
    const listed = (await getPage()).data.tokens.find((t) => t.name === "reader") as { readOnly?: boolean } | undefined;
    expect(listed?.readOnly).toBe(true);
  });

  it("downloads a backup encrypted with the passphrase; a mismatch goes back with the reason; non-admins 403", async () => {
    const res = await callRoute(
      backupAction,
      makeRequest("/settings/backup", { cookie, form: { passphrase: "download pass 1", confirmPassphrase: "download pass 1" } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="galaxy-toolbox-.*\.gtbackup"$/);
    const { header } = await openBackup(await res.response!.text(), "download pass 1");
    expect(header.tables.operators).toBeGreaterThan(0);

    const mismatch = await callRoute(
      backupAction,
      makeRequest("/settings/backup", { cookie, form: { passphrase: "download pass 1", confirmPassphrase: "other" } }),
    );
    expect(toastOf(mismatch)).toEqual({ type: "error", message: "The passphrases do not match" });
    const op = await createTestOperator({ name: "no-backups", role: "operator" });
    const refused = await callRoute(
      backupAction,
      makeRequest("/settings/backup", { cookie: op.cookie, form: { passphrase: "download pass 1", confirmPassphrase: "download pass 1" } }),
    );
    expect(refused.status).toBe(403);
  });
});

describe("alerts on /settings (issue 31 item 2; admins; plain posts)", () => {
  it("adds a webhook (its secret shown only as set), sends a test alert to a local receiver, removes it; a non-admin gets 403", async () => {
    const http = await import("node:http");
    const got: string[] = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        got.push(body);
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as import("node:net").AddressInfo).port}/alerts`;
    try {
      // Issue 30 A6: a refused destination renders the form again as typed, the reason next to its
      // field, no toast; the secret is never sent back (typed again).
      const bad = await post({ intent: "alert-add", kind: "webhook", url: "not a url", secret: "typed-secret" });
      expect(bad.status).toBe(400);
      expect(bad.headers.get("Location")).toBeNull();
      expect(toastOf(bad)).toBeUndefined();
      expect(bad.data).toMatchObject({
        kept: {
          fields: { intent: "alert-add", kind: "webhook", url: "not a url" },
          fieldErrors: { url: ["url: must be an http(s) URL"], secret: [TYPE_SECRET_AGAIN] },
          formErrors: [],
        },
      });
      expect(JSON.stringify(bad.data)).not.toContain("typed-secret");
      const badChannel = await post({ intent: "alert-add", kind: "discord-channel", channelId: "12x" });
      expect(badChannel.data).toMatchObject({ kept: { fields: { channelId: "12x" }, fieldErrors: { channelId: [expect.any(String)] } } });

      const added = await post({ intent: "alert-add", kind: "webhook", url, secret: "page-secret" });
      expect(added.status).toBe(302);
      expect(toastOf(added)).toEqual({ type: "success", message: "Alert destination added" });
      const page = await callRoute<{ admin: { alerts: { destinations: { id: string; kind: string; url: string; secret?: string }[] } } }>(
        loader,
        makeRequest("/settings", { cookie }),
      );
      expect(page.data.admin.alerts.destinations).toEqual([{ id: expect.any(String), kind: "webhook", url, secret: "set" }]);
      expect(JSON.stringify(page.data)).not.toContain("page-secret");

      const tested = await post({ intent: "alert-test" });
      expect(toastOf(tested)).toEqual({ type: "success", message: "Test alert delivered to 1 destination" });
      expect(JSON.parse(got[0]!)).toMatchObject({ event: "test", severity: "info" });

      const op = await createTestOperator({ name: "alert-op", role: "operator" });
      const refused = await callRoute(action, makeRequest("/settings", { cookie: op.cookie, form: { intent: "alert-test" } }));
      expect(refused.status).toBe(403);

      const removed = await post({ intent: "alert-remove", destinationId: page.data.admin.alerts.destinations[0]!.id });
      expect(toastOf(removed)).toEqual({ type: "success", message: "Alert destination removed" });
      const none = await post({ intent: "alert-test" });
      expect(toastOf(none)).toEqual({ type: "error", message: "No alert destinations: add one first" });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("alerts on /settings: a Discord webhook's token", () => {
  it("never reaches the page's data", async () => {
    await post({ intent: "alert-add", kind: "discord-webhook", url: "https://discord.com/api/webhooks/1234567890/TOKEN-never-on-the-page" });
    const page = await callRoute<{ admin: { alerts: { destinations: { kind: string; url: string }[] } } }>(loader, makeRequest("/settings", { cookie }));
    expect(page.data.admin.alerts.destinations).toContainEqual(
      expect.objectContaining({ kind: "discord-webhook", url: "https://discord.com/api/webhooks/1234567890/…" }),
    );
    expect(JSON.stringify(page.data)).not.toContain("TOKEN-never-on-the-page");
  });
});
