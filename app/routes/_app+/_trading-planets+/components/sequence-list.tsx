import { Box, Heading, Text } from "@radix-ui/themes";
import { useLocation } from "@remix-run/react";
import { TRADING_LIMITS, type PlanetSequence } from "#api/trading";
import { ConfirmPanel } from "~/components/ui/confirm-dialog";
import { lazyComponent } from "~/components/ui/lazy-component";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useCanWrite } from "~/components/ui/write-only";
import { PAGE_PARAMS, Pager, type ListPage } from "./pager";
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
};

/** The list without drag (server render, no JavaScript, and until dnd-kit has loaded). */
export function StaticSequences({ sequences, offset, total, ...rest }: SequenceListProps) {
  return (
    <ol className="gt-sequence-list" start={offset + 1}>
      {sequences.map((s, i) => (
        <SequenceCard key={s._id} sequence={s} index={offset + i} count={total} {...rest} />
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
}: {
  sequences: PlanetSequence[];
  confirm: string | null;
  linkWith: SequenceListProps["linkWith"];
  page?: ListPage;
}) {
  // A viewer gets the list without drag, switches, moves, edit or delete (issue 21).
  const canWrite = useCanWrite();
  const hydrated = useHydrated();
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  const offset = page ? (page.page - 1) * page.per : 0;
  const props: SequenceListProps = { sequences, offset, total: page?.total ?? sequences.length, here, canWrite, hydrated, linkWith };
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
        <Box className="gt-sequence-box" style={{ maxHeight: TRADING_LIMITS.listHeightPx, overflowY: "auto" }} data-testid="sequence-box">
          {sequences.length ? (
            canWrite ? (
              <SortableSequences {...props} />
            ) : (
              <StaticSequences {...props} />
            )
          ) : (
            <Text as="p" color="gray" size="2">
              {canWrite ? "No sequences yet. Use New Sequence to add one." : "No sequences yet."}
            </Text>
          )}
        </Box>
        <Pager label="Sequence pages" param={PAGE_PARAMS.sequences} of={page} />
      </section>
    </Box>
  );
}
