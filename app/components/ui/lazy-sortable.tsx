import { useEffect, useId, useState, useSyncExternalStore, type ComponentType, type CSSProperties, type HTMLAttributes, type ReactNode } from "react";
import { lazyModule } from "~/components/ui/lazy-module";
import { DRAG_INSTRUCTIONS } from "~/components/ui/drag-announcements";

/**
 * Drag to reorder whose code (dnd-kit, ~16 kB gzip) loads when the first drag starts, not
 * with the page (issue 32 item 4: first load ≤ 150 kB gzip including what a page fetches by
 * itself; bench/README.md "First-load weight"). Performance trick (CONVENTIONS rule 15).
 *
 * The list renders its own items and handles, always: `useSortableItem` gives each item its
 * ref, style and handle props. Until dnd-kit is there the handle carries the attributes
 * dnd-kit would give it and listens for the start of a drag (a mouse press, a touch, Space
 * or Enter); that loads `sortable-layer.tsx`, which mounts beside the list (`layer`: a
 * DndContext whose items report dnd-kit's state for each id into the store), and then hands
 * the press that started it to dnd-kit's own listener, so the first drag goes on where it
 * began. The items' DOM never changes owner: a touch keeps its target (touch events go to
 * the element where they started), and the handle keeps focus.
 *
 * A press released before the code arrives is dropped (nothing was dragged); the move
 * buttons are the reorder without JavaScript and by keyboard without a drag.
 */
export type SortableEntry = { id: string; name: string };

/** What an item gets: spread `handle` on its drag handle (none: no drag), `ref` and `style` on the moving element. */
export type SortableItemProps = {
  ref: (el: HTMLElement | null) => void;
  style: CSSProperties | undefined;
  dragging: boolean;
  handle: HTMLAttributes<HTMLElement> | null;
};

/** dnd-kit's state of one item, reported by the loaded layer. */
export type LoadedItemState = {
  handle: HTMLAttributes<HTMLElement>;
  transform: string | undefined;
  transition: string | undefined;
  dragging: boolean;
};

export type SortableLayerProps = {
  store: SortableStore;
  items: readonly SortableEntry[];
  onMove: (from: string, to: string) => void;
};

type Intent = { id: string; kind: "onMouseDown" | "onTouchStart" | "onKeyDown"; event: Event; ended: boolean; stop: () => void };

/** One list's items: their elements, dnd-kit's state per id once loaded, the press that is waiting for the code. */
export class SortableStore {
  private nodes = new Map<string, HTMLElement>();
  private refs = new Map<string, (el: HTMLElement | null) => void>();
  private states = new Map<string, LoadedItemState>();
  private listeners = new Map<string, Set<() => void>>();
  private attachers = new Map<string, (el: HTMLElement | null) => void>();
  private intent: Intent | null = null;
  /** The element holding the screen reader instructions until dnd-kit renders its own. */
  instructionsId = "";

  /** The item's ref: remembers its element and hands it to dnd-kit once loaded. */
  refFor(id: string): (el: HTMLElement | null) => void {
    let ref = this.refs.get(id);
    if (!ref) {
      ref = (el) => {
        if (el) this.nodes.set(id, el);
        else this.nodes.delete(id);
        this.attachers.get(id)?.(el);
      };
      this.refs.set(id, ref);
    }
    return ref;
  }

  /** The loaded layer's item `id`: `setNodeRef` gets the item's element now and whenever it changes. */
  attach(id: string, setNodeRef: (el: HTMLElement | null) => void): () => void {
    this.attachers.set(id, setNodeRef);
    setNodeRef(this.nodes.get(id) ?? null);
    return () => {
      if (this.attachers.get(id) === setNodeRef) this.attachers.delete(id);
    };
  }

  report(id: string, state: LoadedItemState | undefined) {
    const old = this.states.get(id);
    if (state ? old && sameState(old, state) : !old) return;
    if (state) this.states.set(id, state);
    else this.states.delete(id);
    for (const listener of this.listeners.get(id) ?? []) listener();
  }

  get(id: string): LoadedItemState | undefined {
    return this.states.get(id);
  }

  subscribe(id: string, listener: () => void): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** A drag begins on `id` before dnd-kit is loaded: keep the press, load the code. */
  intend(id: string, kind: Intent["kind"], event: Event) {
    this.intent?.stop();
    const intent: Intent = { id, kind, event, ended: false, stop: () => {} };
    const end = () => {
      intent.ended = true;
    };
    // A press released (or a touch that became a scroll) before the code arrived drags nothing.
    if (kind === "onMouseDown") {
      window.addEventListener("mouseup", end, true);
      intent.stop = () => window.removeEventListener("mouseup", end, true);
    } else if (kind === "onTouchStart") {
      const target = event.target as EventTarget;
      target.addEventListener("touchend", end);
      target.addEventListener("touchcancel", end);
      intent.stop = () => {
        target.removeEventListener("touchend", end);
        target.removeEventListener("touchcancel", end);
      };
    }
    this.intent = intent;
    sortableLayer.start();
  }

  /** Called by the layer once mounted: hands the waiting press to dnd-kit's listener for it. */
  replay() {
    const intent = this.intent;
    this.intent = null;
    if (!intent) return;
    intent.stop();
    const listener = this.states.get(intent.id)?.handle[intent.kind] as ((e: unknown) => void) | undefined;
    if (intent.ended || !listener) return;
    const { event } = intent;
    // What dnd-kit's activators read of React's synthetic event.
    listener({
      nativeEvent: event,
      target: event.target,
      currentTarget: event.target,
      preventDefault: () => event.preventDefault(),
      stopPropagation: () => {},
    });
  }
}

function sameState(a: LoadedItemState, b: LoadedItemState) {
  if (a.transform !== b.transform || a.transition !== b.transition || a.dragging !== b.dragging) return false;
  const ka = Object.keys(a.handle) as Array<keyof typeof a.handle>;
  return ka.length === Object.keys(b.handle).length && ka.every((k) => a.handle[k] === b.handle[k]);
}

// The server never renders the layer; with no dynamic import left in it the server build stays one file (see lazyComponent).
const sortableLayer = lazyModule<ComponentType<SortableLayerProps>>(() =>
  import.meta.env.SSR ? Promise.reject(new Error("server")) : import("./sortable-layer").then((m) => m.SortableLayer),
);

/** Has dnd-kit's code loaded in this page (for tests of the loading itself). */
export function sortableLayerLoaded(): boolean {
  return sortableLayer.get() !== undefined;
}

/**
 * A reorderable list. `enabled` false (server render, before hydration, a viewer): items get
 * no handle. `layer` goes beside the list, never inside an `<ol>` (it renders the screen
 * reader instructions and, once loaded, dnd-kit's live region).
 */
export function useLazySortable({
  items,
  enabled,
  onMove,
}: {
  items: readonly SortableEntry[];
  enabled: boolean;
  onMove: (from: string, to: string) => void;
}): { store: SortableStore; layer: ReactNode } {
  const [store] = useState(() => new SortableStore());
  const instructionsId = useId();
  const Layer = useSyncExternalStore(sortableLayer.subscribe, sortableLayer.get, () => undefined);
  useEffect(() => {
    if (!enabled) return;
    // What dnd-kit's TouchSensor.setup does once mounted, here from the start: a non-passive
    // touchmove listener makes its later preventDefault() stop the scroll (iOS Safari).
    const noop = () => {};
    window.addEventListener("touchmove", noop, { passive: false });
    return () => window.removeEventListener("touchmove", noop);
  }, [enabled]);
  store.instructionsId = instructionsId;
  // Once loaded (by this list's first drag or another's), every list mounts its layer.
  let layer: ReactNode = null;
  if (enabled && Layer) layer = <Layer store={store} items={items} onMove={onMove} />;
  else if (enabled)
    layer = (
      <div id={instructionsId} hidden>
        {DRAG_INSTRUCTIONS}
      </div>
    );
  return { store, layer };
}

/** One item of a `useLazySortable` list. */
export function useSortableItem(store: SortableStore, id: string, enabled: boolean): SortableItemProps {
  const state = useSyncExternalStore(
    (cb) => store.subscribe(id, cb),
    () => store.get(id),
    () => undefined,
  );
  const ref = store.refFor(id);
  if (!enabled) return { ref, style: undefined, dragging: false, handle: null };
  if (state) {
    return {
      ref,
      dragging: state.dragging,
      handle: state.handle,
      style: {
        transform: state.transform,
        transition: state.transition,
        position: "relative",
        zIndex: state.dragging ? 1 : undefined,
        touchAction: "manipulation",
      },
    };
  }
  return {
    ref,
    dragging: false,
    style: { touchAction: "manipulation" },
    // dnd-kit's own attributes, and the starts of a drag its sensors take (mouse, touch, keyboard).
    handle: {
      role: "button",
      tabIndex: 0,
      "aria-disabled": false,
      "aria-roledescription": "sortable",
      "aria-describedby": store.instructionsId,
      onMouseDown: (e) => {
        if (e.button === 0) store.intend(id, "onMouseDown", e.nativeEvent);
      },
      onTouchStart: (e) => {
        if (e.touches.length === 1) store.intend(id, "onTouchStart", e.nativeEvent);
      },
      onKeyDown: (e) => {
        if (e.code === "Space" || e.code === "Enter") store.intend(id, "onKeyDown", e.nativeEvent);
      },
    },
  };
}

/** `list` with the item at `from` moved to `to` (dnd-kit's arrayMove, without loading dnd-kit). */
export function arrayMove<T>(list: readonly T[], from: number, to: number): T[] {
  const next = list.slice();
  if (from < 0 || to < 0 || from >= next.length || to >= next.length) return next;
  next.splice(to, 0, ...next.splice(from, 1));
  return next;
}
