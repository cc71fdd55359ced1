import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { ACCOUNT_MESSAGES } from "#api/accounts";
import { BOWLING_ERRORS, companionBodySchema, deletedCompanionsMessage, type Companion } from "#api/bowling";
import { bowlingRefreshNotice, currentBowlingRefreshProgress, REFRESH_TEXTS, requestBowlingRefresh } from "~/models/bowling-refresh.server";
import { latestAccountUndo, removeUserUndoable, undoAccountDeletion, UNDO_TEXTS } from "~/models/account-undo.server";
import { getLastFetched, listBowlingUsers, removeBowlingUser } from "~/models/bowling-user.server";
import { getCharacterDetails, stalenessOf, type CharacterDetails, type Staleness } from "~/models/character-details.server";
import { createCompanion, deleteAllCompanions, listCompanions, updateCompanion } from "~/models/companion.server";
import { logEvent } from "~/models/log.server";
import { loadSummary } from "~/models/summary.server";
import { BowlingScreen } from "~/routes/_app+/_bowling-bots+/components/bowling-screen";
import styles from "~/routes/_app+/_bowling-bots+/components/bowling.css?url";
import {
  collectionTotal,
  giftTotals,
  initialsOf,
  REFRESHING_PARAM,
  URL_ONLY_PARAMS,
  type CollectionItemView,
  type GiftCell,
} from "~/routes/_app+/_bowling-bots+/components/bowling-view";
import { requireOperator } from "~/utils/auth.server";
import { redirectWithNotice } from "~/utils/refresh-notice.server";
import { keepDataForUrlOnlyParams } from "~/utils/search-params";
import { matchesSearch, searchQuery } from "~/utils/list-search";
import { AppError } from "~/utils/app-error";
import { isJobEngineOffline } from "#jobs/queues.server";
import { pageAction, withSearchParam, type IntentHandler, type PageOutcome } from "~/utils/page-action.server";

/**
 * Bowling Bots (section id gifts; spec 1 §2 "Bowling Bots section", §4 refresh control, §8
 * bowling toasts; docs/bowling.md).
 *
 * loader  bowling users with what the refresh stored (character_details: picture, status,
 *         gift stats, collection 151), companions with supplier/consumer nicks, the candidates,
 *         last-fetched, the refresh progress with the last refresh's outcome (`notice`) and
 *         the Summary panel. A page posted a refresh without JavaScript carries
 *         `?refreshing=1`: it reloads itself until the job ends and is then redirected with
 *         the outcome's toast (§8's texts; the warning naming failed accounts is ours).
 * action  intents refresh, delete-user, undo-delete, assign-companion, update-companion, delete-companions.
 *         Fetchers get `{ok, intent, message}` with a flash toast; plain posts (`redirectTo`)
 *         are redirected with it.
 */

export const meta: MetaFunction = () => [{ title: "Bowling Bots · Galaxy Toolbox" }];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export type BowlingRow = {
  _id: string;
  account_id: string;
  nick: string;
  initials: string;
  picUrl: string | null;
  isOnline: boolean | null;
  room: string | null;
  /** null: never loaded (skeleton, or 'Failed to load gifts' when `giftsFailed`). The last known gifts otherwise. */
  gifts: GiftCell[] | null;
  /** The last gift stats call failed. */
  giftsFailed: boolean;
  /** Parts shown from an older refresh because the last one failed for them: their age and why. */
  stale: Staleness | null;
  /** null: never loaded. */
  collection: CollectionItemView[] | null;
  companion: (Companion & { supplierNick: string | null; consumerNick: string | null }) | null;
};

function collectionItems(d: CharacterDetails | undefined): CollectionItemView[] | null {
  if (!d?.collection) return null;
  return [...d.collection.firstRow, ...d.collection.secondRow].map((i) => ({ imageUrl: i.imageUrl, count: Number(i.count) || 0 }));
}

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireOperator(request);
  const url = new URL(request.url);
  const [progress, lastFetched, summary, undo] = await Promise.all([
    currentBowlingRefreshProgress(),
    getLastFetched().catch(() => null),
    loadSummary(request),
    latestAccountUndo(operator.id),
  ]);

  // A refresh posted without JavaScript: once it ended, come back to the plain page with its toast.
  const notice = bowlingRefreshNotice(progress);
  if (url.searchParams.has(REFRESHING_PARAM) && !progress?.running) {
    url.searchParams.delete(REFRESHING_PARAM);
    return redirectWithNotice(`${url.pathname}${url.search}`, notice);
  }

  let list: Awaited<ReturnType<typeof listBowlingUsers>> | null = null;
  let details = new Map<string, CharacterDetails>();
  let detailsFailed = false;
  let companions: Companion[] = [];
  const [listed, detailed, companioned] = await Promise.allSettled([listBowlingUsers(), getCharacterDetails(), listCompanions()]);
  if (listed.status === "fulfilled") list = listed.value;
  // Spec 1 §2 state "Failed to load bowling users"; the rest of the page still renders.
  else await logEvent({ type: "error", source: "system", message: "Bowling Bots: loading bowling users failed", details: listed.reason });
  if (detailed.status === "fulfilled") details = detailed.value;
  else {
    // Spec 1 §8 "Per-user stats failure shows 'Failed to load gifts' on the row".
    detailsFailed = true;
    await logEvent({ type: "error", source: "system", message: "Bowling Bots: loading the stored user details failed", details: detailed.reason });
  }
  if (companioned.status === "fulfilled") companions = companioned.value;
  // Spec 1 §8 "Gift-rate and companion load failures are only logged": the users still show.
  else await logEvent({ type: "error", source: "system", message: "Bowling Bots: loading companions failed", details: companioned.reason });
  const nickOf = new Map<string, string>();
  for (const c of [...(list?.recipients ?? []), ...(list?.suppliers ?? [])]) nickOf.set(c.account_id, c.nick);
  const companionOf = new Map(companions.map((c) => [c.bowling_id, c]));

  const rows: BowlingRow[] | null = list
    ? list.users.map((u) => {
        const d = details.get(u.account_id);
        const c = companionOf.get(u.account_id);
        return {
          _id: u._id,
          account_id: u.account_id,
          nick: u.nick,
          initials: initialsOf(u.nick),
          picUrl: d?.picUrl ?? null,
          isOnline: d?.isOnline ?? null,
          room: d?.room ?? null,
          gifts: d?.gifts ? d.gifts.map(({ type, name, img, amount }) => ({ type, name, img, amount })) : null,
          giftsFailed: detailsFailed || (d?.giftsFailed ?? false),
          stale: stalenessOf(d, ["pic", "status", "gifts", "collection"]),
          collection: collectionItems(d),
          companion: c ? { ...c, supplierNick: nickOf.get(c.supplier) ?? null, consumerNick: nickOf.get(c.consumer) ?? null } : null,
        };
      })
    : null;

  // Issue 19 item 14: `?q=` narrows the rows on the server; the totals still count every account.
  const query = searchQuery(url.searchParams);
  return {
    rows: rows ? rows.filter((r) => matchesSearch(query, r)) : null,
    query,
    userCount: rows?.length ?? 0,
    suppliers: list?.suppliers ?? [],
    recipients: list?.recipients ?? [],
    companionCount: companions.length,
    // Spec 1 §2 totals, summed from exactly what the rows show (last known gifts included).
    totals: rows ? { gifts: giftTotals(rows.map((r) => r.gifts)), collection: rows.reduce((n, r) => n + collectionTotal(r.collection), 0) } : null,
    lastFetched,
    undo,
    progress,
    notice,
    refreshingNoJs: url.searchParams.has(REFRESHING_PARAM),
    summary,
  };
}

export type BowlingData = ReturnType<typeof useLoaderData<typeof loader>>;

/** `?dialog=`, `?account=` and `?confirm=` are read in the browser: no refetch to open or close them. */
export const shouldRevalidate: ShouldRevalidateFunction = reloadUnlessSubmitFailed(keepDataForUrlOnlyParams(URL_ONLY_PARAMS));

// ---------------------------------------------------------------------------------------
// Action

export const INTENTS = ["refresh", "delete-user", "undo-delete", "assign-companion", "update-companion", "delete-companions"] as const;
export type Intent = (typeof INTENTS)[number];
export type ActionResult = { ok: boolean; intent: Intent | null; message: string };

/** Spec 1 §8 toasts (success, failure) per intent; the refresh's own toasts come when the job ends. */
export const BOWLING_TOASTS = {
  assigned: "Companion assigned successfully",
  updated: "Companion updated successfully",
  assignFailed: "Failed to assign companion",
  updateFailed: "Failed to update companion",
  deleteAllFailed: "Failed to delete all companions",
} as const;

const FALLBACK: Record<Intent, string> = {
  refresh: REFRESH_TEXTS.failure,
  "delete-user": BOWLING_ERRORS.deleteUser,
  "undo-delete": UNDO_TEXTS.gone,
  "assign-companion": BOWLING_TOASTS.assignFailed,
  "update-companion": BOWLING_TOASTS.updateFailed,
  "delete-companions": BOWLING_TOASTS.deleteAllFailed,
};
/** Companion failures show the spec's toast text whatever the reason (the reason is logged). */
const FIXED_FAILURE: ReadonlySet<Intent> = new Set(["assign-companion", "update-companion", "delete-companions"]);

/** [D] The refresh click has no toast of its own; progress shows on the page, §8's toasts come at the end. */
export const REFRESH_STARTED = "Refreshing bowling data";

/** With JavaScript, a post that cannot reach the app keeps the screen and what was typed (the form kit, issue 19). */
export const clientAction = keepInputOnFailure();

export const action = pageAction<Intent>({
  section: "Bowling Bots",
  home: "/gifts",
  failure: FALLBACK,
  onError: async (err, { intent }) => {
    if (!(err instanceof AppError) || !FIXED_FAILURE.has(intent) || isJobEngineOffline(err)) return undefined;
    await logEvent({ type: "info", source: "system", message: `Bowling Bots: ${intent} refused: ${err.message}` });
    return { ok: false, message: FALLBACK[intent], status: err.status };
  },
  intents: Object.fromEntries(
    INTENTS.map((intent) => [intent, ({ form, operatorId, redirectTo }) => handle(intent, form.formData, operatorId, redirectTo)]),
  ) as Record<Intent, IntentHandler<Intent>>,
});

const field = (formData: FormData, name: string) => {
  const v = formData.get(name);
  return typeof v === "string" ? v : "";
};

function companionBody(formData: FormData) {
  const parsed = companionBodySchema.safeParse({
    bowling_id: field(formData, "bowling_id"),
    supplier: field(formData, "supplier"),
    consumer: field(formData, "consumer"),
  });
  if (!parsed.success) throw new AppError(400, parsed.error.issues[0]?.message ?? BOWLING_ERRORS.companionIncomplete);
  return parsed.data;
}

async function handle(intent: Intent, formData: FormData, operatorId: string, redirectTo: string | null): Promise<string | PageOutcome> {
  switch (intent) {
    case "refresh":
      await requestBowlingRefresh();
      // No toast: the page follows the job (REFRESHING_PARAM without JavaScript) and tells its outcome at the end.
      return { ok: true, message: REFRESH_STARTED, toast: false, redirectTo: redirectTo ? withSearchParam(redirectTo, REFRESHING_PARAM, "1") : undefined };
    case "delete-user":
      // Kept for Undo with the companions it takes along (issue 19 item 9).
      await removeUserUndoable(operatorId, field(formData, "accountId").trim() || "-", removeBowlingUser);
      return ACCOUNT_MESSAGES.userDeleted;
    case "undo-delete":
      return (await undoAccountDeletion(operatorId, field(formData, "undoId"))).message;
    case "assign-companion":
      await createCompanion(companionBody(formData));
      return BOWLING_TOASTS.assigned;
    case "update-companion":
      await updateCompanion(field(formData, "id"), companionBody(formData));
      return BOWLING_TOASTS.updated;
    case "delete-companions": {
      const n = await deleteAllCompanions();
      return deletedCompanionsMessage(n);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Screen

export default function BowlingBotsRoute() {
  const data = useLoaderData<typeof loader>();
  return <BowlingScreen data={data} />;
}
