import { Box, Button, Card, Flex, Heading, Text } from "@radix-ui/themes";
import { Link, useFetcher, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useLive } from "~/components/live/live";
import { SessionDetail } from "~/components/session/session-detail";
import { newerSession, useLiveSessions } from "~/components/session/live-sessions";
import { stalkerSessionState } from "#api/stalker";
import { TakeOverPanel } from "~/components/session/take-over-panel";
import { SUMMARY_EXPAND_PARAM, SummaryPanel } from "~/components/summary/summary-panel";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { EmptyState } from "~/components/ui/empty-state";
import { LazyConfirmDialog } from "~/components/ui/lazy-confirm-dialog";
import { FocusKeepingButton } from "~/components/ui/focus-keeping-button";
import { useHydrated } from "~/components/ui/use-hydrated";
import { PlusIcon } from "~/components/ui/icons";
import { ListSearch } from "~/components/ui/list-search";
import { HiddenFields, NoJsRedirect, NoJsReload } from "~/components/ui/no-js";
import { RefreshStatus } from "~/components/ui/refresh-outcome";
import { SectionHeader } from "~/components/ui/section-header";
import { useCanWrite } from "~/components/ui/write-only";
import { UndoBar } from "~/components/ui/undo-bar";
import { searchSummary } from "~/utils/list-search";
import type { CharacterRow, CharactersData } from "~/routes/_app+/_characters+/characters";
import { CharacterRowView, GiftPictures, giftNamesOf, type RowContext } from "./character-row";
import {
  CONFIRM_CATEGORY_PARAM,
  CONFIRM_PARAM,
  DELETE_TEXTS,
  DIALOG_PARAM,
  dialogOf,
  GIFT_PARAM,
  giftLabel,
  giftSelection,
  LIVE_PATTERNS,
  pageSearch,
  REFRESH_POLL_MS,
  STALKER_PHASE_TEXTS,
  STALKER_TEXTS,
  stalkerRowFields,
  toggleGiftSearch,
  URL_ONLY_PARAMS,
} from "./characters-view";
import { CategoryDialog, UserDialog } from "./lazy-dialogs";
import { CharactersRefreshButton } from "./refresh-button";

function withoutParams(search: string, names: string[]): string {
  const params = new URLSearchParams(search);
  for (const n of names) params.delete(n);
  const s = params.toString();
  return `/characters${s ? `?${s}` : ""}`;
}

function withParam(search: string, name: string, value: string): string {
  const params = new URLSearchParams(search);
  params.set(name, value);
  return `/characters?${params}`;
}

function StalkerCard({ stalker, progress, notice, live = false }: Pick<CharactersData, "stalker" | "progress" | "notice"> & { live?: boolean }) {
  const canWrite = useCanWrite();
  const start = useFetcher();
  const stop = useFetcher();
  // Issue 30 A3: "connecting" while the start call runs, until the server's own word arrives live.
  const pendingStart = start.state !== "idle" && !live;
  // Spec 2 §4: connecting (blue) while the start call runs, then active (green).
  const state = pendingStart ? "connecting" : (stalker?.state ?? "inactive");
  // Issue 29: one state — the spec's three words where they are true (spec 2 §1: a retrying
  // stalker is "Connecting Stalker", its detail line says when the next try is); one that no
  // worker holds (its holder lost, all workers full) says so instead.
  const phase = pendingStart ? "connecting" : (stalker?.session?.phase ?? null);
  const other = state === "connecting" && phase === "waiting" ? phase : null;
  const color = other ? "amber" : state === "active" ? "green" : state === "connecting" ? "blue" : "gray";
  return (
    <Card mb="4" data-testid="stalker-card">
      <Flex gap="3" align="center" justify="between" wrap="wrap">
        <Box>
          <Text as="div" weight="bold" color={color} data-state={state} data-phase={phase ?? undefined} role="status">
            {other === "waiting" ? STALKER_PHASE_TEXTS.waiting : STALKER_TEXTS[state]}
          </Text>
          <Text as="div" size="1" color="gray">
            {stalker ? `${stalker.nick} (${stalker.accountId})` : "No stalker user"}
            {stalker?.session?.planet && state === "active" ? ` · on ${stalker.session.planet}` : ""}
          </Text>
          {stalker?.session && !pendingStart ? <SessionDetail session={stalker.session} announce="none" /> : null}
        </Box>
        {canWrite ? (
          <Flex gap="2" wrap="wrap">
            <start.Form method="post" action="/characters">
              <HiddenFields fields={{ intent: "start-stalker", accountId: stalker?.accountId ?? "" }} />
              <NoJsRedirect />
              <FocusKeepingButton color="green" off={!stalker || state !== "inactive"} busy={pendingStart}>
                Start
              </FocusKeepingButton>
            </start.Form>
            <stop.Form method="post" action="/characters">
              <HiddenFields fields={{ intent: "stop-stalker", accountId: stalker?.accountId ?? "" }} />
              <NoJsRedirect />
              <FocusKeepingButton color="orange" off={!stalker || state === "inactive"} busy={stop.state !== "idle" && state !== "inactive"}>
                Stop
              </FocusKeepingButton>
            </stop.Form>
            <CharactersRefreshButton progress={progress} notice={notice} />
          </Flex>
        ) : null}
      </Flex>
    </Card>
  );
}

function GiftFilter({ totals, selected }: { totals: CharactersData["totals"]; selected: number[] }) {
  const location = useLocation();
  const navigation = useNavigation();
  const navigate = useNavigate();
  // Issue 19 item 13: a second click lands before the first click's page has loaded, while
  // `location` still holds the URL of the render: toggle from the URL being navigated to, so
  // no toggle is lost, and show that selection at once.
  const pending = navigation.location?.pathname === "/characters" ? navigation.location.search : null;
  const intended = useRef<string | null>(null);
  useEffect(() => {
    intended.current = null;
  }, [location.search]);
  const base = () => intended.current ?? pending ?? location.search;
  const shown = pending !== null ? giftSelection(new URLSearchParams(pending)) : selected;
  if (totals.length === 0) return null;
  return (
    <Box mb="4">
      <Heading as="h2" size="3" mb="2">
        Gift totals
      </Heading>
      <ul className="gt-gift-filter" aria-label="Filter by gift">
        {totals.map((g) => {
          const on = shown.includes(g.type);
          return (
            <li key={g.type}>
              <Link
                to={`/characters${toggleGiftSearch(new URLSearchParams(location.search), g.type)}`}
                // Issue 30 B1: a link is not a toggle button (no aria-pressed); the chosen
                // filters are the current ones. Its spoken name starts with what it shows.
                aria-current={on ? "true" : undefined}
                title={`${g.name}: ${g.amount}`}
                preventScrollReset
                replace
                data-gift={g.type}
                onClick={(event) => {
                  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                  event.preventDefault();
                  const next = toggleGiftSearch(new URLSearchParams(base()), g.type);
                  intended.current = next;
                  navigate(`/characters${next}`, { replace: true, preventScrollReset: true });
                }}
              >
                {g.img ? <img src={g.img} alt="" width={20} height={20} /> : null}
                <Text size="1">{g.amount}</Text>
                <span className="gt-gift-name">{giftLabel(g)}</span>
                <span className="gt-visually-hidden">{` ${g.name}${on ? ", filtering" : ""}`}</span>
              </Link>
            </li>
          );
        })}
      </ul>
      {shown.length ? (
        <Text as="p" size="1" mt="1">
          <Link to={withoutParams(location.search, [GIFT_PARAM])} replace preventScrollReset>
            Clear gift filter
          </Link>
        </Text>
      ) : null}
    </Box>
  );
}

/**
 * Issue 20 "Bounded pages": where the shown rows sit in the list and plain links to the pages
 * before and after (the search and gift filter kept), so every row is reachable without JavaScript.
 */
function CharacterPages({ paging, search }: { paging: CharactersData["paging"]; search: string }) {
  if (paging.pageCount <= 1) return null;
  const params = new URLSearchParams(search);
  const link = (page: number) => `/characters${pageSearch(params, page)}`;
  return (
    <nav aria-label="Character pages" className="gt-character-pages">
      <span className="rt-Text rt-r-size-1" data-accent-color="gray" data-testid="character-range">
        {`Characters ${paging.from.toLocaleString("en-US")}–${paging.to.toLocaleString("en-US")} of ${paging.matched.toLocaleString("en-US")} · page ${paging.page} of ${paging.pageCount}`}
      </span>
      {paging.page > 1 ? (
        <Link to={link(paging.page - 1)} rel="prev" className="rt-reset rt-BaseButton rt-r-size-1 rt-variant-soft rt-Button">
          ← Previous
        </Link>
      ) : null}
      {paging.page < paging.pageCount ? (
        <Link to={link(paging.page + 1)} rel="next" className="rt-reset rt-BaseButton rt-r-size-1 rt-variant-soft rt-Button">
          Next →
        </Link>
      ) : null}
    </nav>
  );
}

export function CharactersScreen({ data }: { data: CharactersData }) {
  const location = useLocation();
  const navigate = useNavigate();
  // A viewer (issue 21) reads the characters and the stalker, without the buttons that change them.
  const canWrite = useCanWrite();
  // Stalkers, refresh progress and results (and the 5-minute status refresh) arrive as live
  // events (docs/live.md); polling only while the stream is down.
  useLive([...LIVE_PATTERNS, "session:stalker"], { fallbackMs: data.progress?.running ? REFRESH_POLL_MS : 5_000 });
  const closeHref = withoutParams(location.search, [DIALOG_PARAM]);
  const close = () => navigate(closeHref, { replace: true, preventScrollReset: true });
  const shown = data.groups.reduce((n, g) => n + g.rows.length, 0);
  const hydrated = useHydrated();
  // One delete question and one fetcher for the whole list (issue 20: nothing per row but its markup).
  const [deleting, setDeleting] = useState<{ row: CharacterRow; open: boolean } | null>(null);
  const deleteFetcher = useFetcher({ key: "delete-user" });
  const deletingId = deleteFetcher.state !== "idle" ? String(deleteFetcher.formData?.get("accountId") ?? "") : null;
  const names = useMemo(() => giftNamesOf(data.totals), [data.totals]);
  // Issue 30 A3: a stalker's new state shows as soon as its live event arrives, not after the
  // clicked fetcher's action and the loaders after it (the row and the card alike).
  const liveStalkers = useLiveSessions("stalker");
  const withLive = (row: CharacterRow): CharacterRow => {
    const view = newerSession(liveStalkers, row.account_id, row.stalkerSince);
    return view ? { ...row, ...stalkerRowFields(view) } : row;
  };
  const cardView = newerSession(liveStalkers, data.stalker?.accountId, data.stalker?.session?.since ?? null);
  const card: CharactersData["stalker"] =
    data.stalker && cardView
      ? {
          ...data.stalker,
          state: stalkerRowFields(cardView).stalkerState,
          session: { ...cardView, state: stalkerSessionState(cardView) } as unknown as NonNullable<CharactersData["stalker"]>["session"],
        }
      : data.stalker;
  const ctx: RowContext = {
    refreshing: !!data.progress?.running,
    canWrite,
    search: location.search,
    names,
    onDelete: hydrated ? (row) => setDeleting({ row, open: true }) : null,
    deleting: deletingId,
  };
  const params = new URLSearchParams(location.search);
  const dialog = canWrite ? dialogOf(params) : null;
  const confirmId = canWrite ? params.get(CONFIRM_PARAM) : null;
  const confirm = confirmId ? (data.groups.flatMap((g) => g.rows).find((r) => r.account_id === confirmId) ?? null) : null;
  const confirmCategoryId = canWrite ? params.get(CONFIRM_CATEGORY_PARAM) : null;
  const confirmCategory = confirmCategoryId ? (data.categories.find((c) => c._id === confirmCategoryId) ?? null) : null;

  return (
    <>
      {/* Without JavaScript a Refresh's page follows the job by reloading itself every 2 s. */}
      {/* Issue 30 B5: a refresh started elsewhere is followed too, unless a dialog or question is open. */}
      {data.progress?.running && (data.refreshingNoJs || !URL_ONLY_PARAMS.some((name) => params.has(name))) ? <NoJsReload seconds={2} /> : null}
      <SectionHeader
        title="All Characters"
        actions={
          canWrite && (
            <>
              <Button asChild variant="soft">
                <Link to={withParam(location.search, DIALOG_PARAM, "user")} aria-label="Add User" preventScrollReset>
                  <PlusIcon /> User
                </Link>
              </Button>
              <Button asChild variant="soft">
                <Link to={withParam(location.search, DIALOG_PARAM, "category")} aria-label="Add Category" preventScrollReset>
                  <PlusIcon /> Category
                </Link>
              </Button>
            </>
          )
        }
      />
      <UserDialog open={dialog === "user"} onClose={close} closeHref={closeHref} categories={data.categories} />
      <CategoryDialog open={dialog === "category"} onClose={close} closeHref={closeHref} categories={data.categories} />
      {confirmCategory ? (
        <ConfirmPanel
          title={DELETE_TEXTS.categoryTitle}
          description={DELETE_TEXTS.category(confirmCategory.value)}
          confirmLabel="Delete"
          cancelTo={withoutParams(location.search, [CONFIRM_CATEGORY_PARAM])}
          form={{
            action: "/characters",
            fields: { intent: "delete-category", id: confirmCategory._id, redirectTo: withoutParams(location.search, [CONFIRM_CATEGORY_PARAM]) },
          }}
        />
      ) : null}
      {confirm ? (
        <ConfirmPanel
          title={DELETE_TEXTS.userTitle}
          description={DELETE_TEXTS.user(confirm)}
          confirmLabel="Delete"
          cancelTo={withoutParams(location.search, [CONFIRM_PARAM])}
          form={{
            action: "/characters",
            fields: { intent: "delete-user", accountId: confirm.account_id, redirectTo: withoutParams(location.search, [CONFIRM_PARAM]) },
          }}
        />
      ) : null}
      {data.takeover ? <TakeOverPanel notice={data.takeover} /> : null}
      {data.undo && canWrite ? (
        <UndoBar
          key={data.undo.id}
          message={`Deleted ${data.undo.label}.`}
          action="/characters"
          fields={{ intent: "undo-delete", undoId: data.undo.id }}
          redirectTo={`/characters${location.search}`}
        />
      ) : null}
      <StalkerCard stalker={card} progress={data.progress} notice={data.notice} live={!!cardView} />
      <RefreshStatus progress={data.progress} notice={data.notice} noun="users" showSuccess />
      <GiftFilter totals={data.totals} selected={data.giftFilter} />
      {data.userCount > 0 ? <ListSearch query={data.query} keep={[GIFT_PARAM, SUMMARY_EXPAND_PARAM]} /> : null}
      {data.query ? (
        <Text as="p" size="1" color="gray" mb="2" role="status" data-testid="search-summary">
          {searchSummary(data.paging.matched, data.userCount, ["character", "characters"], data.query)}
        </Text>
      ) : null}
      {data.userCount === 0 ? (
        <EmptyState title="No characters yet" description={canWrite ? "Add a user with a recovery code." : undefined} />
      ) : shown === 0 ? null : (
        <>
          <GiftPictures totals={data.totals} />
          {data.groups.map((g) => (
            <section key={g.group} aria-labelledby={`group-${g.group}`} className="gt-character-group">
              <h2 className="rt-Heading rt-r-size-4 gt-character-group-title" id={`group-${g.group}`}>
                {g.title}
              </h2>
              <ul className="gt-character-list">
                {g.rows.map((r) => (
                  <CharacterRowView key={r.account_id} row={withLive(r)} ctx={ctx} />
                ))}
              </ul>
            </section>
          ))}
          <CharacterPages paging={data.paging} search={location.search} />
        </>
      )}
      {canWrite ? (
        <LazyConfirmDialog
          open={deleting?.open ?? false}
          onOpenChange={(open) => {
            if (!open) setDeleting((d) => d && { ...d, open: false });
          }}
          title={DELETE_TEXTS.userTitle}
          description={deleting ? DELETE_TEXTS.user(deleting.row) : ""}
          confirmLabel="Delete"
          onConfirm={() => {
            if (deleting) void deleteFetcher.submit({ intent: "delete-user", accountId: deleting.row.account_id }, { method: "post", action: "/characters" });
          }}
        />
      ) : null}
      <Box mt="4" className="gt-summary-box">
        <SummaryPanel summary={data.summary} />
      </Box>
    </>
  );
}
