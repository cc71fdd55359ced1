import { Box, Button, Flex } from "@radix-ui/themes";
import { data, redirect, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { useEffect, useRef } from "react";
import { AD_CATEGORIES, TRADER_MESSAGES, TRADING_ERRORS, TRADING_LIMITS, TRADING_MESSAGES, type AdCategory, type TraderStatus } from "#api/trading";
import styles from "~/routes/_app+/_trading-planets+/components/trading-planets.css?url";
import { AdsManager } from "~/routes/_app+/_trading-planets+/components/ads-manager";
import { draftFromForm, readSequenceForm, type DraftErrors, type SequenceDraft } from "~/routes/_app+/_trading-planets+/components/sequence-draft";
import { CustomPlanetsPanel, SequenceForm } from "~/routes/_app+/_trading-planets+/components/lazy-parts";
import { SequenceList } from "~/routes/_app+/_trading-planets+/components/sequence-list";
import { PAGE_PARAMS, SEARCH_PARAMS, type ListPage } from "~/routes/_app+/_trading-planets+/components/pager";
import { searchQuery } from "~/utils/list-search";
import { TraderPanel } from "~/routes/_app+/_trading-planets+/components/trader-panel";
import { TakeOverPanel } from "~/components/session/take-over-panel";
import { useLive } from "~/components/live/live";
import { GlobeIcon, PlusIcon } from "~/components/ui/icons";
import { LoadFailurePanel } from "~/components/ui/load-failure";
import { SectionHeader } from "~/components/ui/section-header";
import { useCanWrite } from "~/components/ui/write-only";
import { toast } from "~/components/ui/toast";
import { createAd, deleteAd, deleteAds, listAdsPage, updateAd } from "~/models/ad.server";
import { createCustomPlanet, deleteCustomPlanet, listCustomPlanets, updateCustomPlanet } from "~/models/custom-planet.server";
import { logEvent } from "~/models/log.server";
import {
  createSequence,
  deleteSequence,
  listSequencesPage,
  moveSequence,
  type SequenceMove,
  reorderSequences,
  setSequencesActive,
  updateSequence,
} from "~/models/planet-sequence.server";
import { listTraderStatusesPage, startTrader, stopTrader } from "~/models/trader.server";
import { AccountHeldError } from "~/models/session.server";
import { takeoverLocation, takeoverNotice } from "~/http/takeover.server";
import { SESSION_TEXTS } from "#api/sessions";
import { requireOperator } from "~/http/auth.server";
import { errorText } from "~/utils/errors";
import { pageAction, type FormFields, type PageOutcome } from "~/http/page-action.server";
import { createAdSchema, createCustomPlanetSchema } from "#api/trading-schemas";
import { AppError } from "~/utils/app-error";

/**
 * Trading Planets (spec 2 §2 "Trading Planets screen", §3, §4, §5, §8).
 *
 * loader  sequences (list order), custom planets, ads, the trading characters with their run's
 *         state (issue 11 "The trading run"). URL state (works without JavaScript):
 *         `sequence=new|<id>` opens the sequence form, `planets=blacklisted|english` the Custom
 *         Planets dialog, `confirm=sequence:<id>|planet:<id>|ad:<id>` a delete confirmation,
 *         `ad=<id>` edits an ad, `select=1` multi-select of ads, `ids` the ads to delete.
 * action  one intent per form (`pageAction`); every answer is a redirect with the spec 2 §8
 *         toast, except the drag's reorder (JSON) and a sequence form with errors or a planet
 *         added/removed without JavaScript, which is shown again as posted.
 */

export const meta: MetaFunction = () => [{ title: "Trading Planets · Galaxy Toolbox" }];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * Each part loads on its own (spec 2 §8): sequences or the trading run failing is "Failed to
 * load data", custom planets "Failed to load custom planets", ads "Failed to load ads"; the
 * parts that loaded still show. `loadError` is the first of `loadErrors`.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const url = new URL(request.url);
  const pageOf = (name: string) => Number(url.searchParams.get(name) ?? 1);
  const size = { sequences: TRADING_LIMITS.sequencesPerPage, ads: TRADING_LIMITS.adsPerPage, traders: TRADING_LIMITS.tradersPerPage };
  const search = { sequences: searchQuery(url.searchParams, SEARCH_PARAMS.sequences), ads: searchQuery(url.searchParams, SEARCH_PARAMS.ads) };
  const [sequences, planets, adsPage, msgPage, traders] = await Promise.allSettled([
    listSequencesPage(pageOf(PAGE_PARAMS.sequences), size.sequences, search.sequences),
    listCustomPlanets(),
    listAdsPage("ads", pageOf(PAGE_PARAMS.ads), size.ads, search.ads),
    listAdsPage("msg", pageOf(PAGE_PARAMS.msg), size.ads, search.ads),
    listTraderStatusesPage(pageOf(PAGE_PARAMS.traders), size.traders),
  ]);
  const takeover = await takeoverNotice(request, ["trader-start"]).catch(() => null);
  const loadErrors: string[] = [];
  const failed = async (part: PromiseSettledResult<unknown>, text: string) => {
    if (part.status === "fulfilled") return;
    if (!loadErrors.includes(text)) loadErrors.push(text);
    await logEvent({ type: "error", source: "system", message: `${text}: ${errorText(part.reason)}` });
  };
  await failed(sequences, TRADING_MESSAGES.loadDataFailed);
  await failed(traders, TRADING_MESSAGES.loadDataFailed);
  await failed(planets, TRADING_MESSAGES.loadCustomPlanetsFailed);
  await failed(adsPage.status === "rejected" ? adsPage : msgPage, TRADING_MESSAGES.loadAdsFailed);
  const value = <T,>(part: PromiseSettledResult<T[]>): T[] => (part.status === "fulfilled" ? part.value : []);
  const pager = (part: PromiseSettledResult<{ total: number; page: number }>, per: number): ListPage => {
    const total = part.status === "fulfilled" ? part.value.total : 0;
    return { page: part.status === "fulfilled" ? part.value.page : 1, pages: Math.max(1, Math.ceil(total / per)), total, per };
  };
  const adsOk = adsPage.status === "fulfilled" && msgPage.status === "fulfilled";
  return data(
    {
      sequences: sequences.status === "fulfilled" ? sequences.value.sequences : [],
      /** With a sequence search: the shown sequences' places in the whole list, and how many there are in all. */
      sequencePlaces: sequences.status === "fulfilled" ? (sequences.value.places ?? null) : null,
      sequencesInAll: sequences.status === "fulfilled" ? sequences.value.all : 0,
      search,
      planets: value(planets),
      // Both sections' shown pages (each ad once); none when either failed (spec 2 §8 "Failed to load ads").
      ads: adsOk ? [...adsPage.value.ads, ...msgPage.value.ads] : [],
      pages: {
        sequences: pager(sequences, size.sequences),
        ads: pager(adsOk ? adsPage : msgPage, size.ads),
        msg: pager(adsOk ? msgPage : adsPage, size.ads),
        traders: pager(traders, size.traders),
      },
      traders: traders.status === "fulfilled" ? traders.value.traders : ([] as TraderStatus[]),
      /** Started runs over every page of the trading run (the live fallback polls while one runs). */
      tradersRunning: traders.status === "fulfilled" ? traders.value.running : 0,
      takeover,
      loadError: (loadErrors[0] ?? null) as string | null,
      loadErrors,
    },
    { status: loadErrors.length ? 503 : 200 },
  );
}

// ---------------------------------------------------------------------------------------
// Action

type Intent =
  | "sequence-save"
  | "sequence-active"
  | "sequence-delete"
  | "sequence-move"
  | "sequence-reorder"
  | "planet-create"
  | "planet-rename"
  | "planet-delete"
  | "ad-create"
  | "ad-update"
  | "ad-active"
  | "ad-delete"
  | "ads-delete-selected"
  | "trader-start"
  | "trader-stop";

/** Spec 2 §8's failure text of each intent (the action's, and the title of the form kit's toast). */
const FAILURE: Record<Intent, string> = {
  "sequence-save": TRADING_MESSAGES.createSequenceFailed,
  "sequence-active": TRADING_MESSAGES.updateSequenceStatusFailed,
  "sequence-delete": TRADING_MESSAGES.deleteSequenceFailed,
  "sequence-move": TRADING_MESSAGES.updateSequenceFailed,
  "sequence-reorder": TRADING_MESSAGES.updateSequenceFailed,
  "planet-create": TRADING_ERRORS.createCustomPlanet,
  "planet-rename": TRADING_ERRORS.updateCustomPlanet,
  "planet-delete": TRADING_MESSAGES.deleteCustomPlanetFailed,
  "ad-create": TRADING_ERRORS.createAd,
  "ad-update": TRADING_MESSAGES.updateAdStatusFailed,
  "ad-active": TRADING_MESSAGES.updateAdStatusFailed,
  "ad-delete": TRADING_MESSAGES.deleteAdFailed,
  "ads-delete-selected": TRADING_MESSAGES.deleteSelectedAdsFailed,
  "trader-start": TRADER_MESSAGES.startFailed,
  "trader-stop": TRADER_MESSAGES.stopFailed,
};

/** Spec 2 §8 gives these failures one toast text whatever the reason; the reason goes to System Logs. */
const FIXED_FAILURE: ReadonlySet<Intent> = new Set([
  "sequence-save",
  "sequence-active",
  "sequence-delete",
  "planet-delete",
  "ad-active",
  "ad-delete",
  "ads-delete-selected",
]);

/** Saving a sequence that has an id is its update. */
function failureText(intent: Intent, hasId: boolean): string {
  return intent === "sequence-save" && hasId ? TRADING_MESSAGES.updateSequenceFailed : FAILURE[intent];
}

/** The form kit's toast title for a post that never reached the app (undefined for an unknown intent). */
export function submitFailureTitle(intent: unknown, hasId: boolean): string | undefined {
  return typeof intent === "string" && Object.hasOwn(FAILURE, intent) ? failureText(intent as Intent, hasId) : undefined;
}

export type TradingActionData = { draft: SequenceDraft; errors: DraftErrors };

/**
 * With JavaScript, a post that cannot reach the app keeps the screen and what was typed
 * (the form kit, issue 19): the toast is the intent's spec 2 §8 failure text, the kit's
 * reason below it. Without JavaScript the browser's own error page is shown and Back
 * returns to the form as it was.
 */
export const clientAction = keepInputOnFailure((fd) => submitFailureTitle(fd?.get("intent"), !!fd?.get("id")));
export const shouldRevalidate = reloadUnlessSubmitFailed();

/**
 * One intent per form (`pageAction`, docs/decisions/0023). Every post is answered with a
 * redirect and the spec 2 §8 toast, with JavaScript too: back to `redirectTo`, else to the URL
 * posted to (`defaultRedirectTo`: the forms post to the page's own URL, its list pages and open
 * panel in it; the kit's NoJsRedirect is there only until hydration, issue 19 B.3). A success
 * goes to the list (`listOf`), a failure back to where it was posted from. Apart: the drag's
 * reorder is a fetcher's (JSON; a stale page is a 409), and the sequence form with errors, or
 * with a planet added or removed without JavaScript, is rendered again as posted.
 */
export const action = pageAction<Intent>({
  section: "Trading Planets",
  home: "/trading-planets",
  failure: (intent, form) => failureText(intent, form.string("id") !== ""),
  defaultRedirectTo: (intent, postedTo) => (intent === "sequence-reorder" ? null : postedTo),
  // Issue 30 A6/A9: a refused inline rename says why under its chip, naming the refused name.
  // A refused ad (blank, too long) comes back as typed, with its category, the reason under the text.
  keepOnRefusal: { "planet-create": {}, "planet-rename": {}, "ad-create": {}, "ad-update": {} },
  onError: async (err, { intent, form, redirectTo }) => {
    if (!(err instanceof AppError)) return undefined;
    if (intent === "sequence-save" && (err.status === 400 || err.status === 409)) {
      // A rule the model refused (levels, a taken name) is shown in the form, which keeps what was posted.
      const field = err.message === TRADING_ERRORS.sequenceExists ? "name" : "form";
      return formAgain(draftFromForm(form.formData), { [field]: err.message }, err.status);
    }
    if (intent === "trader-start" || intent === "trader-stop") {
      const accountId = form.string("account_id").trim();
      // Another purpose holds the account: back to the page with the take-over question.
      const fields = { account_id: accountId, accountName: (err instanceof AccountHeldError ? err.account : null) ?? accountId };
      const to = takeoverLocation(err, listOf(redirectTo) ?? "/trading-planets", { intent, accountId, fields });
      // The panel there says who holds it; a toast saying it again was one "in use by …" too many (issue 30 A7).
      if (to) return redirect(to);
      return { ok: false, message: err.message || FAILURE[intent], status: err.status, redirectTo: listOf(redirectTo) };
    }
    if (!FIXED_FAILURE.has(intent)) return undefined;
    const text = failureText(intent, form.string("id") !== "");
    await logEvent({ type: "info", source: "system", message: `${text}: ${errorText(err)}` }).catch(() => {});
    return { ok: false, message: text, status: err.status };
  },
  intents: {
    "sequence-save": async ({ form, redirectTo }) => {
      const parsed = readSequenceForm(form.formData);
      if (!parsed.ok) return formAgain(parsed.draft, parsed.errors, parsed.op ? 200 : 400);
      const id = form.string("id");
      if (id) await updateSequence(id, parsed.value);
      else await createSequence(parsed.value);
      return toList(redirectTo, id ? TRADING_MESSAGES.sequenceUpdated : TRADING_MESSAGES.sequenceCreated);
    },
    "sequence-active": async ({ form, redirectTo }) => {
      await setSequencesActive([form.string("id")], form.string("isActive") === "true");
      return toList(redirectTo, TRADING_MESSAGES.sequenceUpdated);
    },
    "sequence-delete": async ({ form, redirectTo }) => {
      if (!(await deleteSequence(form.string("id")))) return notFound(redirectTo, TRADING_MESSAGES.deleteSequenceFailed);
      return toList(redirectTo, TRADING_MESSAGES.sequenceDeleted);
    },
    "sequence-move": async ({ form, redirectTo }) => {
      const up = form.string("direction") === "up";
      const move = await moveSequence(form.string("id"), up ? -1 : 1);
      if (!move) return notFound(redirectTo, TRADING_ERRORS.sequenceNotFound);
      // Issue 30 B5: say what it did (without JavaScript the list alone does not show which one moved).
      return toList(redirectTo, sequenceMoveText(move, up));
    },
    "sequence-reorder": async ({ form }) => {
      await reorderSequences(form.all("ids"), Number(form.string("offset")) || 0);
      return { ok: true, message: "" };
    },
    "planet-create": async ({ form }) => {
      const parsed = createCustomPlanetSchema.safeParse({ name: form.string("name"), type: form.string("type") });
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(400, issue?.message ?? TRADING_ERRORS.createCustomPlanet, { field: issue?.path[0] === "type" ? "type" : "name" });
      }
      await createCustomPlanet(parsed.data);
      // Back to the Custom Planets tab it was added in.
      return TRADING_MESSAGES.customPlanetCreated;
    },
    "planet-rename": async ({ form }) => {
      const parsed = createCustomPlanetSchema.shape.name.safeParse(form.string("name"));
      if (!parsed.success) throw new AppError(400, parsed.error.issues[0]?.message ?? TRADING_ERRORS.planetName, { field: "name" });
      await updateCustomPlanet(form.string("id"), { name: parsed.data });
      return TRADING_MESSAGES.customPlanetUpdated;
    },
    "planet-delete": async ({ form, redirectTo }) => {
      if (!(await deleteCustomPlanet(form.string("id")))) return notFound(redirectTo, TRADING_MESSAGES.deleteCustomPlanetFailed);
      return toList(redirectTo, TRADING_MESSAGES.customPlanetDeleted);
    },
    "ad-create": async ({ form, redirectTo }) => {
      await createAd({ ...adFields(form), isActive: true });
      return toList(redirectTo, TRADING_MESSAGES.adCreated);
    },
    "ad-update": async ({ form, redirectTo }) => {
      await updateAd(form.string("id"), adFields(form));
      return toList(redirectTo, TRADING_MESSAGES.adUpdated);
    },
    "ad-active": async ({ form, redirectTo }) => {
      await updateAd(form.string("id"), { isActive: form.string("isActive") === "true" });
      return toList(redirectTo, TRADING_MESSAGES.adUpdated);
    },
    "ad-delete": async ({ form, redirectTo }) => {
      if (!(await deleteAd(form.string("id")))) return notFound(redirectTo, TRADING_MESSAGES.deleteAdFailed);
      return toList(redirectTo, TRADING_MESSAGES.adDeleted);
    },
    "ads-delete-selected": async ({ form, redirectTo }) => {
      await deleteAds(form.all("ids"));
      return toList(redirectTo, TRADING_MESSAGES.selectedAdsDeleted);
    },
    "trader-start": async ({ form, redirectTo }) => {
      const accountId = traderAccountId(form, "trader-start");
      const { tookOver } = await startTrader(accountId, { takeover: form.checked("takeover") });
      return toList(redirectTo, `${TRADER_MESSAGES.started}${tookOver ? ` · ${SESSION_TEXTS.tookOver(accountId, tookOver.purpose)}` : ""}`);
    },
    "trader-stop": async ({ form, redirectTo }) => {
      await stopTrader(traderAccountId(form, "trader-stop"));
      return toList(redirectTo, TRADER_MESSAGES.stopped);
    },
  },
});

/** The list at `back`: without its open sequence form, confirmation, ad editor or ad selection (its pages and Custom Planets tab kept). */
function listOf(back: string | null): string | undefined {
  if (!back) return undefined;
  const url = new URL(back, "http://x");
  for (const p of ["sequence", "confirm", "ad", "select", "ids"]) url.searchParams.delete(p);
  const s = url.searchParams.toString();
  return `${url.pathname}${s ? `?${s}` : ""}`;
}

/** A success: back to the list with its toast (none for an empty message). */
/** "Moved “A” up: now 1 of 3"; at an end, "“A” is already first" (nothing changed). */
function sequenceMoveText(move: SequenceMove, up: boolean): string {
  if (!move.moved) return `“${move.name}” is already ${up ? "first" : "last"}`;
  return `Moved “${move.name}” ${up ? "up" : "down"}: now ${move.position} of ${move.total}`;
}

function toList(redirectTo: string | null, message: string): PageOutcome {
  return { ok: true, message, redirectTo: listOf(redirectTo) };
}

/** The row is gone (deleted meanwhile): back to the list, its confirmation closed. */
function notFound(redirectTo: string | null, message: string): PageOutcome {
  return { ok: false, message, status: 404, redirectTo: listOf(redirectTo) };
}

/** The sequence form rendered again as posted: spec 2 §5 errors (400, or the model's status), or a planet added, removed or moved without JavaScript (200). */
function formAgain(draft: SequenceDraft, errors: DraftErrors, status: number): PageOutcome {
  const first = Object.values(errors).find(Boolean);
  return { ok: !first, message: first ?? "", status, render: true, toast: false, data: { draft, errors } satisfies TradingActionData };
}

function adFields(form: FormFields): { adsMessage: string; category: AdCategory } {
  const raw = form.string("category");
  const category = (AD_CATEGORIES as readonly string[]).includes(raw) ? (raw as AdCategory) : "ads";
  const parsed = createAdSchema.shape.adsMessage.safeParse(form.string("adsMessage").replace(/\r\n/g, "\n"));
  if (!parsed.success) throw new AppError(400, parsed.error.issues[0]?.message ?? TRADING_ERRORS.adMessage, { field: "adsMessage" });
  return { adsMessage: parsed.data, category };
}

/** A trading character's account id; otherwise the intent's failure (back to the list, as any refusal of the run). */
function traderAccountId(form: FormFields, intent: "trader-start" | "trader-stop"): string {
  const accountId = form.string("account_id").trim();
  if (!/^\d{1,12}$/.test(accountId)) throw new AppError(400, FAILURE[intent]);
  return accountId;
}

export default function TradingPlanetsRoute() {
  const loaded = useLoaderData<typeof loader>();
  // Issue 30 A1: sequences, ads and custom planets changed elsewhere show here (an open sequence form keeps its draft).
  useLive(["trading"]);
  const { sequences, planets, ads, traders, takeover, loadError, loadErrors } = loaded;
  // Absent in stubs that give only the rows (component tests): then everything is one page.
  const pages = (loaded as { pages?: { sequences: ListPage; ads: ListPage; msg: ListPage; traders?: ListPage } }).pages;
  useLoadErrorToasts(loadErrors ?? (loadError ? [loadError] : []));
  const actionData = useActionData<typeof action>() as TradingActionData | { ok: boolean } | undefined;
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const withParam = (name: string, value: string | null) => {
    const next = new URLSearchParams(location.search);
    for (const p of ["sequence", "confirm", "ad", "select", "ids", "planets"]) next.delete(p);
    if (value !== null) next.set(name, value);
    const s = next.toString();
    return `${location.pathname}${s ? `?${s}` : ""}`;
  };
  // A viewer (issue 21) reads sequences, planets, traders and ads, without the controls that change them.
  const canWrite = useCanWrite();
  const editing = canWrite ? params.get("sequence") : null;
  const draft = actionData && "draft" in actionData ? actionData : null;
  const editingSequence = editing && editing !== "new" ? sequences.find((s) => s._id === editing) : undefined;
  const planetsTab = params.get("planets");

  return (
    <Box className="gt-trading-page">
      <SectionHeader
        title="Trading Planets"
        actions={
          <>
            {canWrite ? (
              <Button asChild>
                <Link to={withParam("sequence", "new")} preventScrollReset>
                  <PlusIcon /> New Sequence
                </Link>
              </Button>
            ) : null}
            <Button asChild variant="soft">
              <Link to={withParam("planets", "blacklisted")} preventScrollReset>
                <GlobeIcon /> Custom Planets
              </Link>
            </Button>
          </>
        }
      />
      {loadError ? <LoadFailurePanel title="Trading planets could not be loaded" message={(loadErrors ?? [loadError]).join(". ")} /> : null}
      {planetsTab ? (
        <CustomPlanetsPanel
          planets={planets}
          tab={planetsTab === "english" ? "english" : "blacklisted"}
          confirm={params.get("confirm")}
          closeTo={withParam("planets", null)}
        />
      ) : null}
      {editing && (editing === "new" || editingSequence || draft) ? (
        <SequenceForm
          key={editing}
          sequence={editingSequence}
          draft={draft?.draft}
          errors={draft?.errors ?? {}}
          customPlanets={planets}
          cancelTo={withParam("sequence", null)}
        />
      ) : null}
      {takeover ? <TakeOverPanel notice={takeover} /> : null}
      <Flex direction="column" gap="5">
        <div className="gt-run-grid">
          <SequenceList
            sequences={sequences}
            confirm={params.get("confirm")}
            linkWith={withParam}
            page={pages?.sequences}
            search={loaded.search ? { query: loaded.search.sequences, places: loaded.sequencePlaces, all: loaded.sequencesInAll } : undefined}
          />
          <TraderPanel traders={traders} page={pages?.traders} running={loaded.tradersRunning} />
        </div>
        <AdsManager ads={ads} params={params} linkWith={withParam} pages={pages} query={loaded.search?.ads} />
      </Flex>
    </Box>
  );
}

/**
 * Spec 2 §8 load toasts (with JavaScript): each failed part once per load; ads that loaded
 * before and now fail are "Failed to refresh ads".
 */
function useLoadErrorToasts(errors: string[]) {
  const adsLoaded = useRef(false);
  const key = errors.join("|");
  useEffect(() => {
    for (const text of errors) {
      if (text === TRADING_MESSAGES.loadAdsFailed && adsLoaded.current) toast.error(TRADING_MESSAGES.refreshAdsFailed);
      else toast.error(text);
    }
    if (!errors.includes(TRADING_MESSAGES.loadAdsFailed)) adsLoaded.current = true;
    // One run per load result.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}
