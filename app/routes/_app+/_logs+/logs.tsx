import { ExclamationTriangleIcon, MixerHorizontalIcon, ReaderIcon, ReloadIcon, TrashIcon } from "~/components/ui/icons";
import { Button, Text } from "@radix-ui/themes";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { keepInputOnFailure, reloadUnlessSubmitFailed } from "~/components/ui/submit-failure";
import { useEffect, useState } from "react";
import { LOG_LIST_LIMIT } from "#api/logs";
import { LogEntryCard } from "~/routes/_app+/_logs+/components/log-entry";
import { LogFilters } from "~/routes/_app+/_logs+/components/log-filters";
import { LOGS_AUTO_REFRESH_SECONDS, logsPageUrl, parseLogsPageParams, type LogsPageParams } from "~/routes/_app+/_logs+/components/log-params";
import { ConfirmDialog, ConfirmPanel } from "~/components/ui/confirm-dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { SectionHeader } from "~/components/ui/section-header";
import { useCanWrite } from "~/components/ui/write-only";
import { cleanupLogs, clearLog, countLogs, listLogs, logRetentionDays, toLogDto } from "~/models/log.server";
import { isUuid } from "~/utils/api.server";
import { requireOperator, safeRedirect } from "~/utils/auth.server";
import { redirectWithSuccess } from "~/utils/toast.server";
import { readFormData } from "~/utils/forms.server";

export const meta: MetaFunction = () => [{ title: "System Logs · Galaxy Toolbox" }];

/** Without JavaScript, auto-refresh is a plain-HTML refresh (see root.tsx). */
export const handle = {
  noScriptRefreshSeconds: (d: unknown) => ((d as { params?: LogsPageParams } | undefined)?.params?.auto ? LOGS_AUTO_REFRESH_SECONDS : null),
};

/** System Logs (spec 2 "Logs page (/logs)"): newest entries first, filtered by the URL. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const params = parseLogsPageParams(new URL(request.url).searchParams);
  const filter = { type: params.type, source: params.source, account: params.account, cleared: params.showCleared ? undefined : false };
  const [rows, matching, total] = await Promise.all([listLogs({ ...filter, limit: LOG_LIST_LIMIT }), countLogs(filter), countLogs()]);
  return data({
    params,
    logs: rows.map(toLogDto),
    matching,
    total,
    retentionDays: logRetentionDays(),
  });
}

/** The page this post came from, without the confirmation step. */
function backTo(request: Request, redirectTo: FormDataEntryValue | null): string {
  if (redirectTo) return safeRedirect(redirectTo, "/logs");
  const params = parseLogsPageParams(new URL(request.url).searchParams);
  return logsPageUrl({ ...params, confirmCleanup: false });
}

/** Intents: `clear` (one entry, the row's Clear button) and `cleanup` ("Clean Old Logs"). */
/** With JavaScript, a post that cannot reach the app keeps the screen and what was typed (the form kit, issue 19). */
export const clientAction = keepInputOnFailure();
export const shouldRevalidate = reloadUnlessSubmitFailed();

export async function action({ request }: ActionFunctionArgs) {
  await requireOperator(request);
  const form = await readFormData(request);
  const intent = form.get("intent");
  const redirectTo = form.get("redirectTo");

  if (intent === "clear") {
    const id = String(form.get("id") ?? "");
    // An entry that is already gone (cleaned up in another tab) needs no message: the
    // list revalidates and the row disappears (spec 2 §8 Logs: no user message).
    const entry = isUuid(id) ? await clearLog(id) : undefined;
    if (redirectTo) return redirect(backTo(request, redirectTo));
    return data({ ok: !!entry }, { status: entry ? 200 : 404 });
  }

  if (intent === "cleanup") {
    const n = await cleanupLogs();
    return redirectWithSuccess(backTo(request, redirectTo), n === 1 ? "Deleted 1 log entry" : `Deleted ${n} log entries`);
  }

  return data({ error: "Unknown intent" }, { status: 400 });
}

function cleanupDescription(retentionDays: number) {
  return `This permanently deletes every cleared entry and every entry older than ${retentionDays} days. It cannot be undone.`;
}

/** Re-reads the list every 5 s while auto-refresh is on and the tab is visible. */
function useAutoRefresh(on: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, LOGS_AUTO_REFRESH_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [on, revalidator]);
}

export default function LogsRoute() {
  const { params, logs, matching, total, retentionDays } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [manualRefresh, setManualRefresh] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  // Reading, filtering and refreshing are everyone's; cleaning is not a viewer's (issue 21).
  const canWrite = useCanWrite();
  useAutoRefresh(params.auto);

  useEffect(() => {
    if (revalidator.state === "idle") setManualRefresh(false);
  }, [revalidator.state]);

  const here = logsPageUrl({ ...params, confirmCleanup: false });
  const cleaning = navigation.state !== "idle" && navigation.formData?.get("intent") === "cleanup";
  const filtered = !!(params.type || params.source || params.account);
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
        total === 0 ? (
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
                ? "No entry has this type and source. Try others, or clear the filters."
                : "No open entry has this type and source. Try others, tick Show cleared, or clear the filters."
            }
            action={
              <Button asChild variant="soft">
                <Link to={logsPageUrl({ showCleared: params.showCleared, auto: params.auto })}>Clear filters</Link>
              </Button>
            }
          />
        ) : (
          <EmptyState
            icon={<ReaderIcon width="28" height="28" />}
            title="All entries are cleared"
            description={`${total === 1 ? "The only entry is" : `All ${total} entries are`} cleared. Clean Old Logs deletes cleared entries for good.`}
            action={
              <Button asChild variant="soft">
                <Link to={logsPageUrl({ ...params, showCleared: true, confirmCleanup: false })}>Show cleared</Link>
              </Button>
            }
          />
        )
      ) : (
        <>
          <Text as="p" size="1" color="gray" mb="2" aria-live="polite">
            {matching > logs.length ? `Showing the newest ${logs.length} of ${matching} entries` : `${matching} ${matching === 1 ? "entry" : "entries"}`}
          </Text>
          <ol className="gt-log-list" aria-label="Log entries" aria-busy={loadingList} data-busy={loadingList}>
            {logs.map((log) => (
              <LogEntryCard key={log._id} log={log} action={here} returnTo={location.pathname + location.search} showCleared={params.showCleared} />
            ))}
          </ol>
        </>
      )}
    </>
  );
}

/** The "failed" state: what went wrong in plain words, and Retry. */
export function ErrorBoundary() {
  const location = useLocation();
  return (
    <>
      <SectionHeader title="System Logs" />
      <EmptyState
        tone="error"
        icon={<ExclamationTriangleIcon width="28" height="28" />}
        title="Could not load the logs"
        description="The log store did not answer. This is usually brief; try again."
        action={
          <Button asChild>
            <Link to={location.pathname + location.search} reloadDocument>
              <ReloadIcon aria-hidden /> Retry
            </Link>
          </Button>
        }
      />
    </>
  );
}
