import { Box, Button, Flex, Heading, Text } from "@radix-ui/themes";
import { Link, useFetcher, useLocation, useNavigate, useNavigation } from "@remix-run/react";
import { useEffect, useState, type MouseEvent } from "react";
import { useLive } from "~/components/live/live";
import { SUMMARY_EXPAND_PARAM, SummaryPanel } from "~/components/summary/summary-panel";
import { ConfirmPanel } from "~/components/ui/confirm-panel";
import { LazyConfirmDialog } from "~/components/ui/lazy-confirm-dialog";
import { ListSearch } from "~/components/ui/list-search";
import { NoJsReload } from "~/components/ui/no-js";
import { RefreshStatus } from "~/components/ui/refresh-outcome";
import { SectionHeader } from "~/components/ui/section-header";
import { UndoBar } from "~/components/ui/undo-bar";
import { toast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { searchSummary } from "~/utils/list-search";
import type { BowlingData, BowlingRow } from "~/routes/_app+/_bowling-bots+/gifts";
import { BowlingRowView, deleteUserQuestion, type RowContext } from "./bowling-row";
import {
  ACCOUNT_PARAM,
  COLLECTION_TITLE,
  CONFIRM_ALL_COMPANIONS,
  CONFIRM_PARAM,
  DIALOG_PARAM,
  LIVE_PATTERNS,
  PAGE_PARAM,
  REFRESH_POLL_MS,
  URL_ONLY_PARAMS,
  dialogOf,
  hrefWith,
} from "./bowling-view";
import { CollectionDialog, CompanionDialog } from "./lazy-dialogs";
import { RefreshControl } from "./refresh-control";
import { RemoteImage } from "./remote-image";

export const LIST_TEXTS = { loading: "Loading users...", failed: "Failed to load bowling users", empty: "No users found" } as const;
const DELETE_ALL = {
  title: "Delete all companions",
  description: "Are you sure you want to delete all companions? This action cannot be undone.",
} as const;

/** Totals bar (spec 1 §2): summed gift amounts by type plus the collection total. */
function TotalsBar({ totals }: { totals: NonNullable<BowlingData["totals"]> }) {
  return (
    <Flex align="center" gap="3" wrap="wrap" data-testid="totals-bar" aria-label="Totals">
      <ul className="gt-totals" aria-label="Gift totals">
        {totals.gifts.map((g) => (
          <li key={g.type} className="gt-chip" data-type={g.type} title={`${g.name}: ${g.amount}`}>
            {/* Issue 30 B4: the name is in the text, not only in the hover title. */}
            {g.img ? <RemoteImage src={g.img} alt="" size={16} /> : null}
            <span className="gt-visually-hidden">{g.name}: </span>
            <span>{g.amount}</span>
          </li>
        ))}
      </ul>
      <Text size="1" data-testid="collection-total-all">
        {COLLECTION_TITLE}: {totals.collection} items
      </Text>
    </Flex>
  );
}

function DeleteAllCompanions({ count }: { count: number }) {
  const hydrated = useHydrated();
  const location = useLocation();
  const fetcher = useFetcher();
  const [open, setOpen] = useState(false);
  if (!hydrated) {
    return (
      <Button asChild size="1" variant="soft" color="red">
        <Link to={hrefWith(location.search, { [CONFIRM_PARAM]: CONFIRM_ALL_COMPANIONS, [DIALOG_PARAM]: null, [ACCOUNT_PARAM]: null })} preventScrollReset>
          Delete all companions
        </Link>
      </Button>
    );
  }
  return (
    <>
      <Button size="1" variant="soft" color="red" onClick={() => setOpen(true)} loading={fetcher.state !== "idle"} disabled={count === 0}>
        Delete all companions
      </Button>
      <LazyConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={DELETE_ALL.title}
        description={DELETE_ALL.description}
        confirmLabel="Delete"
        onConfirm={() => fetcher.submit({ intent: "delete-companions" }, { method: "post", action: "/gifts" })}
      />
    </>
  );
}

/**
 * Issue 20 "Bounded pages": "← Previous" / "Next →" as plain links (`?page=`, keeping the
 * search and the Summary state), so every account is reachable without JavaScript.
 */
function Pager({ page, search, shown, matching }: { page: NonNullable<BowlingData["page"]>; search: string; shown: number; matching: number }) {
  if (page.pages <= 1) return null;
  const first = (page.page - 1) * page.size + 1;
  const to = (n: number) => hrefWith(search, { [PAGE_PARAM]: n === 1 ? null : String(n), [DIALOG_PARAM]: null, [ACCOUNT_PARAM]: null, [CONFIRM_PARAM]: null });
  const link = "rt-reset rt-BaseButton rt-r-size-1 rt-variant-soft rt-Button";
  return (
    <nav aria-label="Bowling user pages" className="gt-bowling-pager" data-testid="bowling-pager">
      {page.page > 1 ? (
        <Link className={link} to={to(page.page - 1)} rel="prev">
          ← Previous
        </Link>
      ) : null}
      <span className="rt-Text rt-r-size-1" data-accent-color="gray" aria-current="page">
        Page {page.page} of {page.pages} · accounts {first}–{first + shown - 1} of {matching}
      </span>
      {page.page < page.pages ? (
        <Link className={link} to={to(page.page + 1)} rel="next">
          Next →
        </Link>
      ) : null}
    </nav>
  );
}

export function BowlingScreen({ data }: { data: BowlingData }) {
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const params = new URLSearchParams(location.search);
  // A viewer (issue 21) sees the users, gifts and collections, not refresh, companions or delete.
  const canWrite = useCanWrite();
  const open = dialogOf(params);
  const rows = data.rows ?? [];
  const dialogRow = open ? (rows.find((r) => r.account_id === open.account) ?? null) : null;
  const closeHref = hrefWith(location.search, { [DIALOG_PARAM]: null, [ACCOUNT_PARAM]: null });
  const close = () => navigate(closeHref, { replace: true, preventScrollReset: true });
  const confirm = canWrite ? params.get(CONFIRM_PARAM) : null;
  const confirmRow = confirm && confirm !== CONFIRM_ALL_COMPANIONS ? (rows.find((r) => r.account_id === confirm) ?? null) : null;
  const cancelConfirm = hrefWith(location.search, { [CONFIRM_PARAM]: null });
  const reloading = navigation.state === "loading" && navigation.location.pathname === "/gifts";
  const refreshing = !!data.progress?.running;
  const hydrated = useHydrated();
  // One delete dialog and one fetcher for every row (the rows hold no hooks).
  const deleteFetcher = useFetcher();
  // The row stays while the dialog closes (its text does not blank out during the animation).
  const [deleting, setDeleting] = useState<{ row: BowlingRow | null; open: boolean }>({ row: null, open: false });
  const deletingRow = deleting.row;
  const pendingDelete = deleteFetcher.state !== "idle" ? String(deleteFetcher.formData?.get("accountId") ?? "") : null;
  const rowContext: RowContext = { search: location.search, canWrite, hydrated, loading: refreshing, deleting: pendingDelete };
  // The rows' links are plain <a>: followed here as client navigations (keeping the scroll),
  // their delete buttons open the dialog.
  const onTableClick = (event: MouseEvent<HTMLTableElement>) => {
    const target = event.target as Element;
    const del = target.closest<HTMLElement>("[data-delete]");
    if (del) {
      const row = rows.find((r) => r.account_id === del.dataset.delete);
      if (row) setDeleting({ row, open: true });
      return;
    }
    const a = target.closest<HTMLAnchorElement>("a[href]");
    if (!a || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || a.target) return;
    const href = a.getAttribute("href")!;
    if (!href.startsWith("/gifts")) return;
    event.preventDefault();
    navigate(href, { preventScrollReset: true });
  };
  // Progress and results arrive as live events (refresh:bowling); polling only while the stream is down.
  useLive(LIVE_PATTERNS, { fallbackMs: refreshing ? REFRESH_POLL_MS : null });

  // Spec 1 §8 'Failed to load bowling users' as a toast too (with JavaScript).
  const failed = data.rows === null;
  useEffect(() => {
    if (failed) toast.error(LIST_TEXTS.failed);
  }, [failed]);

  return (
    <>
      {/* Without JavaScript the page follows a running refresh by reloading itself every 2 s: the one
          it posted (`?refreshing=1`, which ends with the outcome's toast), and one started elsewhere
          (issue 30 B5: it stayed on "Refreshing 0 of 0 accounts"; it now ends on the outcome line),
          unless a dialog or question is open (a reload would throw away what is being typed). */}
      {refreshing && (data.refreshingNoJs || !URL_ONLY_PARAMS.some((name) => params.has(name))) ? <NoJsReload seconds={2} /> : null}
      <SectionHeader title="Bowling Bots" actions={<RefreshControl lastFetched={data.lastFetched} progress={data.progress} notice={data.notice} />} />
      {confirmRow ? (
        <ConfirmPanel
          title="Delete bowling user"
          description={deleteUserQuestion(confirmRow)}
          confirmLabel="Delete"
          cancelTo={cancelConfirm}
          form={{ action: "/gifts", fields: { intent: "delete-user", accountId: confirmRow.account_id, redirectTo: cancelConfirm } }}
        />
      ) : null}
      {confirm === CONFIRM_ALL_COMPANIONS ? (
        <ConfirmPanel
          title={DELETE_ALL.title}
          description={DELETE_ALL.description}
          confirmLabel="Delete"
          cancelTo={cancelConfirm}
          form={{ action: "/gifts", fields: { intent: "delete-companions", redirectTo: cancelConfirm } }}
        />
      ) : null}
      <CompanionDialog
        open={canWrite && open?.dialog === "companion"}
        onClose={close}
        closeHref={closeHref}
        row={canWrite && open?.dialog === "companion" ? dialogRow : null}
        candidates={data.candidates}
        candidatesFailed={data.candidatesFailed}
      />
      <CollectionDialog open={open?.dialog === "collection"} onClose={close} closeHref={closeHref} row={open?.dialog === "collection" ? dialogRow : null} />
      <RefreshStatus progress={data.progress} notice={data.notice} noun="accounts" />
      {data.undo && canWrite ? (
        <UndoBar
          key={data.undo.id}
          message={`Deleted ${data.undo.label}.`}
          action="/gifts"
          fields={{ intent: "undo-delete", undoId: data.undo.id }}
          redirectTo={`/gifts${location.search}`}
        />
      ) : null}
      <Box mb="4" className="gt-summary-box">
        <SummaryPanel summary={data.summary} />
      </Box>
      <Box asChild>
        <section aria-labelledby="gt-bowling-users">
          <Flex align="center" justify="between" gap="2" wrap="wrap" mb="2">
            <Heading as="h2" size="4" id="gt-bowling-users">
              Bowling users
            </Heading>
            {data.rows && canWrite ? <DeleteAllCompanions count={data.companionCount} /> : null}
          </Flex>
          {data.totals && data.userCount ? <TotalsBar totals={data.totals} /> : null}
          {data.userCount ? <ListSearch query={data.query} keep={[SUMMARY_EXPAND_PARAM]} /> : null}
          {data.query && data.rows ? (
            <Text as="p" size="1" color="gray" mb="2" role="status" data-testid="search-summary">
              {searchSummary(data.matching, data.userCount, ["account", "accounts"], data.query)}
            </Text>
          ) : null}
          {data.rows === null ? (
            reloading ? (
              <Text as="p" color="gray" role="status">
                {LIST_TEXTS.loading}
              </Text>
            ) : (
              <Flex direction="column" gap="2" align="start" role="alert">
                <Text color="red">{LIST_TEXTS.failed}</Text>
                <Button asChild size="1" variant="soft">
                  <Link to="/gifts">Retry</Link>
                </Button>
              </Flex>
            )
          ) : data.userCount === 0 ? (
            <Text as="p" color="gray" data-testid="no-users">
              {LIST_TEXTS.empty}
            </Text>
          ) : rows.length === 0 ? null : (
            // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- delegation: the links and buttons inside are the controls
            <table className="gt-bowling-table" aria-labelledby="gt-bowling-users" onClick={onTableClick}>
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Status</th>
                  <th scope="col">Companion</th>
                  <th scope="col">Gifts</th>
                  <th scope="col">{COLLECTION_TITLE}</th>
                  {canWrite ? (
                    <th scope="col">
                      <span className="gt-visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <BowlingRowView key={r.account_id} row={r} ctx={rowContext} />
                ))}
              </tbody>
            </table>
          )}
          {data.page && data.rows ? <Pager page={data.page} search={location.search} shown={rows.length} matching={data.matching} /> : null}
          {canWrite && hydrated ? (
            <LazyConfirmDialog
              open={deleting.open}
              onOpenChange={(open) => setDeleting((d) => ({ ...d, open }))}
              title="Delete bowling user"
              description={deletingRow ? deleteUserQuestion(deletingRow) : ""}
              confirmLabel="Delete"
              onConfirm={() => {
                if (deletingRow) deleteFetcher.submit({ intent: "delete-user", accountId: deletingRow.account_id }, { method: "post", action: "/gifts" });
              }}
            />
          ) : null}
        </section>
      </Box>
    </>
  );
}
