import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { ACCOUNT_MESSAGES } from "#api/accounts";
import { BOWLING_ERRORS, companionBodySchema, deletedCompanionsMessage } from "#api/bowling";
import { bowlingRefreshNotice, currentBowlingRefreshProgress, REFRESH_TEXTS, requestBowlingRefresh } from "~/models/bowling-refresh.server";
import { latestAccountUndo, removeUserUndoable, undoAccountDeletion, UNDO_TEXTS } from "~/models/account-undo.server";
import {
  BOWLING_PAGE_SIZE,
  bowlingCompanionsOf,
  bowlingDetailsOf,
  bowlingTotals,
  bowlingUsersPage,
  companionCandidates,
  type BowlingPage,
  type PageCompanion,
} from "~/models/bowling-page.server";
import { getLastFetched, removeBowlingUser } from "~/models/bowling-user.server";
import { stalenessOf, type CharacterDetails, type Staleness } from "~/models/character-details.server";
import { createCompanion, deleteAllCompanions, updateCompanion } from "~/models/companion.server";
import { logEvent } from "~/models/log.server";
import { loadSummary } from "~/models/summary.server";
import { GIFT_RATE_ERRORS, GIFT_RATES_INTENT } from "#api/summary";
import { saveGiftRatesForm } from "~/routes/_app+/_summary+/gift-rates-form.server";
import { BowlingScreen } from "~/routes/_app+/_bowling-bots+/components/bowling-screen";
import styles from "~/routes/_app+/_bowling-bots+/components/bowling.css?url";
import {
  dialogOf,
  PAGE_PARAM,
  REFRESHING_PARAM,
  ROW_GIFT_TYPES,
  URL_ONLY_PARAMS,
  type CollectionItemView,
  type GiftCell,
} from "~/routes/_app+/_bowling-bots+/components/bowling-view";
import { initialsOf } from "~/components/account/account-view";
import { requireOperator } from "~/http/auth.server";
import { redirectWithNotice } from "~/utils/refresh-notice.server";
import { keepDataForUrlOnlyParams } from "~/utils/search-params";
import { searchQuery } from "~/utils/list-search";
import { AppError } from "~/utils/app-error";
import { isJobEngineOffline } from "~/queue/queues.server";
import { pageAction, withSearchParam, type FormFields } from "~/http/page-action.server";

/**
 * Bowling Bots (section id gifts; spec 1 §2 "Bowling Bots section", §4 refresh control, §8
 * bowling toasts; docs/bowling.md).
 *
 * loader  one page of bowling users (`?page=`, `?q=`; docs/bowling.md "Pages") with what the refresh stored (character_details: picture, status,
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
  /** null: never loaded (a skeleton while a refresh runs, else "Gifts not loaded yet"; 'Failed to load gifts' when `giftsFailed`). The last known gifts otherwise. */
  gifts: GiftCell[] | null;
  /** The last gift stats call failed. */
  giftsFailed: boolean;
  /** Parts shown from an older refresh because the last one failed for them: their age and why. */
  stale: Staleness | null;
  /** null: never loaded. */
  collection: CollectionItemView[] | null;
  companion: PageCompanion | null;
};

/** A picture on this app's own origin is sent as a path (shorter rows; issue 20 "relative image URLs"). */
function imageUrl(url: string, origin: string): string {
  return url.startsWith(`${origin}/`) ? url.slice(origin.length) : url;
}

function collectionItems(d: CharacterDetails | undefined, origin: string): CollectionItemView[] | null {
  if (!d?.collection) return null;
  return [...d.collection.firstRow, ...d.collection.secondRow].map((i) => ({ imageUrl: imageUrl(i.imageUrl, origin), count: Number(i.count) || 0 }));
}

function pageOf(params: URLSearchParams): number {
  const n = Number(params.get(PAGE_PARAM));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * Issue 20 "Bounded pages": one page of BOWLING_PAGE_SIZE accounts (`?page=`, with `?q=` found
 * by the database across every account); details and companions are read for that page only,
 * the totals are summed by PostgreSQL over the whole fleet.
 */
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

  // Issue 19 item 14: `?q=` narrows the rows in the database; the totals still count every account.
  const query = searchQuery(url.searchParams);
  let list: BowlingPage | null = null;
  try {
    list = await bowlingUsersPage({ query, page: pageOf(url.searchParams) });
  } catch (err) {
    // Spec 1 §2 state "Failed to load bowling users"; the rest of the page still renders.
    await logEvent({ type: "error", source: "system", message: "Bowling Bots: loading bowling users failed", details: err });
  }
  const ids = list?.users.map((u) => u.account_id) ?? [];
  let details = new Map<string, CharacterDetails>();
  let detailsFailed = false;
  let companions: Awaited<ReturnType<typeof bowlingCompanionsOf>> = { byBowlingId: new Map(), count: 0 };
  // Suppliers and recipients grow with the fleet: the document carries them only while the companion
  // dialog is open by URL (no JavaScript, a shared link); with JavaScript the dialog fetches them
  // (/gifts/companion-candidates, issue 20 "Bounded pages").
  const companionOpen = dialogOf(url.searchParams)?.dialog === "companion";
  let candidates: Awaited<ReturnType<typeof companionCandidates>> | null = null;
  let totals: Awaited<ReturnType<typeof bowlingTotals>> | null = null;
  const [detailed, companioned, candidated, summed] = await Promise.allSettled([
    bowlingDetailsOf(ids),
    bowlingCompanionsOf(ids),
    companionOpen ? companionCandidates() : Promise.resolve(null),
    list ? bowlingTotals() : Promise.resolve(null),
  ]);
  if (detailed.status === "fulfilled") details = detailed.value;
  else {
    // Spec 1 §8 "Per-user stats failure shows 'Failed to load gifts' on the row".
    detailsFailed = true;
    await logEvent({ type: "error", source: "system", message: "Bowling Bots: loading the stored user details failed", details: detailed.reason });
  }
  if (companioned.status === "fulfilled") companions = companioned.value;
  // Spec 1 §8 "Gift-rate and companion load failures are only logged": the users still show.
  else await logEvent({ type: "error", source: "system", message: "Bowling Bots: loading companions failed", details: companioned.reason });
  if (candidated.status === "fulfilled") candidates = candidated.value;
  else await logEvent({ type: "error", source: "system", message: "Bowling Bots: loading suppliers and recipients failed", details: candidated.reason });
  // Spec 1 §2 totals, summed from exactly what the rows show (last known gifts included), over every account.
  if (summed.status === "fulfilled") totals = summed.value;
  else await logEvent({ type: "error", source: "system", message: "Bowling Bots: summing the totals failed", details: summed.reason });
  if (detailsFailed) totals = null;

  const origin = url.origin;
  const rows: BowlingRow[] | null = list
    ? list.users.map((u) => {
        const d = details.get(u.account_id);
        return {
          _id: u._id,
          account_id: u.account_id,
          nick: u.nick,
          initials: initialsOf(u.nick),
          picUrl: d?.picUrl ? imageUrl(d.picUrl, origin) : null,
          isOnline: d?.isOnline ?? null,
          room: d?.room ?? null,
          // Only the seven types a row shows (rowChips); the others count in the totals, summed by PostgreSQL.
          gifts: d?.gifts
            ? d.gifts
                .filter((g) => ROW_GIFT_TYPES.has(g.type))
                .map(({ type, name, img, amount }) => ({ type, name, img: img ? imageUrl(img, origin) : img, amount }))
            : null,
          giftsFailed: detailsFailed || (d?.giftsFailed ?? false),
          stale: stalenessOf(d, ["pic", "status", "gifts", "collection"]),
          collection: collectionItems(d, origin),
          companion: companions.byBowlingId.get(u.account_id) ?? null,
        };
      })
    : null;

  return {
    rows,
    query,
    /** Every bowling account ("No users found" when 0; the search line's "of N"). */
    userCount: list?.total ?? 0,
    /** Accounts matching `?q=` over every page. */
    matching: list?.matching ?? 0,
    page: list ? { page: list.page, pages: list.pages, size: BOWLING_PAGE_SIZE } : null,
    /** Suppliers and recipients, only while the companion dialog is open by URL (else null: the dialog fetches them). */
    candidates,
    candidatesFailed: companionOpen && candidated.status === "rejected",
    companionCount: companions.count,
    totals: totals ? { gifts: totals.gifts.map((g) => ({ ...g, img: g.img ? imageUrl(g.img, origin) : g.img })), collection: totals.collection } : null,
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

export const INTENTS = ["refresh", "delete-user", "undo-delete", "assign-companion", "update-companion", "delete-companions", GIFT_RATES_INTENT] as const;
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
  [GIFT_RATES_INTENT]: GIFT_RATE_ERRORS.saveFailed,
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
  // Issue 30 A6: a refused companion keeps the dialog open with the supplier and recipient chosen,
  // spec 1 §8's text next to the field it is about (and its toast, with JavaScript).
  keepOnRefusal: { "assign-companion": { toast: true }, "update-companion": { toast: true }, [GIFT_RATES_INTENT]: {} },
  onError: async (err, { intent }) => {
    if (!(err instanceof AppError) || !FIXED_FAILURE.has(intent) || isJobEngineOffline(err)) return undefined;
    await logEvent({ type: "info", source: "system", message: `Bowling Bots: ${intent} refused: ${err.message}` });
    return { ok: false, message: FALLBACK[intent], status: err.status, field: err.field };
  },
  intents: {
    refresh: async ({ redirectTo }) => {
      await requestBowlingRefresh();
      // No toast: the page follows the job (REFRESHING_PARAM without JavaScript) and tells its outcome at the end.
      return { ok: true, message: REFRESH_STARTED, toast: false, redirectTo: redirectTo ? withSearchParam(redirectTo, REFRESHING_PARAM, "1") : undefined };
    },
    "delete-user": async ({ form, operatorId }) => {
      // Kept for Undo with the companions it takes along (issue 19 item 9).
      await removeUserUndoable(operatorId, form.string("accountId").trim() || "-", removeBowlingUser);
      return ACCOUNT_MESSAGES.userDeleted;
    },
    "undo-delete": async ({ form, operatorId }) => (await undoAccountDeletion(operatorId, form.string("undoId"))).message,
    "assign-companion": async ({ form }) => {
      await createCompanion(companionBody(form)).catch(onCompanionField);
      return BOWLING_TOASTS.assigned;
    },
    "update-companion": async ({ form }) => {
      await updateCompanion(form.string("id"), companionBody(form)).catch(onCompanionField);
      return BOWLING_TOASTS.updated;
    },
    "delete-companions": async () => deletedCompanionsMessage(await deleteAllCompanions()),
    // The Summary panel's Gift Rates without JavaScript (docs/decisions/0047): a refusal renders
    // this page with the dialog open, what was typed and the reason under its field.
    [GIFT_RATES_INTENT]: saveGiftRatesForm,
  },
});

/** The companion form through the /api schema (spec 1 §5): the same rules and texts as POST /api/bowling-companions. */
function companionBody(form: FormFields) {
  const parsed = companionBodySchema.safeParse({ bowling_id: form.string("bowling_id"), supplier: form.string("supplier"), consumer: form.string("consumer") });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path[0];
    // The field it is about (a missing supplier or recipient), for the kept form (issue 30 A6).
    const field = at === "supplier" || at === "consumer" ? at : undefined;
    throw new AppError(400, issue?.message ?? BOWLING_ERRORS.companionIncomplete, { field });
  }
  return parsed.data;
}

/** The model's refusal of a supplier or recipient that is not one names its field. */
function onCompanionField(err: unknown): never {
  if (err instanceof AppError && !err.field) {
    const field = err.message === BOWLING_ERRORS.supplierInvalid ? "supplier" : err.message === BOWLING_ERRORS.consumerInvalid ? "consumer" : undefined;
    if (field) throw new AppError(err.status, err.message, { field });
  }
  throw err;
}

// ---------------------------------------------------------------------------------------
// Screen

export default function BowlingBotsRoute() {
  const data = useLoaderData<typeof loader>();
  return <BowlingScreen data={data} />;
}
