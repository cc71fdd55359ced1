import { useEffect, useRef, useSyncExternalStore, type ReactElement, type ReactNode } from "react";
import { lazyModule } from "~/components/ui/lazy-module";

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
 * tooltip opens at once; a trigger that had focus gets it back (the swap remounts it).
 */
export function Hint({ content, children }: { content: ReactNode; children: ReactElement }) {
  const Tooltip = useSyncExternalStore(tooltip.subscribe, tooltip.get, () => undefined);
  const box = useRef<HTMLSpanElement>(null);
  // Read once, in the render that swaps the tooltip in (before the trigger is replaced).
  const before = useRef<{ hovered: boolean; focused: boolean } | null>(null);
  if (Tooltip && !before.current) {
    const trigger = box.current?.firstElementChild;
    before.current = { hovered: !!trigger?.matches(":hover"), focused: !!trigger?.contains(document.activeElement) };
  }
  const want = () => {
    if (!tooltip.get()) tooltip.start();
  };
  useEffect(() => {
    if (Tooltip && before.current?.focused) (box.current?.firstElementChild as HTMLElement | null)?.focus();
  }, [Tooltip]);
  return (
    <span ref={box} style={CONTENTS} onPointerOver={Tooltip ? undefined : want} onFocus={Tooltip ? undefined : want} onPointerDown={Tooltip ? undefined : want}>
      {Tooltip ? (
        <Tooltip content={content} open={before.current?.hovered ?? false}>
          {children}
        </Tooltip>
      ) : (
        children
      )}
    </span>
  );
}

const CONTENTS = { display: "contents" } as const;
const tooltip = lazyModule(() => import("~/components/ui/hint-tooltip").then((m) => m.HintTooltip));
