import { useEffect, useRef, useState, useSyncExternalStore, type ComponentType, type ReactElement, type ReactNode } from "react";
import { lazyModule, type LazyModule } from "~/components/ui/lazy-module";

/**
 * A hover/focus hint (Radix Themes' Tooltip) whose code loads when a hint is first wanted —
 * the pointer over a trigger, a trigger focused or touched — instead of with the page:
 * Tooltip brings Popper and floating-ui, ~17 kB gzip, and the shell's header has three
 * hints, so it weighed on every section's first load (bench/README.md "First-load weight",
 * issue 20 item 5). Loading it right after hydration still put it in every page's first
 * load once the network was quiet (issue 32 item 4: 146–186 kB measured in Chromium).
 *
 * Until the code is there (the server render, no JavaScript, before the first hover) the
 * trigger renders alone; every trigger also carries a `title` with the same text, so the
 * hint is never lost. When the code arrives while the pointer is over the trigger, the
 * tooltip opens at once; a trigger that had focus gets it back (the swap remounts it). A
 * trigger being pressed is swapped only once its click has happened.
 */
export const Hint = hintWith(lazyModule(() => import("~/components/ui/hint-tooltip").then((m) => m.HintTooltip)));

type TooltipComponent = ComponentType<{ content: ReactNode; children: ReactElement; open: boolean }>;

/** `Hint` over a given store of the tooltip's code (a test controls when it arrives). */
export function hintWith(tooltip: LazyModule<TooltipComponent>) {
  return function Hint({ content, children }: { content: ReactNode; children: ReactElement }) {
    const Tooltip = useSyncExternalStore(tooltip.subscribe, tooltip.get, () => undefined);
    // A press under way keeps the trigger as it is: the swap remounts it, and between a press
    // and its click (the code arriving after the pointer came over the trigger, a slow phone)
    // that lost the click: the refresh, save or delete the operator pressed never happened.
    const [pressing, setPressing] = useState(false);
    const swapped = !!Tooltip && !pressing;
    const box = useRef<HTMLSpanElement>(null);
    // Read once, in the render that swaps the tooltip in (before the trigger is replaced).
    const before = useRef<{ hovered: boolean; focused: boolean } | null>(null);
    if (swapped && !before.current) {
      const trigger = box.current?.firstElementChild;
      before.current = { hovered: !!trigger?.matches(":hover"), focused: !!trigger?.contains(document.activeElement) };
    }
    const want = () => {
      if (!tooltip.get()) tooltip.start();
    };
    useEffect(() => {
      if (swapped && before.current?.focused) (box.current?.firstElementChild as HTMLElement | null)?.focus();
    }, [swapped]);
    // Released in a task of its own: a swap inside the click's dispatch removed the trigger
    // before its default action ran, and a submit button's form was then not submitted.
    const release = () => setTimeout(() => setPressing(false), 0);
    return (
      <span
        ref={box}
        style={CONTENTS}
        onPointerOver={swapped ? undefined : want}
        onFocus={swapped ? undefined : want}
        onPointerDown={
          swapped
            ? undefined
            : () => {
                setPressing(true);
                want();
              }
        }
        // A mouse's click follows its release in the same task, a touch's tap is hit-tested
        // anew (it lands on whichever trigger is there): so the press ends a task after the
        // release, and a disabled trigger (no click at all) ends it too.
        onPointerUp={swapped ? undefined : release}
        onPointerLeave={swapped ? undefined : release}
        onPointerCancel={swapped ? undefined : release}
      >
        {swapped ? (
          <Tooltip content={content} open={before.current?.hovered ?? false}>
            {children}
          </Tooltip>
        ) : (
          children
        )}
      </span>
    );
  };
}

const CONTENTS = { display: "contents" } as const;
