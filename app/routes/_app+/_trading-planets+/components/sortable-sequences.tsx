import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { PlanetSequence } from "#api/trading";
import { arrayMove, useLazySortable, useSortableItem, type SortableStore } from "~/components/ui/lazy-sortable";
import { SequenceCard } from "./sequence-card";
import type { SequenceListProps } from "./sequence-list";

/**
 * Drag to reorder (spec 2 §2, §9: touch long press 120 ms, mouse threshold 5 px), also by
 * keyboard (focus the handle, Space, arrows, Space). dnd-kit loads on the first drag
 * (`useLazySortable`); the server and a page without JavaScript get the same list without
 * handles (the move buttons reorder). The new order is shown at once and stored with one
 * `sequence-reorder` post; on failure the server's order comes back.
 */
export function SortableSequences({ sequences, offset, total, ...rest }: SequenceListProps) {
  const [order, setOrder] = useState(sequences);
  const fetcher = useFetcher<{ ok: boolean; message?: string }>();
  useEffect(() => setOrder(sequences), [sequences]);
  useEffect(() => {
    // The form kit has shown the failure's toast (the one the answer carries, or its own for a post that never reached the app).
    if (fetcher.state === "idle" && fetcher.data && !fetcher.data.ok) setOrder(sequences);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when a post finishes
  }, [fetcher.state, fetcher.data]);
  const onMove = (fromId: string, toId: string) => {
    const next = arrayMove(
      order,
      order.findIndex((s) => s._id === fromId),
      order.findIndex((s) => s._id === toId),
    );
    setOrder(next);
    const body = new FormData();
    body.set("intent", "sequence-reorder");
    // The shown page only, from its place in the whole list: the others keep theirs (issue 20).
    body.set("offset", String(offset));
    for (const s of next) body.append("ids", s._id);
    fetcher.submit(body, { method: "post", action: rest.here });
  };
  const { store, layer } = useLazySortable({ items: order.map((s) => ({ id: s._id, name: s.name })), enabled: rest.hydrated, onMove });
  return (
    <>
      <ol className="gt-sequence-list" start={offset + 1}>
        {order.map((s, i) => (
          <SortableItem key={s._id} store={store} sequence={s} index={offset + i} count={total} {...rest} />
        ))}
      </ol>
      {layer}
    </>
  );
}

function SortableItem({
  store,
  sequence,
  index,
  count,
  ...rest
}: Omit<SequenceListProps, "sequences" | "offset" | "total"> & { store: SortableStore; sequence: PlanetSequence; index: number; count: number }) {
  const drag = useSortableItem(store, sequence._id, rest.hydrated);
  return (
    <SequenceCard
      sequence={sequence}
      index={index}
      count={count}
      {...rest}
      innerRef={drag.ref}
      dragging={drag.dragging}
      style={drag.style}
      handle={drag.handle ?? undefined}
    />
  );
}
