import { Box, Heading, Text } from "@radix-ui/themes";
import { useLocation } from "@remix-run/react";
import { TRADING_LIMITS, type PlanetSequence } from "#api/trading";
import { ConfirmPanel } from "~/components/ui/confirm-dialog";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { ListSearch } from "~/components/ui/list-search";
import { searchSummary } from "~/utils/list-search";
import { PAGE_PARAMS, Pager, SEARCH_PARAMS, type ListPage } from "./pager";
import { SequenceCard } from "./sequence-card";
import { SortableSequences } from "./sortable-sequences";

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

/** The list without drag: a viewer's, and a search's (a filtered window is not a run of neighbours to reorder). */
export function StaticSequences({ sequences, offset, total, places, ...rest }: SequenceListProps) {
  return (
    <ol className="gt-sequence-list" start={offset + 1}>
      {sequences.map((s, i) => (
        <SequenceCard key={s._id} sequence={s} index={places?.[i] ?? offset + i} count={total} {...rest} />
      ))}
    </ol>
  );
}

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
