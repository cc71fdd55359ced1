import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { COLLECTIONS_TEXTS as T, COLLECTION_SETS, type CollectionSetId } from "#api/collections";
import { parseAutoSettings, startAuto, stopAuto } from "~/models/automation.server";
import { collectionStatus, giftInventory, runMasticRequests, sendGifts } from "~/platform/clay.server";
import { changePlanet, connectAccount, disconnectAccount, getConnection } from "~/models/collections-connection.server";
import { loginWithProfile, loginWithRecoveryCode, logout } from "~/platform/collections-login.server";
import {
  clearActivity,
  getProfile,
  getState,
  listActivity,
  listProfiles,
  profileCredentials,
  removeProfile,
  storeItems,
  updateState,
  withActivity,
} from "~/models/collections.server";
import { AccountHeldError } from "~/models/session.server";
import { listUsers } from "~/models/user.server";
import { takeoverLocation, takeoverNotice } from "~/http/takeover.server";
import { SESSION_TEXTS } from "#api/sessions";
import { requireOperator } from "~/http/auth.server";
import { collectionsPanelCookie } from "~/utils/collections-panel.server";
import { redirectWithError } from "~/utils/toast.server";
import styles from "./components/collections.css?url";
import { CollectionsScreen } from "./components/collections-screen";
import { AppError } from "~/utils/app-error";
import type { z } from "zod";
import { panelModeSchema, pickersFormSchema } from "#api/collections-schemas";
import { pageAction, type FormFields } from "~/http/page-action.server";
import { AUTO_FORM } from "./components/intent-form";

/**
 * Collections (spec 2 §2 "Collections screen", §3, §4 "Galaxy client connection" and
 * "Automation", §5, §7, §8; docs/collections.md).
 *
 * loader  saved accounts, the logged-in profile and its live connection, the pickers, the
 *         last inventory and status read, the Auto settings and run counter, the Activity Log
 *         (latest 5), the characters for the recipient picker, the floating panel mode.
 * action  intents login, login-saved, remove-saved, logout, connect, disconnect, run, status,
 *         inventory, send, auto-on, auto-off, change-planet, clear-activity, panel. Fetchers
 *         get `{ok, intent, message}` with a flash toast; plain posts (`redirectTo`) are
 *         redirected with it.
 */

export const meta: MetaFunction = () => [{ title: "Collections · Galaxy Toolbox" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireOperator(request);
  const [state, profiles, activity, users, takeover] = await Promise.all([
    getState(operator.id),
    listProfiles(operator.id),
    listActivity(operator.id),
    listUsers(),
    takeoverNotice(request, ["login-saved", "connect"]),
  ]);
  const profile = state.profileId ? await getProfile(operator.id, state.profileId) : null;
  const connection = profile ? await getConnection(profile.accountId) : null;
  const itemsFresh = state.items && state.itemsCollectionId === state.collectionId ? state.items : null;
  return {
    /** Names the page's live events (`collections:<operatorId>`); only this operator's reach its stream anyway. */
    operatorId: operator.id,
    profiles,
    profile,
    connection,
    collectionId: state.collectionId,
    recipientId: state.recipientId,
    giftIds: state.giftIds ?? null,
    items: itemsFresh,
    auto: { on: state.auto, repeat: state.repeat, intervalSeconds: state.intervalSeconds, runCount: state.runCount, step: state.autoStep },
    activity,
    characters: users.map((u) => ({ accountId: u.account_id, nick: u.nick })),
    panel: collectionsPanelCookie.read(request) ?? "hide",
    takeover,
  };
}

export type CollectionsData = ReturnType<typeof useLoaderData<typeof loader>>;

export const INTENTS = [
  "login",
  "login-saved",
  "remove-saved",
  "logout",
  "connect",
  "disconnect",
  "run",
  "status",
  "inventory",
  "send",
  "auto-on",
  "auto-off",
  "change-planet",
  "clear-activity",
  "panel",
] as const;
export type Intent = (typeof INTENTS)[number];
export type ActionResult = { ok: boolean; intent: Intent | null; message: string };

const FALLBACK: Record<Intent, string> = {
  login: "Login failed",
  "login-saved": "Login failed",
  "remove-saved": "Could not remove the saved account",
  logout: "Could not log out",
  connect: "Could not connect to Galaxy",
  disconnect: "Could not disconnect",
  run: T.masticFailed,
  status: T.statusFailed,
  inventory: T.inventoryFailed,
  send: T.sendFailed,
  "auto-on": "Could not start Auto",
  "auto-off": "Could not stop Auto",
  "change-planet": T.notConnected,
  "clear-activity": "Could not clear the Activity Log",
  panel: "Could not change the panel",
};

/** With JavaScript, a post that cannot reach the app keeps the screen and what was typed (the form kit, issue 19). */
export const clientAction = keepInputOnFailure();
export const shouldRevalidate = reloadUnlessSubmitFailed();

export const action = pageAction<Intent>({
  section: "Collections",
  home: "/collections",
  failure: FALLBACK,
  // Issue 30 A6: the forms with typed or chosen fields keep them on a refusal, the reason next to
  // the field (decision 0033). The recovery code is never sent back: typed again. Change planet
  // and the controls keep spec 2 §8's toasts with JavaScript; the floating panel posts the same
  // intents from every page without fields, and keeps its redirect and toast (`only`).
  keepOnRefusal: {
    login: { secret: ["rc"] },
    "change-planet": { toast: true },
    run: { toast: true, only: fromControls },
    status: { toast: true, only: fromControls },
    inventory: { toast: true, only: fromControls },
    send: { toast: true, only: fromControls },
    "auto-on": { only: (form) => form.string("form") === AUTO_FORM },
  },
  onError: (err, { intent, form, redirectTo }) => {
    // Another purpose holds the account: back to the page with the take-over question
    // (the recovery-code login asks up front instead: its code never goes in a URL).
    if (!(err instanceof AccountHeldError) || intent === "login") return undefined;
    const fields: Record<string, string> = { accountName: err.account };
    if (intent === "login-saved") fields.profileId = form.string("profileId");
    const to = takeoverLocation(err, redirectTo ?? "/collections", { intent, accountId: err.holder.accountId ?? "", fields });
    return to ? redirectWithError(to, err.message) : undefined;
  },
  intents: {
    login: async ({ form, operatorId }) => {
      const profile = await loginWithRecoveryCode(operatorId, form.string("rc"), { takeover: form.checked("takeover") }).catch((err: unknown) => {
        // A blank code, or one the platform refused ("Login failed: Invalid credentials"): the reason goes next to it.
        throw err instanceof AppError && err.status === 400 && !err.field ? new AppError(400, err.message, { field: "rc" }) : err;
      });
      return `Logged in as ${profile.nick}`;
    },
    "login-saved": async ({ form, operatorId }) => {
      const profile = await loginWithProfile(operatorId, form.string("profileId"), { takeover: form.checked("takeover") });
      return `Logged in as ${profile.nick}`;
    },
    "remove-saved": async ({ form, operatorId }) => {
      const state = await getState(operatorId);
      const id = form.string("profileId");
      if (state.profileId === id) await logout(operatorId, id);
      if (!(await removeProfile(operatorId, id))) throw new AppError(404, T.noProfile);
      return "Saved account removed";
    },
    logout: async ({ form, operatorId }) => {
      // The account the screen showed (a later login to another one is kept).
      await logout(operatorId, form.string("profileId") || undefined);
      return "Logged out";
    },
    connect: async ({ form, operatorId }) => {
      const { creds } = await loggedIn(operatorId);
      const { tookOver } = await connectAccount(creds.userID, { takeover: form.checked("takeover") });
      return `Connecting to Galaxy${tookOver ? ` · ${SESSION_TEXTS.tookOver(creds.userID, tookOver.purpose)}` : ""}`;
    },
    disconnect: async ({ operatorId }) => {
      const { creds } = await loggedIn(operatorId);
      await disconnectAccount(creds.userID);
      return "Disconnected from Galaxy";
    },
    "change-planet": async ({ form, operatorId }) => {
      const { creds } = await loggedIn(operatorId).catch(() => {
        throw new AppError(409, T.notConnected, { field: "planet" });
      });
      // Its refusals ("Enter a planet", "Not connected to Galaxy") go next to the planet typed.
      const planet = await changePlanet(creds.userID, form.string("planet")).catch((err: unknown) => {
        throw err instanceof AppError && !err.field ? new AppError(err.status, err.message, { field: "planet" }) : err;
      });
      return `Now on ${planet}`;
    },
    run: async ({ form, operatorId }) => {
      await savePickers(operatorId, form);
      const { state, creds } = await loggedIn(operatorId);
      const set = state.collectionId as CollectionSetId;
      await withActivity(operatorId, `Running mastic on ${COLLECTION_SETS.find((s) => s.id === set)?.name}`, async () => {
        const out = await runMasticRequests(creds, set);
        return { result: out, message: `${T.masticOk} (${out.succeeded} of ${out.requested})` };
      });
      return T.masticOk;
    },
    status: async ({ form, operatorId }) => {
      await savePickers(operatorId, form);
      const { state, creds } = await loggedIn(operatorId);
      const set = state.collectionId as CollectionSetId;
      await withActivity(operatorId, "Reading collection status", async () => {
        const rows = await collectionStatus(creds, set, { skipCache: true });
        await storeItems(operatorId, set, rows);
        return { result: null, message: "Collection status updated" };
      });
      return "Collection status updated";
    },
    inventory: async ({ form, operatorId }) => {
      await savePickers(operatorId, form);
      const { state, creds } = await loggedIn(operatorId);
      const ids = await withActivity(operatorId, "Fetching gift inventory", async () => {
        const giftIds = await giftInventory(creds, state.collectionId as CollectionSetId);
        return { result: giftIds, message: `${giftIds.length} gifts in stock` };
      });
      await updateState(operatorId, { giftIds: ids, giftsAt: new Date() });
      return `${ids.length} gifts in stock`;
    },
    send: async ({ form, operatorId }) => {
      await savePickers(operatorId, form);
      const { state, creds } = await loggedIn(operatorId);
      if (!state.recipientId) throw new AppError(400, T.noRecipient, { field: "recipientId" });
      const ids = state.giftIds ?? [];
      if (!ids.length) throw new AppError(400, T.noGifts);
      const { message } = await withActivity(operatorId, `Sending ${ids.length} gifts to user ${state.recipientId}`, async () => {
        const out = await sendGifts(creds, state.recipientId, ids);
        return { result: out, message: out.message };
      });
      await updateState(operatorId, { giftIds: [], giftsAt: new Date() });
      return message;
    },
    "auto-on": async ({ form, operatorId }) => {
      await savePickers(operatorId, form);
      const settings = parseAutoSettings({ repeat: form.string("repeat") || 0, intervalSeconds: form.string("intervalSeconds") || 30 });
      await loggedIn(operatorId);
      await startAuto(operatorId, settings);
      return "Auto on";
    },
    "auto-off": async ({ operatorId }) => {
      await stopAuto(operatorId);
      return "Auto off";
    },
    "clear-activity": async ({ operatorId }) => {
      await clearActivity(operatorId);
      return "Activity Log cleared";
    },
    panel: ({ form }) => {
      const mode = parsed(panelModeSchema, form.string("mode"));
      return {
        ok: true,
        message: mode === "hide" ? "Floating panel hidden" : mode === "minimized" ? "Floating panel minimized" : "Floating panel shown",
        headers: { "Set-Cookie": collectionsPanelCookie.serialize(mode) },
      };
    },
  },
});

/** A zod parse whose first issue is the 400's text (about `field(path)` when given: the posted field it names). */
function parsed<V>(schema: z.ZodType<V>, value: unknown, field?: (path: string) => string): V {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const at = issue?.path[0];
    throw new AppError(400, issue?.message ?? "Invalid form data", { field: field && at !== undefined ? field(String(at)) : undefined });
  }
  return result.data;
}

/** The Collections screen's controls (set, recipient, Other account ID), not the floating panel's buttons. */
function fromControls(form: FormFields): boolean {
  return form.formData.has("recipientOther");
}

/** The logged-in profile's credentials, else 409 "Log in to Galaxy first". */
async function loggedIn(operatorId: string) {
  const state = await getState(operatorId);
  const creds = state.profileId ? await profileCredentials(state.profileId) : null;
  if (!creds) throw new AppError(409, T.notLoggedIn);
  return { state, creds: { userID: creds.userID, password: creds.password } };
}

/** The pickers as posted (spec 2 §5: a set must be chosen for Run; Send needs a recipient). */
async function savePickers(operatorId: string, form: FormFields) {
  const other = form.string("recipientOther").trim();
  const patch = parsed(
    pickersFormSchema,
    {
      collectionId: form.formData.has("collectionId") ? form.string("collectionId") : undefined,
      recipientId: form.formData.has("recipientId") || other ? other || form.string("recipientId") : undefined,
    },
    // The recipient's refusal is about the field it came from: the typed Other account ID wins over the pick.
    (path) => (path === "recipientId" && other ? "recipientOther" : path),
  );
  if (patch.collectionId === undefined) delete patch.collectionId;
  if (patch.recipientId === undefined) delete patch.recipientId;
  if (Object.keys(patch).length) await updateState(operatorId, patch);
}

export default function CollectionsRoute() {
  const data = useLoaderData<typeof loader>();
  return <CollectionsScreen data={data} />;
}
