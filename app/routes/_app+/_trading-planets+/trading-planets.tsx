import { Box, Button, Flex } from "@radix-ui/themes";
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { useEffect, useRef } from "react";
import { AD_CATEGORIES, TRADER_MESSAGES, TRADING_ERRORS, TRADING_LIMITS, TRADING_MESSAGES, type AdCategory, type TraderStatus } from "#api/trading";
import styles from "~/routes/_app+/_trading-planets+/components/trading-planets.css?url";
import { AdsManager } from "~/routes/_app+/_trading-planets+/components/ads-manager";
import { readSequenceForm, type SequenceDraft } from "~/routes/_app+/_trading-planets+/components/sequence-draft";
import { CustomPlanetsPanel, SequenceForm } from "~/routes/_app+/_trading-planets+/components/lazy-parts";
import { SequenceList } from "~/routes/_app+/_trading-planets+/components/sequence-list";
import { PAGE_PARAMS, type ListPage } from "~/routes/_app+/_trading-planets+/components/pager";
import { TraderPanel } from "~/routes/_app+/_trading-planets+/components/trader-panel";
import { TakeOverPanel } from "~/components/session/take-over-panel";
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
  reorderSequences,
  setSequencesActive,
  updateSequence,
} from "~/models/planet-sequence.server";
import { listTraderStatusesPage, startTrader, stopTrader } from "~/models/trader.server";
import type { AccountHeldError } from "~/models/session.server";
import { takeoverLocation, takeoverNotice } from "~/utils/takeover.server";
import { SESSION_TEXTS } from "#api/sessions";
import { requireOperator, safeRedirect } from "~/utils/auth.server";
import { errorText } from "~/utils/errors";
import { readFormData } from "~/utils/forms.server";
import { redirectWithError, redirectWithSuccess } from "~/utils/toast.server";
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
 * action  one intent per form; every answer is a redirect with the spec 2 §8 toast, except a
 *         sequence form with errors or a planet added/removed without JavaScript, which is
 *         shown again as posted.
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
  const [sequences, planets, adsPage, msgPage, traders] = await Promise.allSettled([
    listSequencesPage(pageOf(PAGE_PARAMS.sequences), size.sequences),
    listCustomPlanets(),
    listAdsPage("ads", pageOf(PAGE_PARAMS.ads), size.ads),
    listAdsPage("msg", pageOf(PAGE_PARAMS.msg), size.ads),
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

/** Spec 2 §8's failure text of each intent (also the title of the form kit's toast). */
export function submitFailureTitle(intent: unknown, hasId: boolean): string | undefined {
  switch (intent) {
    case "sequence-save":
      return hasId ? TRADING_MESSAGES.updateSequenceFailed : TRADING_MESSAGES.createSequenceFailed;
    case "sequence-active":
      return TRADING_MESSAGES.updateSequenceStatusFailed;
    case "sequence-delete":
      return TRADING_MESSAGES.deleteSequenceFailed;
    case "sequence-move":
    case "sequence-reorder":
      return TRADING_MESSAGES.updateSequenceFailed;
    case "planet-create":
      return TRADING_ERRORS.createCustomPlanet;
    case "planet-rename":
      return TRADING_ERRORS.updateCustomPlanet;
    case "planet-delete":
      return TRADING_MESSAGES.deleteCustomPlanetFailed;
    case "ad-create":
      return TRADING_ERRORS.createAd;
    case "ad-update":
    case "ad-active":
      return TRADING_MESSAGES.updateAdStatusFailed;
    case "ad-delete":
      return TRADING_MESSAGES.deleteAdFailed;
    case "ads-delete-selected":
      return TRADING_MESSAGES.deleteSelectedAdsFailed;
    case "trader-start":
      return TRADER_MESSAGES.startFailed;
    case "trader-stop":
      return TRADER_MESSAGES.stopFailed;
    default:
      return undefined;
  }
}

export type TradingActionData = { draft: SequenceDraft; errors: Partial<Record<"name" | "sequence" | "seconds" | "form", string>> };

const str = (fd: FormData, name: string) => {
  const v = fd.get(name);
  return typeof v === "string" ? v : "";
};

function messageOf(err: unknown, fallback: string) {
  return err instanceof AppError ? err.message : fallback;
}

/**
 * With JavaScript, a post that cannot reach the app keeps the screen and what was typed
 * (the form kit, issue 19): the toast is the intent's spec 2 §8 failure text, the kit's
 * reason below it. Without JavaScript the browser's own error page is shown and Back
 * returns to the form as it was.
 */
export const clientAction = keepInputOnFailure((fd) => submitFailureTitle(fd?.get("intent"), !!fd?.get("id")));
export const shouldRevalidate = reloadUnlessSubmitFailed();

export async function action({ request }: ActionFunctionArgs) {
  await requireOperator(request);
  const fd = await readFormData(request);
  const intent = str(fd, "intent");
  // The forms post to the page's own URL (its list pages, open panel): without `redirectTo`
  // (the kit's NoJsRedirect is there only until hydration) the answer goes back to it.
  const posted = new URL(request.url);
  const back = safeRedirect(fd.get("redirectTo") || `${posted.pathname}${posted.search}`, "/trading-planets");
  const home = (() => {
    const url = new URL(back, "http://x");
    for (const p of ["sequence", "confirm", "ad", "select", "ids"]) url.searchParams.delete(p);
    const s = url.searchParams.toString();
    return `${url.pathname}${s ? `?${s}` : ""}`;
  })();
  const fail = async (err: unknown, fallback: string) => {
    if (!(err instanceof AppError)) await logEvent({ type: "error", source: "system", message: `${fallback}: ${errorText(err)}` });
    return redirectWithError(back, messageOf(err, fallback));
  };
  /** Spec 2 §8 gives these failures one toast text whatever the reason; the reason goes to System Logs. */
  const failFixed = async (err: unknown, text: string, to = back) => {
    await logEvent({ type: err instanceof AppError ? "info" : "error", source: "system", message: `${text}: ${errorText(err)}` });
    return redirectWithError(to, text);
  };

  switch (intent) {
    case "sequence-save": {
      const parsed = readSequenceForm(fd);
      if (parsed.op) return data<TradingActionData>({ draft: parsed.draft, errors: {} });
      if (!parsed.ok) return data<TradingActionData>({ draft: parsed.draft, errors: parsed.errors }, { status: 400 });
      const id = str(fd, "id");
      try {
        if (id) {
          await updateSequence(id, parsed.value);
          return redirectWithSuccess(home, TRADING_MESSAGES.sequenceUpdated);
        }
        await createSequence(parsed.value);
        return redirectWithSuccess(home, TRADING_MESSAGES.sequenceCreated);
      } catch (err) {
        // A rule the model refused (levels, a taken name) is shown in the form, which keeps what was posted.
        if (err instanceof AppError && (err.status === 400 || err.status === 409)) {
          const field = err.message === TRADING_ERRORS.sequenceExists ? "name" : "form";
          return data<TradingActionData>({ draft: parsed.draft, errors: { [field]: err.message } }, { status: err.status });
        }
        return failFixed(err, id ? TRADING_MESSAGES.updateSequenceFailed : TRADING_MESSAGES.createSequenceFailed);
      }
    }
    case "sequence-active": {
      try {
        await setSequencesActive([str(fd, "id")], str(fd, "isActive") === "true");
        return redirectWithSuccess(home, TRADING_MESSAGES.sequenceUpdated);
      } catch (err) {
        return failFixed(err, TRADING_MESSAGES.updateSequenceStatusFailed);
      }
    }
    case "sequence-delete": {
      try {
        if (!(await deleteSequence(str(fd, "id")))) return failFixed(TRADING_ERRORS.sequenceNotFound, TRADING_MESSAGES.deleteSequenceFailed, home);
        return redirectWithSuccess(home, TRADING_MESSAGES.sequenceDeleted);
      } catch (err) {
        return failFixed(err, TRADING_MESSAGES.deleteSequenceFailed);
      }
    }
    case "sequence-move": {
      try {
        if (!(await moveSequence(str(fd, "id"), str(fd, "direction") === "up" ? -1 : 1))) return redirectWithError(home, TRADING_ERRORS.sequenceNotFound);
        return redirect(home);
      } catch (err) {
        return fail(err, TRADING_MESSAGES.updateSequenceFailed);
      }
    }
    case "sequence-reorder": {
      try {
        await reorderSequences(fd.getAll("ids").map(String), Number(str(fd, "offset")) || 0);
        return data({ ok: true });
      } catch (err) {
        return data({ ok: false, message: messageOf(err, TRADING_MESSAGES.updateSequenceFailed) }, { status: err instanceof AppError ? err.status : 500 });
      }
    }
    case "planet-create": {
      const parsed = createCustomPlanetSchema.safeParse({ name: str(fd, "name"), type: str(fd, "type") });
      if (!parsed.success) return redirectWithError(back, parsed.error.issues[0]?.message ?? TRADING_ERRORS.createCustomPlanet);
      try {
        await createCustomPlanet(parsed.data);
        return redirectWithSuccess(back, TRADING_MESSAGES.customPlanetCreated);
      } catch (err) {
        return fail(err, TRADING_ERRORS.createCustomPlanet);
      }
    }
    case "planet-rename": {
      const parsed = createCustomPlanetSchema.shape.name.safeParse(str(fd, "name"));
      if (!parsed.success) return redirectWithError(back, parsed.error.issues[0]?.message ?? TRADING_ERRORS.planetName);
      try {
        await updateCustomPlanet(str(fd, "id"), { name: parsed.data });
        return redirectWithSuccess(back, TRADING_MESSAGES.customPlanetUpdated);
      } catch (err) {
        return fail(err, TRADING_ERRORS.updateCustomPlanet);
      }
    }
    case "planet-delete": {
      try {
        if (!(await deleteCustomPlanet(str(fd, "id")))) return redirectWithError(home, TRADING_MESSAGES.deleteCustomPlanetFailed);
        return redirectWithSuccess(home, TRADING_MESSAGES.customPlanetDeleted);
      } catch (err) {
        return failFixed(err, TRADING_MESSAGES.deleteCustomPlanetFailed);
      }
    }
    case "ad-create":
    case "ad-update": {
      const category = (AD_CATEGORIES as readonly string[]).includes(str(fd, "category")) ? (str(fd, "category") as AdCategory) : "ads";
      const parsed = createAdSchema.shape.adsMessage.safeParse(str(fd, "adsMessage").replace(/\r\n/g, "\n"));
      if (!parsed.success) return redirectWithError(back, parsed.error.issues[0]?.message ?? TRADING_ERRORS.adMessage);
      try {
        if (intent === "ad-create") {
          await createAd({ adsMessage: parsed.data, category, isActive: true });
          return redirectWithSuccess(home, TRADING_MESSAGES.adCreated);
        }
        await updateAd(str(fd, "id"), { adsMessage: parsed.data, category });
        return redirectWithSuccess(home, TRADING_MESSAGES.adUpdated);
      } catch (err) {
        return fail(err, intent === "ad-create" ? TRADING_ERRORS.createAd : TRADING_MESSAGES.updateAdStatusFailed);
      }
    }
    case "ad-active": {
      try {
        await updateAd(str(fd, "id"), { isActive: str(fd, "isActive") === "true" });
        return redirectWithSuccess(home, TRADING_MESSAGES.adUpdated);
      } catch (err) {
        return failFixed(err, TRADING_MESSAGES.updateAdStatusFailed);
      }
    }
    case "ad-delete": {
      try {
        if (!(await deleteAd(str(fd, "id")))) return redirectWithError(home, TRADING_MESSAGES.deleteAdFailed);
        return redirectWithSuccess(home, TRADING_MESSAGES.adDeleted);
      } catch (err) {
        return failFixed(err, TRADING_MESSAGES.deleteAdFailed);
      }
    }
    case "ads-delete-selected": {
      try {
        await deleteAds(fd.getAll("ids").map(String));
        return redirectWithSuccess(home, TRADING_MESSAGES.selectedAdsDeleted);
      } catch (err) {
        return failFixed(err, TRADING_MESSAGES.deleteSelectedAdsFailed);
      }
    }
    case "trader-start":
    case "trader-stop": {
      const start = intent === "trader-start";
      const fallback = start ? TRADER_MESSAGES.startFailed : TRADER_MESSAGES.stopFailed;
      const accountId = str(fd, "account_id").trim();
      if (!/^\d{1,12}$/.test(accountId)) return redirectWithError(home, fallback);
      try {
        if (start) {
          const { tookOver } = await startTrader(accountId, { takeover: ["1", "on", "true"].includes(str(fd, "takeover")) });
          return redirectWithSuccess(home, `${TRADER_MESSAGES.started}${tookOver ? ` · ${SESSION_TEXTS.tookOver(accountId, tookOver.purpose)}` : ""}`);
        }
        await stopTrader(accountId);
        return redirectWithSuccess(home, TRADER_MESSAGES.stopped);
      } catch (err) {
        // Another purpose holds the account: back to the page with the take-over question.
        const to = takeoverLocation(err, home, {
          intent,
          accountId,
          fields: { account_id: accountId, accountName: (err as AccountHeldError).account ?? accountId },
        });
        if (to) return redirectWithError(to, (err as AccountHeldError).message);
        if (err instanceof AppError) return redirectWithError(home, err.message || fallback);
        return fail(err, fallback);
      }
    }
    default:
      return data({ ok: false, message: `Unknown intent: ${intent || "(none)"}` }, { status: 400 });
  }
}

export default function TradingPlanetsRoute() {
  const loaded = useLoaderData<typeof loader>();
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
    <Box>
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
          <SequenceList sequences={sequences} confirm={params.get("confirm")} linkWith={withParam} page={pages?.sequences} />
          <TraderPanel traders={traders} page={pages?.traders} running={loaded.tradersRunning} />
        </div>
        <AdsManager ads={ads} params={params} linkWith={withParam} pages={pages} />
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
