import { closestCenter, DndContext, KeyboardSensor, MouseSensor, TouchSensor, useSensor, useSensors, type DragEndEvent } from "@dnd-kit/core";
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useEffect, useLayoutEffect, type HTMLAttributes } from "react";
import { TRADING_LIMITS } from "#api/trading";
import { dragAccessibility } from "~/components/ui/drag-announcements";
import type { SortableLayerProps, SortableStore } from "~/components/ui/lazy-sortable";

/**
 * dnd-kit for a `useLazySortable` list, loaded on the first drag (app/components/ui/lazy-sortable.tsx).
 * Spec 2 §9: mouse threshold 5 px, touch long press 120 ms; and the keyboard (focus the
 * handle, Space, arrows, Space). It renders no item: each `Slot` is dnd-kit's sortable for
 * one id, pointed at the list's own element, and reports its state to the store. Once
 * mounted it hands dnd-kit the press that loaded it.
 */
export function SortableLayer({ store, items, onMove }: SortableLayerProps) {
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: TRADING_LIMITS.dragMouseDistancePx } }),
    useSensor(TouchSensor, { activationConstraint: { delay: TRADING_LIMITS.dragTouchDelayMs, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  // After the slots' layout effects: every item is registered with dnd-kit by now.
  useEffect(() => store.replay(), [store]);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onMove(String(active.id), String(over.id));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={dragAccessibility(items)}>
      <SortableContext items={items.map((x) => x.id)} strategy={verticalListSortingStrategy}>
        {items.map((x) => (
          <Slot key={x.id} id={x.id} store={store} />
        ))}
      </SortableContext>
    </DndContext>
  );
}

function Slot({ id, store }: { id: string; store: SortableStore }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  useLayoutEffect(() => store.attach(id, setNodeRef), [store, id, setNodeRef]);
  useLayoutEffect(() => {
    store.report(id, {
      handle: { ...attributes, ...listeners } as HTMLAttributes<HTMLElement>,
      transform: CSS.Transform.toString(transform) ?? undefined,
      transition,
      dragging: isDragging,
    });
  });
  useLayoutEffect(() => () => store.report(id, undefined), [store, id]);
  return null;
}
