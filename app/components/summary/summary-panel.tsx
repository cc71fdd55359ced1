import { Box, Button, Card, Flex, Heading, Skeleton, Text } from "@radix-ui/themes";
import { Link, useLocation, useSearchParams } from "@remix-run/react";
import { useState, type MouseEvent } from "react";
import {
  dayLabel,
  formatNet,
  formatReceived,
  formatSpent,
  GIFT_RATE_NAMES,
  SUMMARY_COLLAPSED_ROWS,
  SUMMARY_TEXTS,
  valueDay,
  type DailyTotal,
  type GiftRates,
} from "#api/summary";
import { GiftImage } from "~/components/gift-image";
import { lazyComponent } from "~/components/ui/lazy-component";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { GiftRatesDialog as GiftRatesDialogNow } from "./gift-rates-dialog";
import { NetChart, type NetPoint } from "./net-chart";

/** Serialisable panel data; `loadSummary()` (app/models/summary.server.ts) makes it. */
export type SummaryPanelData = {
  dailyTotals: DailyTotal[];
  rates: GiftRates;
  chart: NetPoint[] | null;
  failed: boolean;
};

/** URL parameters: `summary=all` expands the rows, `dialog=gift-rates` opens Gift Rates (no-JS paths). */
export const SUMMARY_EXPAND_PARAM = "summary";
export const GIFT_RATES_DIALOG = "gift-rates";

const GiftRatesDialogLazy = lazyComponent(() => import("./gift-rates-dialog").then((m) => m.GiftRatesDialog), {
  server: import.meta.env.SSR ? GiftRatesDialogNow : undefined,
});

function hrefWith(pathname: string, params: URLSearchParams, key: string, value: string | null) {
  const next = new URLSearchParams(params);
  if (value === null) next.delete(key);
  else next.set(key, value);
  const q = next.toString();
  return q ? `${pathname}?${q}` : pathname;
}

function Chevron({ up }: { up: boolean }) {
  return (
    <svg width="15" height="15" viewBox="0 0 15 15" aria-hidden="true" style={{ transform: up ? "rotate(180deg)" : undefined }}>
      <path d="M3.5 5.5 7.5 9.5 11.5 5.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * The non-zero counts of a day in one fixed order (issue 19 item 12: the days listed gifts in
 * whatever order the platform gave): the order of spec 2 §3's gift rate names, other names after them, A–Z.
 */
export function orderedGiftCounts(counts: Record<string, number>): Array<[string, number]> {
  const rank = (name: string) => {
    const i = (GIFT_RATE_NAMES as readonly string[]).indexOf(name);
    return i === -1 ? GIFT_RATE_NAMES.length : i;
  };
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

function GiftCounts({ counts, color, label }: { counts: Record<string, number>; color: "red" | "blue"; label: string }) {
  const entries = orderedGiftCounts(counts);
  return (
    <Flex gap="2" wrap="wrap" align="center" aria-label={label} data-testid={color === "red" ? "summary-spent" : "summary-awards"}>
      {entries.map(([name, n]) => (
        <Flex key={name} align="center" gap="1" title={name}>
          <GiftImage name={name} size={20} />
          <Text size="1" color={color} weight="medium">
            {n}
          </Text>
        </Flex>
      ))}
    </Flex>
  );
}

function SummaryRow({ total, rates }: { total: DailyTotal; rates: GiftRates }) {
  const { day, month } = dayLabel(total.date);
  const value = valueDay(total, rates);
  return (
    <Flex gap="3" align="center" py="2" className="gt-summary-row" data-testid="summary-row" style={{ borderTop: "1px solid var(--gray-a5)" }} wrap="wrap">
      <Flex direction="column" align="center" style={{ minWidth: 36 }}>
        <Text size="4" weight="bold">
          {day}
        </Text>
        <Text size="1" color="gray">
          {month}
        </Text>
      </Flex>
      <Flex direction="column" gap="1" style={{ flex: "1 1 160px", minWidth: 0 }}>
        <GiftCounts counts={total.ballStats} color="red" label="Items spent" />
        <GiftCounts counts={total.awards} color="blue" label="Awards received" />
      </Flex>
      {value ? (
        <Flex direction="column" align="end" style={{ minWidth: 64 }} data-testid="summary-values">
          <Text size="1" color="red">
            {formatSpent(value.spent)}
          </Text>
          <Text size="1" color="blue">
            {formatReceived(value.received)}
          </Text>
          <Text size="2" color="green" weight="bold">
            {formatNet(value.net)}
          </Text>
        </Flex>
      ) : null}
    </Flex>
  );
}

/** Skeleton rows while the panel's data loads (spec 2 §2 "A loading skeleton shows while loading"). */
export function SummarySkeleton() {
  return (
    <Flex direction="column" gap="2" data-testid="summary-skeleton" aria-busy="true">
      {[0, 1].map((i) => (
        <Skeleton key={i} height="44px" />
      ))}
    </Flex>
  );
}

/**
 * The Summary panel (spec 2 §2 "All Characters screen" / spec 1 §2 "Bowling Bots section"),
 * shared by both sections. `summary` undefined renders the loading skeleton.
 */
export function SummaryPanel({ summary }: { summary: SummaryPanelData | undefined }) {
  const location = useLocation();
  const [params] = useSearchParams();
  const hydrated = useHydrated();
  const expandedInUrl = params.get(SUMMARY_EXPAND_PARAM) === "all";
  const [expanded, setExpanded] = useState(expandedInUrl);
  const dialogInUrl = params.get("dialog") === GIFT_RATES_DIALOG;
  const [dialogOpen, setDialogOpen] = useState(false);
  // Gift rates are edited in the dialog: not offered to a viewer (issue 21).
  const canWrite = useCanWrite();
  const open = canWrite && (hydrated ? dialogOpen || dialogInUrl : dialogInUrl);

  const totals = summary?.dailyTotals ?? [];
  const rows = expanded || expandedInUrl ? totals : totals.slice(0, SUMMARY_COLLAPSED_ROWS);
  const showChevron = totals.length > SUMMARY_COLLAPSED_ROWS;
  const isExpanded = expanded || expandedInUrl;
  const closeHref = hrefWith(location.pathname, params, "dialog", null);

  const toggle = (e: MouseEvent) => {
    if (!hydrated) return;
    e.preventDefault();
    setExpanded(!isExpanded);
  };
  const openDialog = (e: MouseEvent) => {
    if (!hydrated) return;
    e.preventDefault();
    setDialogOpen(true);
  };

  return (
    <Card asChild className="gt-summary">
      <section aria-labelledby="gt-summary-title" data-testid="summary-panel">
        <Flex align="center" gap="3" mb="2" wrap="wrap">
          <Heading as="h2" size="4" id="gt-summary-title">
            {SUMMARY_TEXTS.title}
          </Heading>
          {canWrite ? (
            <Button asChild size="1" variant="soft">
              <Link to={hrefWith(location.pathname, params, "dialog", GIFT_RATES_DIALOG)} onClick={openDialog} preventScrollReset>
                {SUMMARY_TEXTS.giftRates}
              </Link>
            </Button>
          ) : null}
        </Flex>
        {open ? (
          <GiftRatesDialogLazy
            open={open}
            initialRates={summary?.rates ?? {}}
            action={hrefWith(location.pathname, params, "dialog", GIFT_RATES_DIALOG)}
            closeHref={closeHref}
            redirectTo={closeHref}
            onClose={() => {
              setDialogOpen(false);
            }}
          />
        ) : null}
        {!summary ? (
          <SummarySkeleton />
        ) : summary.failed ? (
          <Text as="p" size="2" color="red" role="alert">
            {SUMMARY_TEXTS.loadFailed}
          </Text>
        ) : totals.length === 0 ? (
          <Text as="p" size="2" color="gray">
            {SUMMARY_TEXTS.empty}
          </Text>
        ) : (
          <Box>
            {summary.chart ? (
              <Box mb="2">
                <NetChart points={summary.chart} />
              </Box>
            ) : null}
            {rows.map((t) => (
              <SummaryRow key={t.date} total={t} rates={summary.rates} />
            ))}
            {showChevron ? (
              <Flex justify="center" mt="1">
                <Button asChild variant="ghost" size="1" color="gray">
                  <Link
                    to={hrefWith(location.pathname, params, SUMMARY_EXPAND_PARAM, isExpanded ? null : "all")}
                    onClick={toggle}
                    preventScrollReset
                    aria-expanded={isExpanded}
                    aria-label={isExpanded ? "Show fewer days" : "Show all days"}
                    data-testid="summary-chevron"
                  >
                    <Chevron up={isExpanded} />
                  </Link>
                </Button>
              </Flex>
            ) : null}
          </Box>
        )}
      </section>
    </Card>
  );
}
