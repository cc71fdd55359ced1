import { initialsOf } from "~/components/account/account-view";
import { redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { ACCOUNT_ERRORS, ACCOUNT_MESSAGES, createCredsSchema, type Category } from "#api/accounts";
import styles from "~/routes/_app+/_characters+/components/characters.css?url";
import { CharactersScreen } from "~/routes/_app+/_characters+/components/characters-screen";
import {
  REFRESHING_PARAM,
  URL_ONLY_PARAMS,
  giftSelection,
  pageParam,
  type GiftAmount,
  stalkerRowFields,
  type StalkerCardState,
  type StalkerRowFields,
} from "~/routes/_app+/_characters+/components/characters-view";
import { groupRows } from "~/routes/_app+/_characters+/components/group-rows";
import { deleteCategoryUndoable, latestAccountUndo, removeUserUndoable, undoAccountDeletion, UNDO_TEXTS } from "~/models/account-undo.server";
import { createCategory, listCategories } from "~/models/category.server";
import { getSelectedCharacter, stalenessOf, type Staleness } from "~/models/character-details.server";
import { countUsers, firstStalkerUser, firstUserAmong, giftTotalsOfAll, loadCharacterPage, stalkerUsersAmong } from "~/models/character-page.server";
import {
  charactersRefreshNotice,
  currentCharactersRefreshProgress,
  loadNewUserDetails,
  requestCharactersRefresh,
  selectCharacter,
} from "~/models/character-refresh.server";
import { createUserFromRecoveryCode } from "~/platform/create-creds.server";
import { logEvent } from "~/models/log.server";
import { AccountHeldError } from "~/models/session.server";
import { listStalkerStatuses, startStalker, startWaitMs, stopStalker, type StalkerStatus } from "~/models/stalker.server";
import { loadSummary } from "~/models/summary.server";
import { GIFT_RATE_ERRORS, GIFT_RATES_INTENT } from "#api/summary";
import { saveGiftRatesForm } from "~/routes/_app+/_summary+/gift-rates-form.server";
import { requireOperator, safeRedirect } from "~/http/auth.server";
import { redirectWithNotice } from "~/utils/refresh-notice.server";
import { keepDataForUrlOnlyParams } from "~/utils/search-params";
import { searchQuery } from "~/utils/list-search";
import { takeoverLocation, takeoverNotice } from "~/http/takeover.server";
import { SESSION_TEXTS } from "#api/sessions";
import { AppError } from "~/utils/app-error";
import { isJobEngineOffline } from "~/queue/queues.server";
import { pageAction, withSearchParam, type FormFields } from "~/http/page-action.server";

/**
 * All Characters (spec 2 §2 "All Characters screen", §4 "Stalker", §8 "Characters").
 *
 * loader  one page (`?page=`, CHARACTERS_PAGE_SIZE rows) of the users, grouped "{group}
 *         Characters", searched (`?q=`) and sorted (`?gift=<type>` repeated) in the database,
 *         with their stored details (picture, status, gifts; written by the refresh jobs);
 *         stalker sessions, categories, the fleet's gift totals, the refresh progress with the last refresh's
 *         outcome (`notice`) and the Summary panel. No secret leaves the server (users go
 *         through toPublicUser). A Refresh posted without JavaScript lands on
 *         `?refreshing=1`: the page reloads itself until the job ends, then redirects with the
 *         outcome's toast.
 * action  intents create-user, add-category, delete-category, delete-user, undo-delete, start-stalker,
 *         stop-stalker, refresh. Fetchers get `{ok, intent, message}` with a flash toast;
 *         plain posts (no JavaScript, `redirectTo`, optional `errorRedirectTo` for failures) are
 *         redirected with the toast.
 */

export const meta: MetaFunction = () => [{ title: "All Characters · Galaxy Toolbox" }];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export type CharacterRow = {
  account_id: string;
  nick: string;
  type: string | null;
  device: string;
  initials: string;
  picUrl: string | null;
  isOnline: boolean | null;
  room: string | null;
  /**
   * null: never loaded (skeleton, or "Failed to load gifts" when `giftsFailed`). The last known
   * gifts otherwise, as type and amount: names and pictures come once per page (`gifts`).
   */
  gifts: GiftAmount[] | null;
  /** The last gift stats call failed. */
  giftsFailed: boolean;
  /** Parts shown from an older refresh because the last one failed for them: their age and why. */
  stale: Staleness | null;
  isStalker: boolean;
} & StalkerRowFields;

function stalkerStateOf(s: StalkerStatus | undefined): StalkerCardState {
  if (!s || s.state === "error") return "inactive";
  return s.state;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireOperator(request);
  const url = new URL(request.url);
  const giftFilter = giftSelection(url.searchParams);
  // Issue 19 item 14: `?q=` narrows the rows in the database (every row, with or without JavaScript).
  const query = searchQuery(url.searchParams);
  // Issue 20: one bounded page of the ordered list (`?page=`); the database searches, sorts and counts.
  const [pageOf, userCount, totals, categories, statuses, progress, summary, takeover, undo] = await Promise.all([
    loadCharacterPage({ query, giftFilter, page: pageParam(url.searchParams) }),
    countUsers(),
    giftTotalsOfAll(),
    listCategories(),
    listStalkerStatuses(),
    currentCharactersRefreshProgress(),
    loadSummary(request),
    takeoverNotice(request, ["start-stalker"]),
    latestAccountUndo(operator.id),
  ]);
  const notice = charactersRefreshNotice(progress);
  if (url.searchParams.has(REFRESHING_PARAM) && !progress?.running) {
    url.searchParams.delete(REFRESHING_PARAM);
    return redirectWithNotice(`${url.pathname}${url.search}`, notice);
  }
  const statusOf = new Map(statuses.map((s) => [s.accountId, s]));
  const runningIds = statuses.flatMap((s) => (stalkerStateOf(s) !== "inactive" && s.accountId ? [s.accountId] : []));
  let selected = await getSelectedCharacter(operator.id);
  // Spec 2 §4: on load, if a connection is active, its user is selected.
  const running = selected ? null : await firstUserAmong(runningIds);
  if (!selected && running) {
    try {
      await selectCharacter(operator.id, running);
      selected = running;
    } catch (err) {
      if (!isJobEngineOffline(err)) throw err;
      // Job engine offline: the page still shows; the selection waits for the next load.
    }
  }

  const rows: CharacterRow[] = pageOf.users.map((u) => {
    const d = u.details;
    return {
      account_id: u.account_id,
      nick: u.nick,
      type: u.type,
      device: u.device,
      initials: initialsOf(u.nick),
      picUrl: d?.picUrl ?? null,
      isOnline: d?.isOnline ?? null,
      room: d?.room ?? null,
      gifts: d?.gifts ? d.gifts.map(({ type, amount }) => ({ type, amount })) : null,
      giftsFailed: d?.giftsFailed ?? false,
      stale: stalenessOf(d, ["pic", "status", "gifts"]),
      isStalker: u.group === "stalker",
      ...stalkerRowFields(statusOf.get(u.account_id)),
    };
  });
  // The page's rows in their groups ("{group} Characters"; a group cut by a page break is titled on both pages).
  const groups = groupRows(rows.map((row, i) => ({ type: pageOf.users[i]!.group, row }))).map((g) => ({ ...g, rows: g.rows.map((r) => r.row) }));

  // The card follows the selected stalker user, else a running one, else the first stalker user.
  const candidates = await stalkerUsersAmong([...(selected ? [selected] : []), ...runningIds]);
  const cardUser = candidates.find((u) => u.accountId === selected) ?? candidates.find((u) => runningIds.includes(u.accountId)) ?? (await firstStalkerUser());
  const first = (pageOf.page - 1) * pageOf.pageSize;

  return {
    groups,
    categories: categories satisfies Category[],
    /** Every user's gifts summed per type (the fleet, not the search); also the page's names and pictures of gift types. */
    totals,
    giftFilter,
    query,
    userCount,
    /** Where the shown rows sit in the (searched) list: `?page=` links reach the rest. */
    paging: { page: pageOf.page, pageCount: pageOf.pageCount, matched: pageOf.matched, from: first + 1, to: first + rows.length },
    selected,
    stalker: cardUser
      ? {
          accountId: cardUser.accountId,
          nick: cardUser.nick,
          state: stalkerStateOf(statusOf.get(cardUser.accountId)),
          session: statusOf.get(cardUser.accountId) ?? null,
        }
      : null,
    takeover,
    undo,
    progress,
    notice,
    refreshingNoJs: url.searchParams.has(REFRESHING_PARAM),
    summary,
  };
}

/** `?dialog=` and `?confirm=` are read in the browser (and by the server render): no refetch for them. */
export const shouldRevalidate: ShouldRevalidateFunction = reloadUnlessSubmitFailed(keepDataForUrlOnlyParams(URL_ONLY_PARAMS));

// ---------------------------------------------------------------------------------------
// Action

export const INTENTS = [
  "create-user",
  "add-category",
  "delete-category",
  "delete-user",
  "undo-delete",
  "start-stalker",
  "stop-stalker",
  "refresh",
  GIFT_RATES_INTENT,
] as const;
export type Intent = (typeof INTENTS)[number];
export type ActionResult = { ok: boolean; intent: Intent | null; message: string };

const FALLBACK: Record<Intent, string> = {
  "create-user": ACCOUNT_ERRORS.createUser,
  "add-category": ACCOUNT_ERRORS.createCategory,
  "delete-category": ACCOUNT_ERRORS.deleteCategory,
  "delete-user": ACCOUNT_ERRORS.deleteUser,
  "undo-delete": UNDO_TEXTS.gone,
  "start-stalker": ACCOUNT_ERRORS.startStalker,
  "stop-stalker": ACCOUNT_ERRORS.stopStalker,
  refresh: ACCOUNT_ERRORS.fetchUserDetails,
  [GIFT_RATES_INTENT]: GIFT_RATE_ERRORS.saveFailed,
};

/** How long a no-JS Create User waits for the new user's gifts before the page renders without them. */
const NO_JS_DETAILS_WAIT_MS = 1_500;

/** "Refreshing characters…" is ours: spec 2 names no toast for Refresh. */
export const REFRESH_STARTED = "Refreshing pictures, statuses and gift stats";

/** With JavaScript, a post that cannot reach the app keeps the screen and what was typed (the form kit, issue 19). */
export const clientAction = keepInputOnFailure();

export const action = pageAction<Intent>({
  section: "All Characters",
  home: "/characters",
  failure: FALLBACK,
  // A plain form may come back somewhere else on failure (the Add User form stays open).
  errorRedirectTo: (form, redirectTo) => (form.string("errorRedirectTo") ? safeRedirect(form.string("errorRedirectTo"), redirectTo) : redirectTo),
  // Add User and Add Category keep what was typed on a refusal, the reason next to the field
  // (issue 30 A6); the recovery code is never sent back. Spec 2 §8 names a toast for a failed
  // response here, so the fetcher's toast stays.
  keepOnRefusal: { "create-user": { secret: ["rc"], toast: true }, "add-category": { toast: true }, [GIFT_RATES_INTENT]: {} },
  onError: (err, { intent, form, redirectTo }) => {
    // Another purpose holds the account: back to the page with the take-over question.
    if (!(err instanceof AccountHeldError) || intent !== "start-stalker") return undefined;
    const accountId = form.string("accountId");
    const to = takeoverLocation(err, redirectTo ?? "/characters", { intent, accountId, fields: { accountId, accountName: err.account ?? accountId } });
    // The panel there says who holds it; a toast saying it again was one "in use by …" too many (issue 30 A7).
    return to ? redirect(to) : undefined;
  },
  intents: {
    "create-user": async ({ form, operatorId, redirectTo }) => {
      // Spec 2 §5: no client check; the server decides (the /api/create-creds schema).
      const parsed = createCredsSchema.safeParse({ rc: form.string("rc"), type: form.string("type") });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(400, issue?.message ?? ACCOUNT_ERRORS.createUser, { field: issue?.path[0] === undefined ? undefined : String(issue.path[0]) });
      }
      const user = await createUserFromRecoveryCode({ ...parsed.data, takeover: form.checked("takeover") }).catch((err: unknown) => {
        // The platform refused the code ("Login failed: Invalid credentials"): the reason goes next to it.
        throw err instanceof AppError && err.status === 400 && !err.field ? new AppError(400, err.message, { field: "rc" }) : err;
      });
      // Issue 19 item 8: its picture, status and gifts load now, not at the next Refresh. With
      // JavaScript the page follows them live (refresh:characters), so the answer does not wait
      // for the worker: waiting for it (up to SESSION_START_WAIT_MS, 4 s) made Create User take
      // 6.5–7 s behind a busy worker (issue 30 A7; bench/create-user.ts). A page without
      // JavaScript cannot follow them: its answer waits a little, then the row says "loading".
      await loadNewUserDetails(user.account_id, operatorId, { waitMs: redirectTo ? Math.min(startWaitMs(), NO_JS_DETAILS_WAIT_MS) : 0 }).catch(
        (err: unknown) => {
          void logEvent({ type: "error", source: "system", message: `All Characters: loading the new user's details failed`, details: err });
        },
      );
      return ACCOUNT_MESSAGES.userCreated;
    },
    "add-category": async ({ form }) => {
      await createCategory(form.string("value")).catch((err: unknown) => {
        // Every refusal of a new category is about its name.
        throw err instanceof AppError && !err.field && err.status < 500 ? new AppError(err.status, err.message, { field: "value" }) : err;
      });
      return ACCOUNT_MESSAGES.categoryCreated;
    },
    "delete-category": async ({ form, operatorId }) => {
      // Kept for Undo (issue 19 item 9; the loader offers it, with and without JavaScript).
      await deleteCategoryUndoable(operatorId, form.string("id"));
      return ACCOUNT_MESSAGES.categoryDeleted;
    },
    "delete-user": async ({ form, operatorId }) => {
      await removeUserUndoable(operatorId, form.string("accountId").trim() || "-");
      return ACCOUNT_MESSAGES.userDeleted;
    },
    "undo-delete": async ({ form, operatorId }) => {
      const back = await undoAccountDeletion(operatorId, form.string("undoId"));
      if (back.accountId) await loadNewUserDetails(back.accountId, operatorId).catch(() => false);
      return back.message;
    },
    "start-stalker": async ({ form, operatorId }) => {
      const accountId = accountIdOf(form);
      // The answer waits a moment for the login's outcome: success only once it is up, the
      // platform's words when it refused, "connecting" while it still tries (the card follows live).
      const started = await startStalker(accountId, { takeover: form.checked("takeover"), waitMs: startWaitMs() });
      if (started.state === "error") return { ok: false, message: started.error ?? ACCOUNT_ERRORS.startStalker, status: 502 };
      // Spec 2 §4: on a successful start that user becomes the selected user.
      await selectCharacter(operatorId, accountId).catch((err: unknown) => {
        if (!isJobEngineOffline(err)) throw err;
      });
      const took = started.tookOver ? ` · ${SESSION_TEXTS.tookOver(accountId, started.tookOver.purpose)}` : "";
      return `${started.state === "active" ? ACCOUNT_MESSAGES.stalkerStarted : ACCOUNT_MESSAGES.stalkerConnecting}${took}`;
    },
    "stop-stalker": async ({ form, operatorId }) => {
      const accountId = accountIdOf(form);
      await stopStalker(accountId);
      // Spec 2 §4: on stop of the selected user the selection is cleared.
      if ((await getSelectedCharacter(operatorId)) === accountId) {
        await selectCharacter(operatorId, null).catch((err: unknown) => {
          if (!isJobEngineOffline(err)) throw err;
        });
      }
      return ACCOUNT_MESSAGES.stalkerStopped;
    },
    // The Summary panel's Gift Rates without JavaScript (docs/decisions/0047): a refusal renders
    // this page with the dialog open, what was typed and the reason under its field.
    [GIFT_RATES_INTENT]: saveGiftRatesForm,
    refresh: async ({ operatorId, redirectTo }) => {
      await requestCharactersRefresh({ operatorId, force: true });
      // Posted without JavaScript: the page follows the job (REFRESHING_PARAM) and tells its outcome at the end.
      return { ok: true, message: REFRESH_STARTED, redirectTo: redirectTo ? withSearchParam(redirectTo, REFRESHING_PARAM, "1") : undefined };
    },
  },
});

function accountIdOf(form: FormFields): string {
  const id = form.string("accountId").trim();
  if (!/^\d{1,12}$/.test(id)) throw new AppError(400, ACCOUNT_ERRORS.accountIdRequired);
  return id;
}

// ---------------------------------------------------------------------------------------
// Screen

export type CharactersData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function CharactersRoute() {
  const loaded = useLoaderData<typeof loader>();
  return <CharactersScreen data={loaded} />;
}
