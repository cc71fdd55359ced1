import { Box, Container } from "@radix-ui/themes";
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { jobEngineStatus } from "~/queue/status.server";
import { AppHeader } from "~/components/shell/app-header";
import type { JobsState } from "~/components/shell/jobs-badge";
import { floatingPanelData } from "~/models/collections-panel.server";
import { waitingSummary } from "~/models/session.server";
import { CollectionsFloatingPanel as FloatingPanelNow } from "~/routes/_app+/_collections+/components/floating-panel";
import { LiveProvider } from "~/components/live/live";
import { DegradedBanner } from "~/components/live/degraded-banner";
import { lazyComponent } from "~/components/ui/lazy-component";
import { canWrite, getAuth, requireOperator } from "~/http/auth.server";
import { rememberSectionHeader } from "~/http/section.server";
import { keepDataWhenUnreachable, rememberLoaderData } from "~/utils/unreachable";

/**
 * The Collections floating panel shows only while an account is connected: its code loads
 * when it first renders, not with every section (bench/first-load.ts); the server renders it
 * in the HTML as before (no-JavaScript path).
 */
const CollectionsFloatingPanel = lazyComponent(() => import("~/routes/_app+/_collections+/components/floating-panel").then((m) => m.CollectionsFloatingPanel), {
  server: import.meta.env.SSR ? FloatingPanelNow : undefined,
});

/** The badge must never hold up or break a page: an answer within this time, or "offline". */
const JOBS_STATUS_TIMEOUT_MS = 800;

async function jobsState(): Promise<JobsState> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<JobsState>((resolve) => {
    timer = setTimeout(() => resolve({ redis: "down", worker: "unknown" }), JOBS_STATUS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([jobEngineStatus(), timeout]);
  } catch {
    return { redis: "down", worker: "unknown" };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The main app shell (spec 2, "Main app shell") around every section and System Logs:
 * the operator, the job engine badge, and — on a section page — the cookie that makes
 * `/` open this section next time.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireOperator(request);
  // What this operator may do (docs/decisions/0016): screens read it through useCanWrite().
  const auth = await getAuth(request);
  const writer = auth ? canWrite(auth) : false;
  const jobs = await jobsState();
  const setCookie = rememberSectionHeader(request);
  // The Collections floating panel (spec 2 "Main app shell"; issue 12); never holds up the shell.
  const [collectionsPanel, waiting] = await Promise.all([
    floatingPanelData(request, operator.id).catch(() => null),
    // Sessions no worker holds (the header's "waiting for a worker"); never holds up the shell.
    jobs.redis === "up" ? waitingSummary().catch(() => ({ keys: [] as string[], text: null })) : Promise.resolve({ keys: [] as string[], text: null }),
  ]);
  return data(
    { operator: { name: operator.name, role: operator.role, canWrite: writer }, jobs, collectionsPanel, waiting: waiting.keys, waitingText: waiting.text },
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

/**
 * Moving between sections must reach the loader (it remembers the section), and it
 * refreshes the jobs badge on the way; staying on one page follows Remix's defaults.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  currentUrl.pathname !== nextUrl.pathname || defaultShouldRevalidate;

const ROUTE_ID = "routes/_app+/_layout";

/** A revalidation that cannot reach the server keeps the shell as it is (app/utils/unreachable.ts). */
export const clientLoader = keepDataWhenUnreachable(ROUTE_ID);

export default function AppLayout() {
  const loaded = useLoaderData<typeof loader>();
  rememberLoaderData(ROUTE_ID, loaded);
  const { operator, jobs, collectionsPanel, waiting, waitingText } = loaded;
  return (
    <LiveProvider>
      <Box className="gt-shell" data-role={operator.role} data-can-write={String(operator.canWrite)}>
        <a href="#main" className="gt-skip-link">
          Skip to content
        </a>
        <AppHeader operatorName={operator.name} role={operator.role} canWrite={operator.canWrite} jobs={jobs} waiting={waiting} waitingText={waitingText} />
        <DegradedBanner />
        <main id="main" tabIndex={-1} className="gt-main">
          <Container size="4" px={{ initial: "3", sm: "5" }} py={{ initial: "4", sm: "5" }}>
            <Outlet />
          </Container>
        </main>
        {collectionsPanel ? <CollectionsFloatingPanel panel={collectionsPanel} /> : null}
      </Box>
    </LiveProvider>
  );
}
