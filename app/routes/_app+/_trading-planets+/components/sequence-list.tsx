import { Box, Heading, Text } from "@radix-ui/themes";
import { useLocation } from "@remix-run/react";
import { TRADING_LIMITS, type PlanetSequence } from "#api/trading";
import { ConfirmPanel } from "~/components/ui/confirm-dialog";
import { lazyComponent } from "~/components/ui/lazy-component";
import { useCanWrite } from "~/components/ui/write-only";
import { SequenceCard } from "./sequence-card";

export type SequenceListProps = { sequences: PlanetSequence[]; linkWith: (name: string, value: string | null) => string };

/** The list without drag (server render, no JavaScript, and until dnd-kit has loaded). */
export function StaticSequences({ sequences, linkWith }: SequenceListProps) {
  return (
    <ol className="gt-sequence-list">
      {sequences.map((s, i) => (
        <SequenceCard key={s._id} sequence={s} index={i} count={sequences.length} linkWith={linkWith} />
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
export function SequenceList({ sequences, confirm, linkWith }: SequenceListProps & { confirm: string | null }) {
  // A viewer gets the list without drag, switches, moves, edit or delete (issue 21).
  const canWrite = useCanWrite();
  const location = useLocation();
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
            form={{
              action: `${location.pathname}${location.search}`,
              fields: { intent: "sequence-delete", id: confirming._id, redirectTo: linkWith("confirm", null) },
            }}
          />
        ) : null}
        <Box className="gt-sequence-box" style={{ maxHeight: TRADING_LIMITS.listHeightPx, overflowY: "auto" }} data-testid="sequence-box">
          {sequences.length ? (
            canWrite ? (
              <SortableSequences sequences={sequences} linkWith={linkWith} />
            ) : (
              <StaticSequences sequences={sequences} linkWith={linkWith} />
            )
          ) : (
            <Text as="p" color="gray" size="2">
              {canWrite ? "No sequences yet. Use New Sequence to add one." : "No sequences yet."}
            </Text>
          )}
        </Box>
      </section>
    </Box>
  );
}
