import type { Announcements, ScreenReaderInstructions, UniqueIdentifier } from "@dnd-kit/core";

/**
 * What a screen reader hears while a list is reordered by drag (issue 30 B3): dnd-kit's own
 * announcements read out the items' ids ("Picked up draggable item 3f2c…"); these say the
 * item's name and what it is over ("One is over Two (position 2 of 3).").
 * `items` is the list in its shown order. Pass the result as DndContext's `accessibility`.
 */
export function dragAccessibility(items: ReadonlyArray<{ id: UniqueIdentifier; name: string }>): {
  announcements: Announcements;
  screenReaderInstructions: ScreenReaderInstructions;
} {
  const nameOf = (id: UniqueIdentifier) => items.find((i) => i.id === id)?.name ?? "item";
  const place = (id: UniqueIdentifier) => `position ${items.findIndex((i) => i.id === id) + 1} of ${items.length}`;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${nameOf(active.id)} (${place(active.id)}).`,
    onDragOver: ({ active, over }) =>
      over ? `${nameOf(active.id)} is over ${nameOf(over.id)} (${place(over.id)}).` : `${nameOf(active.id)} is no longer over the list.`,
    onDragEnd: ({ active, over }) =>
      over ? `${nameOf(active.id)} dropped on ${nameOf(over.id)} (${place(over.id)}).` : `${nameOf(active.id)} dropped where it was.`,
    onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled; it stays at ${place(active.id)}.`,
  };
  return {
    announcements,
    screenReaderInstructions: { draggable: DRAG_INSTRUCTIONS },
  };
}

/** What a drag handle's description says (also before dnd-kit has loaded: app/components/ui/lazy-sortable.tsx). */
export const DRAG_INSTRUCTIONS =
  "To move this item, press Space or Enter. Use the arrow keys to move it, Space or Enter to drop it where it is, Escape to cancel.";
