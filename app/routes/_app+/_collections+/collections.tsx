import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { COLLECTIONS_TEXTS as T, COLLECTION_SETS, isCollectionSetId, type CollectionSetId } from "#api/collections";
import { parseAutoSettings, startAuto, stopAuto } from "~/models/automation.server";
import { collectionStatus, giftInventory, runMasticRequests, sendGifts } from "~/galaxy/clay.server";
import { changePlanet, connectAccount, disconnectAccount, getConnection } from "~/models/collections-connection.server";
import { loginWithProfile, loginWithRecoveryCode, logout } from "~/galaxy/collections-login.server";
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
import { takeoverLocation, takeoverNotice } from "~/utils/takeover.server";
import { SESSION_TEXTS } from "#api/sessions";
import { requireOperator } from "~/utils/auth.server";
import { collectionsPanelCookie, type PanelMode } from "~/utils/collections-panel.server";
import { redirectWithError } from "~/utils/toast.server";
import styles from "./components/collections.css?url";
import { CollectionsScreen } from "./components/collections-screen";
import { AppError } from "~/utils/app-error";
import { pageAction, type IntentHandler, type PageOutcome } from "~/utils/page-action.server";

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
  onError: (err, { intent, form, redirectTo }) => {
    // Another purpose holds the account: back to the page with the take-over question
    // (the recovery-code login asks up front instead: its code never goes in a URL).
    if (!(err instanceof AccountHeldError) || intent === "login") return undefined;
    const fields: Record<string, string> = { accountName: err.account };
    if (intent === "login-saved") fields.profileId = form.string("profileId");
    const to = takeoverLocation(err, redirectTo ?? "/collections", { intent, accountId: err.holder.accountId ?? "", fields });
    return to ? redirectWithError(to, err.message) : undefined;
  },
  intents: Object.fromEntries(INTENTS.map((intent) => [intent, ({ form, operatorId }) => handle(intent, form.formData, operatorId)])) as Record<
    Intent,
    IntentHandler<Intent>
  >,
});

const field = (formData: FormData, name: string) => {
  const v = formData.get(name);
  return typeof v === "string" ? v : "";
};

const checked = (formData: FormData, name: string) => ["1", "on", "true"].includes(field(formData, name));

/** The logged-in profile's credentials, else 409 "Log in to Galaxy first". */
async function loggedIn(operatorId: string) {
  const state = await getState(operatorId);
  const creds = state.profileId ? await profileCredentials(state.profileId) : null;
  if (!creds) throw new AppError(409, T.notLoggedIn);
  return { state, creds: { userID: creds.userID, password: creds.password } };
}

/** The pickers as posted (spec 2 §5: a set must be chosen for Run; Send needs a recipient). */
async function savePickers(operatorId: string, formData: FormData) {
  const patch: { collectionId?: number; recipientId?: string } = {};
  if (formData.has("collectionId")) {
    const raw = field(formData, "collectionId").trim();
    if (!raw) throw new AppError(400, T.noSet);
    if (!isCollectionSetId(Number(raw))) throw new AppError(400, T.badSet);
    patch.collectionId = Number(raw);
  }
  if (formData.has("recipientId") || field(formData, "recipientOther").trim()) {
    // "Other account ID" (recipientOther), when filled, wins over the picker.
    const raw = (field(formData, "recipientOther").trim() || field(formData, "recipientId")).trim();
    if (raw && !/^\d{1,12}$/.test(raw)) throw new AppError(400, T.recipientNotId);
    patch.recipientId = raw;
  }
  if (Object.keys(patch).length) await updateState(operatorId, patch);
}

async function handle(intent: Intent, formData: FormData, operatorId: string): Promise<string | PageOutcome> {
  switch (intent) {
    case "login": {
      const profile = await loginWithRecoveryCode(operatorId, field(formData, "rc"), { takeover: checked(formData, "takeover") });
      return `Logged in as ${profile.nick}`;
    }
    case "login-saved": {
      const profile = await loginWithProfile(operatorId, field(formData, "profileId"), { takeover: checked(formData, "takeover") });
      return `Logged in as ${profile.nick}`;
    }
    case "remove-saved": {
      const state = await getState(operatorId);
      const id = field(formData, "profileId");
      if (state.profileId === id) await logout(operatorId);
      if (!(await removeProfile(operatorId, id))) throw new AppError(404, T.noProfile);
      return "Saved account removed";
    }
    case "logout":
      await logout(operatorId);
      return "Logged out";
    case "connect": {
      const { creds } = await loggedIn(operatorId);
      const { tookOver } = await connectAccount(creds.userID, { takeover: checked(formData, "takeover") });
      return `Connecting to Galaxy${tookOver ? ` · ${SESSION_TEXTS.tookOver(creds.userID, tookOver.purpose)}` : ""}`;
    }
    case "disconnect": {
      const { creds } = await loggedIn(operatorId);
      await disconnectAccount(creds.userID);
      return "Disconnected from Galaxy";
    }
    case "change-planet": {
      const { creds } = await loggedIn(operatorId).catch(() => {
        throw new AppError(409, T.notConnected);
      });
      const planet = await changePlanet(creds.userID, field(formData, "planet"));
      return `Now on ${planet}`;
    }
    case "run": {
      await savePickers(operatorId, formData);
      const { state, creds } = await loggedIn(operatorId);
      const set = state.collectionId as CollectionSetId;
      await withActivity(operatorId, `Running mastic on ${COLLECTION_SETS.find((s) => s.id === set)?.name}`, async () => {
        const out = await runMasticRequests(creds, set);
        return { result: out, message: `${T.masticOk} (${out.succeeded} of ${out.requested})` };
      });
      return T.masticOk;
    }
    case "status": {
      await savePickers(operatorId, formData);
      const { state, creds } = await loggedIn(operatorId);
      const set = state.collectionId as CollectionSetId;
      await withActivity(operatorId, "Reading collection status", async () => {
        const rows = await collectionStatus(creds, set, { skipCache: true });
        await storeItems(operatorId, set, rows);
        return { result: null, message: "Collection status updated" };
      });
      return "Collection status updated";
    }
    case "inventory": {
      await savePickers(operatorId, formData);
      const { state, creds } = await loggedIn(operatorId);
      const ids = await withActivity(operatorId, "Fetching gift inventory", async () => {
        const giftIds = await giftInventory(creds, state.collectionId as CollectionSetId);
        return { result: giftIds, message: `${giftIds.length} gifts in stock` };
      });
      await updateState(operatorId, { giftIds: ids, giftsAt: new Date() });
      return `${ids.length} gifts in stock`;
    }
    case "send": {
      await savePickers(operatorId, formData);
      const { state, creds } = await loggedIn(operatorId);
      if (!state.recipientId) throw new AppError(400, T.noRecipient);
      const ids = state.giftIds ?? [];
      if (!ids.length) throw new AppError(400, T.noGifts);
      const { message } = await withActivity(operatorId, `Sending ${ids.length} gifts to user ${state.recipientId}`, async () => {
        const out = await sendGifts(creds, state.recipientId, ids);
        return { result: out, message: out.message };
      });
      await updateState(operatorId, { giftIds: [], giftsAt: new Date() });
      return message;
    }
    case "auto-on": {
      await savePickers(operatorId, formData);
      const settings = parseAutoSettings({ repeat: field(formData, "repeat") || 0, intervalSeconds: field(formData, "intervalSeconds") || 30 });
      await loggedIn(operatorId);
      await startAuto(operatorId, settings);
      return "Auto on";
    }
    case "auto-off":
      await stopAuto(operatorId);
      return "Auto off";
    case "clear-activity":
      await clearActivity(operatorId);
      return "Activity Log cleared";
    case "panel": {
      const mode = field(formData, "mode");
      if (!["show", "minimized", "hide"].includes(mode)) throw new AppError(400, "Unknown panel mode");
      return {
        ok: true,
        message: mode === "hide" ? "Floating panel hidden" : mode === "minimized" ? "Floating panel minimized" : "Floating panel shown",
        headers: { "Set-Cookie": collectionsPanelCookie.serialize(mode as PanelMode) },
      };
    }
  }
}

export default function CollectionsRoute() {
  const data = useLoaderData<typeof loader>();
  return <CollectionsScreen data={data} />;
}
