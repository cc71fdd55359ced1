import { closestCenter, DndContext, KeyboardSensor, MouseSensor, TouchSensor, useSensor, useSensors, type DragEndEvent } from "@dnd-kit/core";
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState, type HTMLAttributes } from "react";
import { TRADING_LIMITS, type PlanetSequence } from "#api/trading";
import { dragAccessibility } from "~/components/ui/drag-announcements";
import { SequenceCard } from "./sequence-card";
import type { SequenceListProps } from "./sequence-list";

/**
 * Drag to reorder (spec 2 §2, §9: touch long press 120 ms, mouse threshold 5 px), also by
 * keyboard (focus the handle, Space, arrows, Space). The new order is shown at once and
 * stored with one `sequence-reorder` post; on failure the server's order comes back.
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
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: TRADING_LIMITS.dragMouseDistancePx } }),
    useSensor(TouchSensor, { activationConstraint: { delay: TRADING_LIMITS.dragTouchDelayMs, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = order.findIndex((s) => s._id === active.id);
    const to = order.findIndex((s) => s._id === over.id);
    const next = arrayMove(order, from, to);
    setOrder(next);
    const body = new FormData();
    body.set("intent", "sequence-reorder");
    // The shown page only, from its place in the whole list: the others keep theirs (issue 20).
    body.set("offset", String(offset));
    for (const s of next) body.append("ids", s._id);
    fetcher.submit(body, { method: "post", action: rest.here });
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={dragAccessibility(order.map((s) => ({ id: s._id, name: s.name })))}
    >
      <SortableContext items={order.map((s) => s._id)} strategy={verticalListSortingStrategy}>
        <ol className="gt-sequence-list" start={offset + 1}>
          {order.map((s, i) => (
            <SortableItem key={s._id} sequence={s} index={offset + i} count={total} {...rest} />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableItem({
  sequence,
  index,
  count,
  ...rest
}: Omit<SequenceListProps, "sequences" | "offset" | "total"> & { sequence: PlanetSequence; index: number; count: number }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: sequence._id });
  return (
    <SequenceCard
      sequence={sequence}
      index={index}
      count={count}
      {...rest}
      innerRef={setNodeRef}
      dragging={isDragging}
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        position: "relative",
        zIndex: isDragging ? 1 : undefined,
        touchAction: "manipulation",
      }}
      handle={{ ...attributes, ...listeners } as HTMLAttributes<HTMLElement>}
    />
  );
}
