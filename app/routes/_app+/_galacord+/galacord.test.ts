/**
 * The GalaCord page's action (spec 2 §2 "GalaCord screen", §8 "Relay bot" defaults;
 * docs/galacord.md): every form navigates, with or without JavaScript, so every answer is a
 * redirect with a flash toast; a failed dialog goes back to its dialog (open by URL), a refused
 * Connect to the page with the take-over question. Paths that need no bot or worker (the bot's
 * own journeys are the e2e specs and api.galacord.test.ts).
 */
import { TYPE_SECRET_AGAIN } from "~/utils/kept-fields";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { RELAY_ERRORS, RELAY_MESSAGES } from "#api/galacord";
import { jobEngineOffline } from "~/queue/queues.server";
import { closeLive } from "~/queue/live.server";
import { deleteKeys } from "#jobs/test-helpers";
import { callRoute, createTestOperator, makeRequest, toastOf } from "#tests/kit";
import { getDb } from "~/db/client.server";
import { galacordAccounts, galacordBot, logs, sessions } from "~/db/schema";
import * as galacordModel from "~/models/galacord.server";
import { startSession } from "~/models/session.server";
import { getEnv } from "~/utils/env.server";
import type { KeptForm } from "~/http/page-action.server";
import { encryptSecret } from "~/utils/secrets.server";
import { action } from "./galacord";

const A = "71000101";
const RELAY = "1180000000000000102";
const BOTS = "1180000000000000103";
let cookie: string;

beforeAll(async () => {
  cookie = (await createTestOperator({ name: "relay-op", password: "correct horse" })).cookie;
});
beforeEach(async () => {
  vi.restoreAllMocks();
  const db = await getDb();
  await db.delete(galacordAccounts);
  await db.delete(sessions);
  await db.delete(logs);
  const channels = [
    { id: RELAY, name: "relay", guildId: "9", guildName: "Galaxy Fans" },
    { id: BOTS, name: "bots", guildId: "9", guildName: "Galaxy Fans" },
  ];
  await db.insert(galacordBot).values({ id: 1, channels }).onConflictDoUpdate({ target: galacordBot.id, set: { channels } });
  await db.insert(galacordAccounts).values({
    accountId: A,
    nick: "Relay",
    channelId: RELAY,
    channelName: "relay",
    guildName: "Galaxy Fans",
    guildId: "9",
    recoveryCode: encryptSecret("ABCDEFGHIJ"),
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await closeLive();
  await deleteKeys(getEnv().REDIS_URL, getEnv().QUEUE_PREFIX);
});

const post = (form: Record<string, string>) => callRoute(action, makeRequest("/galacord", { cookie, form }));
/** Where the answer goes and the toast it carries: every GalaCord answer is a redirect. */
async function outcome(form: Record<string, string>) {
  const res = await post(form);
  return { status: res.status, location: res.headers.get("Location"), toast: toastOf(res) };
}
const account = async () => (await (await getDb()).select().from(galacordAccounts).where(eq(galacordAccounts.accountId, A)))[0];

describe("GalaCord action: redirects with a toast, failed dialogs back to their dialog", () => {
  it("needs a login", async () => {
    const res = await callRoute(action, makeRequest("/galacord", { form: { intent: "bot-stop" } }));
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login/);
  });

  /** A kept form's refusal (issue 30 A6): the page again, 400, the posted fields and the reason next to its field. */
  async function refusedForm(url: string, form: Record<string, string>) {
    const res = await callRoute<{ kept: KeptForm["kept"] }>(action, makeRequest(url, { cookie, form }));
    return { status: res.status, kept: res.data.kept, toast: toastOf(res) };
  }

  it("New connection: a missing channel or recovery code, or an unknown channel, comes back as chosen, the reason next to the field; the code never comes back (issue 30 A6)", async () => {
    expect(await refusedForm("/galacord?new=1", { intent: "connect-new", channelId: " ", recoveryCode: "ABCDEFGHIJ" })).toEqual({
      status: 400,
      kept: {
        fields: { intent: "connect-new", channelId: " " },
        fieldErrors: { channelId: [RELAY_ERRORS.channelRequired], recoveryCode: [TYPE_SECRET_AGAIN] },
        formErrors: [],
      },
      toast: undefined,
    });
    expect(await refusedForm("/galacord?new=1", { intent: "connect-new", channelId: RELAY, recoveryCode: "  " })).toEqual({
      status: 400,
      kept: { fields: { intent: "connect-new", channelId: RELAY }, fieldErrors: { recoveryCode: [RELAY_ERRORS.recoveryCodeRequired] }, formErrors: [] },
      toast: undefined,
    });
    expect(await refusedForm("/galacord?new=1", { intent: "connect-new", channelId: "42", recoveryCode: "ABCDEFGHIJ" })).toEqual({
      status: 404,
      kept: {
        fields: { intent: "connect-new", channelId: "42" },
        fieldErrors: { channelId: [RELAY_ERRORS.channelNotFound], recoveryCode: [TYPE_SECRET_AGAIN] },
        formErrors: [],
      },
      toast: undefined,
    });
  });

  it("Change Channel: an empty or unknown channel comes back as chosen, the reason next to it (issue 30 A6); a known one is saved and the page says so", async () => {
    expect(await refusedForm(`/galacord?channel=${A}`, { intent: "update-channel", accountId: A, channelId: "" })).toEqual({
      status: 400,
      kept: { fields: { intent: "update-channel", accountId: A, channelId: "" }, fieldErrors: { channelId: [RELAY_ERRORS.channelRequired] }, formErrors: [] },
      toast: undefined,
    });
    expect(await refusedForm(`/galacord?channel=${A}`, { intent: "update-channel", accountId: A, channelId: "42" })).toEqual({
      status: 404,
      kept: { fields: { intent: "update-channel", accountId: A, channelId: "42" }, fieldErrors: { channelId: [RELAY_ERRORS.channelNotFound] }, formErrors: [] },
      toast: undefined,
    });
    expect((await account())!.channelId).toBe(RELAY);
    expect(await outcome({ intent: "update-channel", accountId: A, channelId: BOTS })).toEqual({
      status: 302,
      location: "/galacord",
      toast: { type: "success", message: RELAY_MESSAGES.channelUpdated },
    });
    expect((await account())!.channelName).toBe("bots");
  });

  it("Change Planet: no planet, a bad name, or an account that is not connected is the dialog again as chosen and typed, the reason next to the field (issue 30 A6)", async () => {
    const refused = async (form: Record<string, string>) => {
      const res = await callRoute<{ kept: KeptForm["kept"] }>(action, makeRequest(`/galacord?planet=${A}`, { cookie, form }));
      expect(res.headers.get("Location")).toBeNull();
      expect(toastOf(res)).toBeUndefined();
      return { status: res.status, kept: res.data.kept };
    };
    const none = { intent: "planet", accountId: A, planet: "", custom: " " };
    expect(await refused(none)).toEqual({ status: 400, kept: { fields: none, fieldErrors: { planet: [RELAY_ERRORS.planetRequired] }, formErrors: [] } });
    const bad = { intent: "planet", accountId: A, planet: "Swap_Offers", custom: "no spaces allowed!" };
    expect(await refused(bad)).toEqual({ status: 400, kept: { fields: bad, fieldErrors: { custom: [RELAY_ERRORS.planetInvalid] }, formErrors: [] } });
    const offline = { intent: "planet", accountId: A, planet: "Swap_Offers", custom: "" };
    expect(await refused(offline)).toEqual({ status: 409, kept: { fields: offline, fieldErrors: {}, formErrors: [RELAY_ERRORS.notConnected] } });
  });

  it("Relay Options: a refused save is the form again as typed, the reason next to its field, nothing saved (issue 30 A6); good options are saved", async () => {
    const options = {
      intent: "options",
      accountId: A,
      discordName: "{nick}",
      galaxyName: "[D] {nick}",
      ignoreNicks: "spammer, bob",
      ignoreMessages: "(unclosed",
    };
    // Posted to the dialog's URL, as the dialog's form does (with and without JavaScript).
    const refused = await callRoute<{ ok: boolean; message: string; kept: KeptForm["kept"] }>(
      action,
      makeRequest(`/galacord?options=${A}`, { cookie, form: options }),
    );
    expect(refused.status).toBe(400);
    expect(refused.headers.get("Location")).toBeNull();
    expect(toastOf(refused)).toBeUndefined();
    const reason = refused.data.message;
    expect(reason).toMatch(/^Ignore messages: not a valid regular expression \(.+\)$/);
    expect(refused.data.kept).toEqual({ fields: options, fieldErrors: { ignoreMessages: [reason] }, formErrors: [] });
    expect((await account())!.relayOptions).toEqual({});
    // A refusal about no one field (the account is gone) is said above the form, the text kept too.
    const gone = await callRoute<{ kept: KeptForm["kept"] }>(action, makeRequest("/galacord", { cookie, form: { ...options, accountId: "404" } }));
    expect(gone.status).toBe(404);
    expect(gone.data.kept).toMatchObject({ fieldErrors: {}, formErrors: [RELAY_ERRORS.accountNotFound], fields: { ignoreMessages: "(unclosed" } });
    expect(await outcome({ ...options, ignoreMessages: "^!" })).toEqual({
      status: 302,
      location: "/galacord",
      toast: { type: "success", message: RELAY_MESSAGES.optionsSaved },
    });
    expect((await account())!.relayOptions).toEqual({ discordName: "{nick}", galaxyName: "[D] {nick}", ignoreNicks: ["spammer", "bob"], ignoreMessages: "^!" });
  });

  it("Delete Connection: an unknown account says so; a saved one goes", async () => {
    expect(await outcome({ intent: "delete", accountId: "404" })).toEqual({
      status: 302,
      location: "/galacord",
      toast: { type: "error", message: RELAY_ERRORS.accountNotFound },
    });
    expect(await outcome({ intent: "delete", accountId: A })).toEqual({
      status: 302,
      location: "/galacord",
      toast: { type: "success", message: RELAY_MESSAGES.deleted },
    });
    expect(await account()).toBeUndefined();
  });

  it("Connect on an account another purpose holds: back to the page with the take-over question, which names the holder (no toast saying it twice)", async () => {
    await startSession("stalker", A, { hosted: false });
    const refused = await outcome({ intent: "connect", accountId: A, channelId: RELAY });
    expect(refused.status).toBe(302);
    // Issue 30 A7: the take-over panel says it; a toast with the same words said it twice.
    expect(refused.toast).toBeUndefined();
    const url = new URL(refused.location!, "http://x");
    expect(url.pathname).toBe("/galacord");
    expect(JSON.parse(Buffer.from(url.searchParams.get("takeover")!, "base64url").toString("utf8"))).toEqual({
      intent: "connect",
      accountId: A,
      fields: { accountId: A, channelId: RELAY, accountName: "Relay (71000101)" },
    });
  });

  it("Start with the job engine offline: the §8 text; an unexpected failure: the §8 default, logged to System Logs", async () => {
    vi.spyOn(galacordModel, "startBot").mockRejectedValueOnce(jobEngineOffline());
    expect(await outcome({ intent: "bot-start" })).toEqual({ status: 302, location: "/galacord", toast: { type: "error", message: RELAY_ERRORS.controlBot } });
    vi.spyOn(galacordModel, "stopBot").mockRejectedValueOnce(new Error("db down"));
    expect(await outcome({ intent: "bot-stop" })).toEqual({ status: 302, location: "/galacord", toast: { type: "error", message: RELAY_ERRORS.controlBot } });
    const logged = await (await getDb()).select().from(logs);
    expect(logged.map((l) => [l.type, l.message])).toEqual([["error", "GalaCord: bot-stop failed"]]);
    expect(JSON.stringify(logged[0]!.details)).toContain("db down");
  });

  it("an unknown intent is a 400 naming it (CONVENTIONS rule 1)", async () => {
    const res = await post({ intent: "explode" });
    expect(res.status).toBe(400);
    expect(res.data).toEqual({ ok: false, intent: null, message: "Unknown intent: explode" });
  });
});
