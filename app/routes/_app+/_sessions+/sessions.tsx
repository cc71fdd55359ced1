import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import {
  BULK_MAX,
  OPS_TEXTS,
  parseSessionRef,
  parseSessionsFilter,
  SESSIONS_PAGE_SIZE,
  sessionsUrl,
  type BulkAction,
  type SessionsFilter,
} from "#api/operations";
import { RetryPage } from "~/components/ui/retry-page";
import { SectionHeader } from "~/components/ui/section-header";
import { bulkSessions, drainWorker, listSessions, listWorkers, stopLoses, workerIds, type SessionTarget } from "~/models/sessions-list.server";
import { AppError } from "~/utils/app-error";
import { requireOperator } from "~/http/auth.server";
import { pageAction, withSearchParam, type FormFields } from "~/http/page-action.server";
import { SessionsScreen } from "./components/sessions-screen";

/**
 * The Sessions page (issue 31 item 1; docs/sessions.md "The Sessions page"): every session of
 * every purpose in one list — purpose, account, state (the one phase every screen shows),
 * since, holder worker, attempt and next try, the last error with its System Logs link, a
 * relay connection's counters — one page of 50 at a time, problems first. Filters (purpose,
 * state, worker, search) and the page live in the URL (a GET form and links: works without
 * JavaScript); the list follows session and worker events live.
 *
 * Operators and admins select sessions and stop, start or restart them (one navigating form:
 * the same with and without JavaScript). A stop that loses something (a trading run's
 * position and counts) asks first; every other stop offers Undo (starts them again). The
 * Workers panel shows each worker's beat, sessions per purpose, memory and version, with
 * Drain / Undrain.
 */
export const meta: MetaFunction = () => [{ title: "Sessions · Galaxy Toolbox" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireOperator(request);
  const url = new URL(request.url);
  const parsed = parseSessionsFilter(url.searchParams, false);
  const filter = "filter" in parsed ? parsed.filter : { page: 1 };
  const [list, workers, knownWorkers] = await Promise.all([listSessions(filter), listWorkers().catch(() => null), workerIds()]);
  // A page past the end (sessions stopped and gone from a filter meanwhile): the last one.
  if (!list.sessions.length && filter.page > 1 && list.page_count > 0) throw redirect(sessionsUrl({ ...filter, page: list.page_count }));
  const refs = (name: string) =>
    (url.searchParams.get(name) ?? "")
      .split(",")
      .map((r) => parseSessionRef(r))
      .filter((t): t is SessionTarget => !!t)
      .slice(0, BULK_MAX);
  const confirmAction = url.searchParams.get("confirm");
  const confirm = confirmAction === "stop" || confirmAction === "restart" ? { action: confirmAction as BulkAction, targets: refs("selected") } : null;
  const undo = refs("undo");
  return data({
    // The boxes ticked again after a refused bulk action (`selected` without `confirm`), or those the confirmation names.
    ticked: refs("selected").map((t) => `${t.purpose}:${t.key}`),
    filter,
    list,
    workers,
    workerChoices: [...new Set([...knownWorkers, ...(filter.worker ? [filter.worker] : [])])],
    confirm: confirm && confirm.targets.length ? confirm : null,
    undo: undo.length ? undo : null,
    // "No matches" (with Clear filters) when filtered, else "nothing yet" when the list is empty.
    anySession: list.total > 0 || !!(filter.purpose || filter.state || filter.worker || filter.q),
  });
}

type Intent = BulkAction | "undo" | "drain" | "undrain";

function selected(form: FormFields): SessionTarget[] {
  const raw = form
    .all("s")
    .flatMap((v) => v.split(","))
    .filter(Boolean);
  if (!raw.length) throw new AppError(400, OPS_TEXTS.noneSelected);
  if (raw.length > BULK_MAX) throw new AppError(400, OPS_TEXTS.tooMany);
  const targets = raw.map((r) => parseSessionRef(r));
  if (targets.some((t) => !t)) throw new AppError(400, OPS_TEXTS.badSelection);
  const seen = new Set<string>();
  return (targets as SessionTarget[]).filter((t) => {
    const k = `${t.purpose}:${t.key}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The list the form was posted from, without the confirmation and Undo steps. */
function listOf(postedTo: string): SessionsFilter {
  const parsed = parseSessionsFilter(new URL(postedTo, "http://x").searchParams, false);
  return "filter" in parsed ? parsed.filter : { page: 1 };
}

const refsOf = (targets: readonly SessionTarget[]) => targets.map((t) => `${t.purpose}:${t.key}`).join(",");

/**
 * The boxes to tick again after a refused bulk action (issue 30 A6: without JavaScript the page
 * came back unticked after "too many" or "not found"): the posted sessions that were not acted
 * on, as the `selected` parameter of the page redirected to (the toast says why). Only well-formed
 * refs, at most one page's worth (a page holds SESSIONS_PAGE_SIZE boxes), so the URL stays short.
 */
function tickedAgain(form: FormFields, done: readonly SessionTarget[] = []): Record<string, string> {
  const acted = new Set(done.map((t) => `${t.purpose}:${t.key}`));
  const refs = form
    .all("s")
    .flatMap((v) => v.split(","))
    .map((r) => parseSessionRef(r))
    .filter((t): t is SessionTarget => !!t)
    .map((t) => `${t.purpose}:${t.key}`)
    .filter((r) => !acted.has(r));
  const ticked = [...new Set(refs)].slice(0, SESSIONS_PAGE_SIZE);
  return ticked.length ? { selected: ticked.join(",") } : {};
}

function bulk(action: BulkAction) {
  return async ({ form, redirectTo }: { form: FormFields; redirectTo: string | null }) => {
    const targets = selected(form);
    const back = listOf(redirectTo ?? "/sessions");
    // A stop that loses something asks first (a trading run restarts fresh: position and counts reset).
    if (action !== "start" && !form.checked("confirmed") && stopLoses(targets).length) {
      return { ok: true, message: "", toast: false as const, redirectTo: sessionsUrl(back, { confirm: action, selected: refsOf(targets) }) };
    }
    const outcome = await bulkSessions(action, targets);
    // Undo where stopping lost nothing: start again what this stop stopped.
    const undoable = action === "stop" && outcome.done.length > 0 && !stopLoses(outcome.done).length;
    return {
      ok: outcome.ok,
      status: outcome.ok ? 200 : outcome.done.length ? 207 : 409,
      message: outcome.message,
      redirectTo: sessionsUrl(back, { ...(undoable ? { undo: refsOf(outcome.done) } : {}), ...(outcome.ok ? {} : tickedAgain(form, outcome.done)) }),
    };
  };
}

export const action = pageAction<Intent>({
  section: "Sessions",
  home: "/sessions",
  failure: { ...OPS_TEXTS.failedBulk, undo: OPS_TEXTS.failedBulk.start, drain: OPS_TEXTS.failedDrain, undrain: "Failed to undrain worker" },
  // Every form of the page navigates: back to the list it was posted from, with the toast.
  defaultRedirectTo: (_intent, postedTo) => sessionsUrl(listOf(postedTo)),
  // A bulk action refused as a whole ("too many", a selection that is not one): the same boxes ticked.
  errorRedirectTo: (form, redirectTo) => {
    const intent = form.string("intent");
    const ticked = intent === "stop" || intent === "start" || intent === "restart" ? tickedAgain(form).selected : undefined;
    return ticked ? withSearchParam(redirectTo, "selected", ticked) : redirectTo;
  },
  intents: {
    stop: bulk("stop"),
    start: bulk("start"),
    restart: bulk("restart"),
    undo: async (ctx) => {
      const outcome = await bulk("start")(ctx);
      return { ...outcome, redirectTo: sessionsUrl(listOf(ctx.redirectTo ?? "/sessions")) };
    },
    drain: async ({ form }) => (await drainWorker(form.required("worker", "Choose a worker"), true)).message,
    undrain: async ({ form }) => (await drainWorker(form.required("worker", "Choose a worker"), false)).message,
  },
});

export default function SessionsRoute() {
  const loaded = useLoaderData<typeof loader>();
  return (
    <>
      <SectionHeader title="Sessions" />
      <SessionsScreen {...loaded} />
    </>
  );
}

/** The "failed" state: what went wrong in plain words, and Retry. */
export function ErrorBoundary() {
  return <RetryPage section="Sessions" title="Could not load the sessions" description="The database did not answer. This is usually brief; try again." />;
}
