import { RATE_LIMITS } from "#api/rates";
import { useRef, useState, type ReactNode, type TouchEvent } from "react";
import { useHydrated } from "~/components/ui/use-hydrated";

/**
 * Touch swipe on a rate row (spec 1 §2: "a horizontal swipe reveals Delete (swipe left) or
 * Enable/Disable (swipe right)"; §4 "releasing beyond 80px triggers the action; swipe is
 * limited to ±100px").
 *
 * Touch events, not pointer events: they fire only on touch screens, which is where the
 * spec wants the gesture, and a mouse drag keeps selecting text as usual. `touch-action:
 * pan-y` (CSS) leaves vertical scrolling to the browser; a gesture that starts mostly
 * vertical is ignored.
 */
export const SWIPE_THRESHOLD = RATE_LIMITS.swipeThresholdPx;
export const SWIPE_RANGE = RATE_LIMITS.swipeRangePx;

/** Clamps an offset to the swipe range. */
export function clampSwipe(dx: number): number {
  return Math.max(-SWIPE_RANGE, Math.min(SWIPE_RANGE, dx));
}

/** What releasing at this offset does. */
export function swipeOutcome(dx: number): "delete" | "toggle" | null {
  if (dx < -SWIPE_THRESHOLD) return "delete";
  if (dx > SWIPE_THRESHOLD) return "toggle";
  return null;
}

type Gesture = { x: number; y: number; axis: "x" | "y" | null };

export function SwipeRow({
  enabled,
  toggleLabel,
  onDelete,
  onToggle,
  disabled,
  children,
}: {
  enabled: boolean;
  /** 'Enable' or 'Disable': what a right swipe does. */
  toggleLabel: string;
  onDelete: () => void;
  onToggle: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  const [dx, setDx] = useState(0);
  const [dragging, setDragging] = useState(false);
  const gesture = useRef<Gesture | null>(null);
  const offset = useRef(0);

  const start = (event: TouchEvent) => {
    if (disabled || event.touches.length !== 1) return;
    // Typing in the tier editor must never turn into a swipe.
    if ((event.target as HTMLElement).closest("input, textarea, select")) return;
    const t = event.touches[0]!;
    gesture.current = { x: t.clientX, y: t.clientY, axis: null };
    offset.current = 0;
  };

  const move = (event: TouchEvent) => {
    const g = gesture.current;
    const t = event.touches[0];
    if (!g || !t) return;
    const mx = t.clientX - g.x;
    const my = t.clientY - g.y;
    if (!g.axis) {
      if (Math.abs(mx) < 6 && Math.abs(my) < 6) return;
      g.axis = Math.abs(mx) > Math.abs(my) ? "x" : "y";
      if (g.axis === "x") setDragging(true);
    }
    if (g.axis !== "x") return;
    offset.current = clampSwipe(mx);
    setDx(offset.current);
  };

  const end = () => {
    const g = gesture.current;
    gesture.current = null;
    if (!g || g.axis !== "x") return;
    const outcome = swipeOutcome(offset.current);
    offset.current = 0;
    setDragging(false);
    setDx(0);
    if (outcome === "delete") onDelete();
    else if (outcome === "toggle") onToggle();
  };

  const armed = swipeOutcome(dx);
  // The gesture needs JavaScript, so the server HTML leaves its decoration out.
  const hydrated = useHydrated();
  return (
    <div className="gt-swipe" data-dragging={dragging || undefined}>
      {/* The labels are drawn by CSS from data-label: decoration for the gesture, they stay
          out of the row's text (the row's own buttons say the same to everyone). */}
      {hydrated ? (
        <div className="gt-swipe-actions" aria-hidden>
          <span
            className="gt-swipe-toggle"
            data-label={toggleLabel}
            data-visible={dx > 0 || undefined}
            data-armed={armed === "toggle" || undefined}
            data-enabled={enabled}
          />
          <span className="gt-swipe-delete" data-label="Delete" data-visible={dx < 0 || undefined} data-armed={armed === "delete" || undefined} />
        </div>
      ) : null}
      <div
        className="gt-swipe-surface"
        style={dx ? { transform: `translateX(${dx}px)` } : undefined}
        onTouchStart={start}
        onTouchMove={move}
        onTouchEnd={end}
        onTouchCancel={() => {
          gesture.current = null;
          offset.current = 0;
          setDragging(false);
          setDx(0);
        }}
      >
        {children}
      </div>
    </div>
  );
}
