import { Box, Heading, Text } from "@radix-ui/themes";
import { useLocation } from "@remix-run/react";
import { TRADING_LIMITS, type PlanetSequence } from "#api/trading";
import { ConfirmPanel } from "~/components/ui/confirm-dialog";
import { lazyComponent } from "~/components/ui/lazy-component";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { ListSearch } from "~/components/ui/list-search";
import { searchSummary } from "~/utils/list-search";
import { PAGE_PARAMS, Pager, SEARCH_PARAMS, type ListPage } from "./pager";
import { SequenceCard } from "./sequence-card";

/**
 * `sequences` are the shown page of the list; `offset` is the first one's place in the whole
 * list and `total` its length (issue 20 "Bounded pages"): move up/down and drag work on the
 * whole list's places.
 */
export type SequenceListProps = {
  sequences: PlanetSequence[];
  offset: number;
  total: number;
  here: string;
  canWrite: boolean;
  hydrated: boolean;
  linkWith: (name: string, value: string | null) => string;
  /** With a search: each shown sequence's place in the whole list (the rows are not contiguous). */
  places?: number[] | null;
};

/** The list without drag (server render, no JavaScript, and until dnd-kit has loaded). */
export function StaticSequences({ sequences, offset, total, places, ...rest }: SequenceListProps) {
  return (
    <ol className="gt-sequence-list" start={offset + 1}>
      {sequences.map((s, i) => (
        <SequenceCard key={s._id} sequence={s} index={places?.[i] ?? offset + i} count={total} {...rest} />
      ))}
    </ol>
  );
}

/**
 * dnd-kit loads after the page (first-load budget): mouse (5 px), touch (120 ms long press)
 * and keyboard. The server renders the static list (its move up/down forms are the reorder
 * without JavaScript); the server build has no dynamic import at all (`import.meta.env.SSR`
 * is a build constant), so it stays one file (see lazyComponent).
 */
const SortableSequences = lazyComponent<SequenceListProps>(
  () => (import.meta.env.SSR ? Promise.resolve(StaticSequences) : import("./sortable-sequences").then((m) => m.SortableSequences)),
  {
    server: import.meta.env.SSR ? StaticSequences : undefined,
    fallback: (props) => <StaticSequences {...props} />,
  },
);

/** Spec 2 §2: the sequences in a scrollable box of 400 px (§9). */
export function SequenceList({
  sequences,
  confirm,
  linkWith,
  page,
  search,
}: {
  sequences: PlanetSequence[];
  confirm: string | null;
  linkWith: SequenceListProps["linkWith"];
  page?: ListPage;
  /** The name search (`seqQ`, issue 32 item 2): the query, the shown rows' places, how many sequences exist. */
  search?: { query: string; places: number[] | null; all: number };
}) {
  // A viewer gets the list without drag, switches, moves, edit or delete (issue 21).
  const canWrite = useCanWrite();
  const hydrated = useHydrated();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const offset = page ? (page.page - 1) * page.per : 0;
  const query = search?.query ?? "";
  // Searching, the move buttons work on the whole list's places and the drag is off (a
  // filtered window is not a run of neighbours to reorder).
  const props: SequenceListProps = {
    sequences,
    offset,
    total: query ? (search?.all ?? sequences.length) : (page?.total ?? sequences.length),
    here,
    canWrite,
    hydrated,
    linkWith,
    places: query ? search?.places : null,
  };
  const confirming = canWrite && confirm?.startsWith("sequence:") ? sequences.find((s) => s._id === confirm.slice("sequence:".length)) : undefined;
  return (
    <Box asChild>
      <section aria-labelledby="gt-sequences-title">
        <Heading as="h2" size="4" mb="2" id="gt-sequences-title">
          Sequences
        </Heading>
        {confirming ? (
          <ConfirmPanel
            title="Delete Sequence"
            description={`Are you sure you want to delete “${confirming.name}”?`}
            confirmLabel="Delete"
            cancelTo={linkWith("confirm", null)}
            // Posted to this URL (`confirm` kept): a post that fails leaves the question open (the form kit).
            // Without `redirectTo` the answer goes to this URL without `confirm` (the action's `home`).
            form={{ action: here, fields: { intent: "sequence-delete", id: confirming._id } }}
          />
        ) : null}
        {search && (search.all || query) ? (
          <ListSearch
            query={query}
            param={SEARCH_PARAMS.sequences}
            label="Search sequences"
            placeholder="sequence name..."
            keep={[SEARCH_PARAMS.ads, PAGE_PARAMS.ads, PAGE_PARAMS.msg, PAGE_PARAMS.traders, "planets"]}
          />
        ) : null}
        {query && page ? (
          <Text as="p" size="1" color="gray" mb="2" role="status">
            {searchSummary(page.total, search?.all ?? 0, ["sequence", "sequences"], query)}
          </Text>
        ) : null}
        <Box className="gt-sequence-box" style={{ maxHeight: TRADING_LIMITS.listHeightPx, overflowY: "auto" }} data-testid="sequence-box">
          {sequences.length ? (
            canWrite && !query ? (
              <SortableSequences {...props} />
            ) : (
              <StaticSequences {...props} />
            )
          ) : (
            <Text as="p" color="gray" size="2">
              {query ? `No sequences match “${query}”.` : canWrite ? "No sequences yet. Use New Sequence to add one." : "No sequences yet."}
            </Text>
          )}
        </Box>
        <Pager label="Sequence pages" param={PAGE_PARAMS.sequences} of={page} />
      </section>
    </Box>
  );
}
