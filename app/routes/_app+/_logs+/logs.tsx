import { MixerHorizontalIcon, ReaderIcon, ReloadIcon, TrashIcon } from "~/components/ui/icons";
import { Button, Text } from "@radix-ui/themes";
import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useFetchers, useLoaderData, useLocation, useNavigation, useRevalidator, useSubmit } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { formatLogCursor, LOG_PAGE_SIZE, parseLogCursor, type LogDto } from "#api/logs";
import { LogEntryRow, useListNow } from "~/routes/_app+/_logs+/components/log-entry";
import { LogFilters } from "~/routes/_app+/_logs+/components/log-filters";
import {
  dayEnd,
  dayStart,
  LOGS_AUTO_REFRESH_SECONDS,
  logsPageUrl,
  parseLogsPageParams,
  type LogsPageParams,
} from "~/routes/_app+/_logs+/components/log-params";
import { useLive } from "~/components/live/live";
import { ListSearch } from "~/components/ui/list-search";
import { ConfirmDialog, ConfirmPanel } from "~/components/ui/confirm-dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { SectionHeader } from "~/components/ui/section-header";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { cleanupLogs, clearLog, countLogs, LOG_COUNT_CAP, listLogsPage, logRetentionDays, toLogDto } from "~/models/log.server";
import { isUuid } from "~/http/api.server";
import { requireOperator } from "~/http/auth.server";
import { pageAction } from "~/http/page-action.server";
import { RetryPage } from "~/components/ui/retry-page";

export const meta: MetaFunction = () => [{ title: "System Logs · Galaxy Toolbox" }];

/** Without JavaScript, auto-refresh is a plain-HTML refresh (see root.tsx); with JavaScript the page follows live events instead. */
export const handle = {
  noScriptRefreshSeconds: (d: unknown) => ((d as { params?: LogsPageParams } | undefined)?.params?.auto ? LOGS_AUTO_REFRESH_SECONDS : null),
};

/**
 * System Logs (spec 2 "Logs page (/logs)"): newest entries first, filtered by the URL, one
 * page of LOG_PAGE_SIZE at a time (issue 20). `before`/`after` in the URL page through the
 * rest (keyset on (timestamp, id), so a page costs the same at a million entries), and the
 * counts stop at LOG_COUNT_CAP ("1,000+") instead of counting the whole table per render.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const params = parseLogsPageParams(new URL(request.url).searchParams);
  // "Go to date" (issue 30 A5): the page of entries up to the end of that UTC day, as an "Older" link would name it.
  if (params.jump) {
    const zero = "00000000-0000-0000-0000-000000000000";
    const before = formatLogCursor({ at: dayEnd(params.jump).toISOString(), id: zero });
    // Nothing that old: the oldest entries from that day on ("← Newer" pages forward from there).
    const jumpFilter = {
      type: params.type,
      source: params.source,
      account: params.account,
      cleared: params.showCleared ? undefined : false,
      text: params.q || undefined,
    };
    const any = await listLogsPage(jumpFilter, { size: 1, before: parseLogCursor(before) });
    const to = any.entries.length
      ? { before, after: undefined }
      : { before: undefined, after: formatLogCursor({ at: dayStart(params.jump).toISOString(), id: zero }) };
    throw redirect(logsPageUrl({ ...params, jump: undefined, ...to, confirmCleanup: false }));
  }
  const filter = {
    type: params.type,
    source: params.source,
    account: params.account,
    cleared: params.showCleared ? undefined : false,
    text: params.q || undefined,
    from: params.from ? dayStart(params.from) : undefined,
    to: params.to ? dayEnd(params.to) : undefined,
  };
  const [first, matching] = await Promise.all([
    listLogsPage(filter, { size: LOG_PAGE_SIZE, before: parseLogCursor(params.before), after: parseLogCursor(params.after) }),
    countLogs(filter),
  ]);
  // An older page emptied meanwhile (cleaned up in another tab): show the newest one.
  const page = first.entries.length === 0 && params.before ? await listLogsPage(filter, { size: LOG_PAGE_SIZE }) : first;
  // Only an empty page needs to know whether the table holds anything at all (null otherwise).
  const total = page.entries.length === 0 ? await countLogs({}) : null;
  return data({
    params,
    logs: page.entries.map(toLogDto),
    older: page.older ? formatLogCursor(page.older) : null,
    newer: page.newer ? formatLogCursor(page.newer) : null,
    matching,
    total,
    countCap: LOG_COUNT_CAP,
    retentionDays: logRetentionDays(),
  });
}

/** The page a post came from (the path and search posted to), without the confirmation step. */
function backTo(postedTo: string): string {
  const params = parseLogsPageParams(new URL(postedTo, "http://logs").searchParams);
  return logsPageUrl({ ...params, confirmCleanup: false });
}

/** With JavaScript, a post that cannot reach the app keeps the screen (the form kit, issue 19). */
export const clientAction = keepInputOnFailure();
export const shouldRevalidate = reloadUnlessSubmitFailed();

/** Intents: `clear` (one entry, the row's Clear button) and `cleanup` ("Clean Old Logs"). */
export const action = pageAction<"clear" | "cleanup">({
  section: "System Logs",
  home: "/logs",
  failure: { clear: "Could not clear the log entry", cleanup: "Could not clean up the logs" },
  // Cleanup is a navigation (the confirm dialog's form): back to the page, with or without
  // JavaScript. Clear from a fetcher (no `redirectTo`) stays the fetcher's answer.
  defaultRedirectTo: (intent, postedTo) => (intent === "cleanup" ? backTo(postedTo) : null),
  intents: {
    clear: async ({ form, redirectTo }) => {
      const id = form.string("id");
      // An entry that is already gone (cleaned up in another tab) needs no message: the
      // list revalidates and the row disappears (spec 2 §8 Logs: no user message) — so the
      // answers are the quiet ones, not outcomes with a toast.
      const entry = isUuid(id) ? await clearLog(id) : undefined;
      // Issue 30 B5: without JavaScript the page says what the Clear did (with JavaScript the row goes at once).
      if (redirectTo) return entry ? LOG_CLEARED : redirect(redirectTo);
      return data({ ok: !!entry }, { status: entry ? 200 : 404 });
    },
    cleanup: async () => {
      const n = await cleanupLogs();
      return n === 1 ? "Deleted 1 log entry" : `Deleted ${n} log entries`;
    },
  },
});

/** The no-JS flash of a row's Clear. */
const LOG_CLEARED = "Log entry cleared";

function cleanupDescription(retentionDays: number) {
  return `This permanently deletes every cleared entry and every entry older than ${retentionDays} days. It cannot be undone.`;
}

/** A capped count as text: 1234 → "1,234", past the cap → "1,000+". */
export function countText(n: number, cap: number): string {
  return n > cap ? `${cap.toLocaleString("en-US")}+` : n.toLocaleString("en-US");
}

/** The line above the list: how many entries this page shows of how many match. */
export function showingText({ shown, matching, cap, paged }: { shown: number; matching: number; cap: number; paged: boolean }): string {
  // A page further down has no position to tell (keyset paging), only its share.
  if (paged) return `Showing ${shown} of ${countText(matching, cap)} ${matching === 1 ? "entry" : "entries"}`;
  if (matching > shown) return `Showing the newest ${shown} of ${countText(matching, cap)} entries`;
  return `${matching} ${matching === 1 ? "entry" : "entries"}`;
}

/**
 * The page's entries in one form: every row's Clear is a submit button of it (`name="id"`),
 * so the page carries one form, not one per row (issue 20). Without JavaScript the form
 * posts and the action redirects back to `returnTo`; with JavaScript each Clear goes
 * through its own fetcher and the row hides at once (or shows "Cleared" with Show cleared).
 */
function LogList({ logs, action, returnTo, showCleared, busy }: { logs: LogDto[]; action: string; returnTo: string; showCleared: boolean; busy: boolean }) {
  const hydrated = useHydrated();
  // Reading is everyone's; clearing is not a viewer's (issue 21).
  const canWrite = useCanWrite();
  const submit = useSubmit();
  const now = useListNow();
  const clearing = new Set(
    useFetchers()
      .filter((f) => f.key.startsWith("clear-log-") && f.state !== "idle" && f.formData?.get("intent") === "clear")
      .map((f) => String(f.formData?.get("id"))),
  );
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const button = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (!button?.value) return;
    event.preventDefault();
    submit({ intent: "clear", id: button.value }, { method: "post", action, navigate: false, fetcherKey: `clear-log-${button.value}` });
  };
  return (
    <form method="post" action={action} onSubmit={onSubmit} className="gt-log-form">
      <input type="hidden" name="intent" value="clear" />
      {hydrated ? null : <input type="hidden" name="redirectTo" value={returnTo} />}
      <ol className="gt-log-list" aria-label="Log entries" aria-busy={busy} data-busy={busy}>
        {logs.map((log) => {
          const pending = clearing.has(log._id);
          if (pending && !showCleared) return null;
          return <LogEntryRow key={log._id} log={log} cleared={log.cleared || pending} now={now} canClear={canWrite} />;
        })}
      </ol>
    </form>
  );
}

const PAGER_LINK = "rt-reset rt-BaseButton rt-r-size-2 rt-variant-soft rt-Button gt-touch";

/** "← Newer", "Newest" and "Older →": plain links (the URL holds the page), so they work without JavaScript. */
function LogPager({ params, older, newer }: { params: LogsPageParams; older: string | null; newer: string | null }) {
  if (!older && !newer && !params.before && !params.after) return null;
  const base = { ...params, before: undefined, after: undefined, confirmCleanup: false };
  return (
    <nav className="gt-log-pager" aria-label="Log pages">
      {params.before || params.after ? (
        <Link to={logsPageUrl(base)} className={PAGER_LINK} data-accent-color="gray">
          Newest
        </Link>
      ) : null}
      {newer ? (
        <Link to={logsPageUrl({ ...base, after: newer })} className={PAGER_LINK} data-accent-color="gray" rel="prev">
          ← Newer
        </Link>
      ) : null}
      {older ? (
        <Link to={logsPageUrl({ ...base, before: older })} className={`${PAGER_LINK} gt-log-older`} data-accent-color="gray" rel="next">
          Older →
        </Link>
      ) : null}
    </nav>
  );
}

export default function LogsRoute() {
  const { params, logs, older, newer, matching, total, countCap, retentionDays } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [manualRefresh, setManualRefresh] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  // Reading, filtering and refreshing are everyone's; cleaning is not a viewer's (issue 21).
  const canWrite = useCanWrite();
  // Issue 30 A5: new and cleared entries show as they happen (live events, docs/live.md), in
  // place of Auto-refresh; the spec's 5 s poll only while the stream is down.
  useLive(["logs"], { fallbackMs: LOGS_AUTO_REFRESH_SECONDS * 1000 });

  useEffect(() => {
    if (revalidator.state === "idle") setManualRefresh(false);
  }, [revalidator.state]);

  const here = logsPageUrl({ ...params, confirmCleanup: false });
  const cleaning = navigation.state !== "idle" && navigation.formData?.get("intent") === "cleanup";
  const filtered = !!(params.type || params.source || params.account || params.q || params.from || params.to);
  // Dim the list while new filters load (after a short delay in CSS, so quick loads never flash).
  const loadingList = navigation.state === "loading" && navigation.location.pathname === "/logs";

  return (
    <>
      <SectionHeader
        title="System Logs"
        actions={
          <>
            <Button asChild variant="soft" color="gray" loading={manualRefresh && revalidator.state === "loading"} className="gt-touch">
              <Link
                to={here}
                preventScrollReset
                onClick={(event) => {
                  event.preventDefault();
                  setManualRefresh(true);
                  revalidator.revalidate();
                }}
              >
                <ReloadIcon aria-hidden /> Refresh
              </Link>
            </Button>
            {canWrite ? (
              <Button asChild color="red" variant="soft" loading={cleaning} className="gt-touch">
                <Link
                  to={logsPageUrl({ ...params, confirmCleanup: true })}
                  preventScrollReset
                  onClick={(event) => {
                    event.preventDefault();
                    setConfirmOpen(true);
                  }}
                >
                  <TrashIcon aria-hidden /> Clean Old Logs
                </Link>
              </Button>
            ) : null}
          </>
        }
      />

      <ConfirmDialog
        open={canWrite && confirmOpen}
        onOpenChange={setConfirmOpen}
        title="Clean old logs?"
        description={cleanupDescription(retentionDays)}
        confirmLabel="Clean Old Logs"
        pending={cleaning}
        form={{ action: here, fields: { intent: "cleanup" } }}
      />
      {params.confirmCleanup && canWrite ? (
        <ConfirmPanel
          title="Clean old logs?"
          description={cleanupDescription(retentionDays)}
          confirmLabel="Clean Old Logs"
          cancelTo={here}
          form={{ action: here, fields: { intent: "cleanup", redirectTo: here } }}
        />
      ) : null}

      <ListSearch
        query={params.q}
        keep={["type", "source", "account", "from", "to", "showCleared", "auto"]}
        label="Search messages and accounts"
        placeholder="words or account id..."
      />
      <LogFilters params={params} />
      {params.account ? (
        <Text as="p" size="2" mb="2" data-testid="logs-account">
          Entries about account {params.account} ·{" "}
          <Link to={logsPageUrl({ ...params, account: undefined, confirmCleanup: false })} preventScrollReset>
            All accounts
          </Link>
        </Text>
      ) : null}

      {logs.length === 0 ? (
        !total ? (
          <EmptyState
            icon={<ReaderIcon width="28" height="28" />}
            title="No log entries yet"
            description="Errors, disconnects and notices from the server, the Galaxy login, the bots and Discord appear here as they happen."
          />
        ) : filtered ? (
          <EmptyState
            icon={<MixerHorizontalIcon width="28" height="28" />}
            title="No entries match these filters"
            description={
              params.showCleared
                ? "No entry matches these filters. Try others, or clear the filters."
                : "No open entry matches these filters. Try others, tick Show cleared, or clear the filters."
            }
            action={
              <Button asChild variant="soft">
                <Link to={logsPageUrl({ showCleared: params.showCleared, auto: params.auto, q: "" })}>Clear filters</Link>
              </Button>
            }
          />
        ) : (
          <EmptyState
            icon={<ReaderIcon width="28" height="28" />}
            title="All entries are cleared"
            description={`${total === 1 ? "The only entry is" : `All ${countText(total, countCap)} entries are`} cleared. Clean Old Logs deletes cleared entries for good.`}
            action={
              <Button asChild variant="soft">
                <Link to={logsPageUrl({ ...params, showCleared: true, confirmCleanup: false })}>Show cleared</Link>
              </Button>
            }
          />
        )
      ) : (
        <>
          <p className="rt-Text rt-r-size-1 gt-log-count" data-accent-color="gray" aria-live="polite">
            {showingText({ shown: logs.length, matching, cap: countCap, paged: !!(params.before || params.after) })}
          </p>
          <LogList logs={logs} action={here} returnTo={location.pathname + location.search} showCleared={params.showCleared} busy={loadingList} />
          <LogPager params={params} older={older} newer={newer} />
        </>
      )}
    </>
  );
}

/** The "failed" state: what went wrong in plain words, and Retry. */
export function ErrorBoundary() {
  return <RetryPage section="System Logs" title="Could not load the logs" description="The log store did not answer. This is usually brief; try again." />;
}
