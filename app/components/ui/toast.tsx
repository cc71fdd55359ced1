/**
 * Toasts (spec 1 §9: "Notification toasts: at most 3 visible, default duration 4000 ms").
 *
 * Client toasts, from any component or event handler:
 *
 *   import { toast, useToast } from "~/components/ui/toast";
 *   toast.success("Exchange rate saved successfully");
 *   toast.error("Failed to load exchange rates. Retrying... (1/3)", { duration: 2000 });
 *   const { info } = useToast();                       // same API as a hook
 *   info("Text copied to clipboard", { duration: 2000, description: "optional 2nd line" });
 *   toast.success("Ad deleted successfully", { action: { label: "Undo", onClick: restore } });
 *
 * Every call returns the toast's id; `toast.dismiss(id)` removes it early.
 * An identical toast (same type and message) shown again while the first is on screen
 * does not stack a copy: the one on screen is refreshed and its timer starts over.
 * When a 4th toast arrives the oldest one is dropped. Errors are announced assertively
 * (role="alert"), everything else politely (role="status").
 *
 * Queue, timers (paused on hover, focus and hidden tabs), stacking and swipe-to-dismiss are
 * sonner's (docs/decisions/0010-toasts-sonner.md); the card is ours, a Radix Callout, so it
 * follows the app's theme and carries the roles above.
 *
 * Placement (issue 30 A7, docs/decisions/0040-toasts-cover-no-control.md): a toast never takes
 * a click meant for the page. Only its own buttons (Undo, ×) take pointer events; a click
 * anywhere else on it reaches the control underneath, and while the pointer is over a toast
 * it turns see-through so that control shows. Bottom right on wider screens (the Collections
 * floating panel is bottom left); on phones at the top, clear of the bottom-anchored panel,
 * sheets and dialog buttons.
 *
 * Server flash toasts: actions use `redirectWithSuccess` / `jsonWithSuccess` from
 * `~/utils/toast.server`; the root loader passes the flash to <Toaster flash>. With
 * JavaScript it goes to sonner like any other toast; without, the server HTML shows it
 * inside <noscript> and CSS fades it out after its duration.
 */
import { Cross2Icon } from "~/components/ui/icons";
import { Button, Callout, IconButton } from "@radix-ui/themes";
import { useEffect, useSyncExternalStore, type CSSProperties } from "react";
import { toast as sonner, Toaster as SonnerToaster } from "sonner";
import { useHydrated } from "~/components/ui/use-hydrated";

export type ToastType = "success" | "error" | "info" | "warning";
export type ToastAction = { label: string; onClick: () => void };
export type ToastOptions = { duration?: number; description?: string; id?: string; action?: ToastAction };
/** A flash toast as the root loader hands it over (see ~/utils/toast.server). */
export type FlashToastData = { id: string; type: ToastType; message: string; description?: string; duration?: number };

export const MAX_VISIBLE_TOASTS = 3;
export const DEFAULT_TOAST_DURATION = 4000;

/**
 * The id of a toast whose caller gave none. Equal for the same type and message, so showing
 * an identical toast again updates the one on screen (sonner's update-by-id) instead of
 * stacking a second copy that expires a moment after the first.
 */
export function collapseId(type: ToastType, message: string): string {
  return `${type}:${message}`;
}

// ---------------------------------------------------------------------------------------
// Bookkeeping around sonner: which ids are on screen (oldest first) for the limit of 3,
// and how to keep a collapse id from landing on a toast that is already leaving.

/** Ids on screen, oldest (least recently shown) first. */
let onScreen: string[] = [];
/** Derived ids on screen → their collapse id. */
const derived = new Map<string, string>();
/**
 * Collapse ids → how many of their toasts have left. A toast that starts leaving keeps its
 * id in sonner for its 200 ms exit animation, and an update under that id would be removed
 * with it; the next identical toast therefore gets the next generation's id.
 */
const generations = new Map<string, number>();

function idFor(type: ToastType, message: string): string {
  const base = collapseId(type, message);
  const generation = generations.get(base);
  const id = generation ? `${base}#${generation}` : base;
  derived.set(id, base);
  return id;
}

/** The toast has started leaving (timer, close button, swipe, dismiss or the limit). */
function left(id: string) {
  onScreen = onScreen.filter((x) => x !== id);
  const base = derived.get(id);
  if (base === undefined) return;
  derived.delete(id);
  generations.set(base, (generations.get(base) ?? 0) + 1);
}

function add(type: ToastType, message: string, options: ToastOptions = {}): string {
  const id = options.id ?? idFor(type, message);
  const duration = options.duration && options.duration > 0 ? options.duration : DEFAULT_TOAST_DURATION;
  const card = { type, message, description: options.description, action: options.action };
  sonner.custom((sonnerId) => <ToastCard id={String(sonnerId)} {...card} />, {
    id,
    duration,
    onAutoClose: () => left(id),
    onDismiss: () => left(id),
  });
  // A refreshed toast counts as the newest; beyond the limit the oldest gives way.
  onScreen = [...onScreen.filter((x) => x !== id), id];
  while (onScreen.length > MAX_VISIBLE_TOASTS) dismiss(onScreen[0]!);
  return id;
}

function dismiss(id: string) {
  left(id);
  sonner.dismiss(id);
}

export const toast = {
  success: (message: string, options?: ToastOptions) => add("success", message, options),
  error: (message: string, options?: ToastOptions) => add("error", message, options),
  info: (message: string, options?: ToastOptions) => add("info", message, options),
  warning: (message: string, options?: ToastOptions) => add("warning", message, options),
  dismiss,
};

export type ToastApi = typeof toast;

/** The toast API as a hook, for components that prefer hooks. */
export function useToast(): ToastApi {
  return toast;
}

// ---------------------------------------------------------------------------------------
// The viewport.

const COLOR: Record<ToastType, "green" | "red" | "blue" | "amber"> = {
  success: "green",
  error: "red",
  info: "blue",
  warning: "amber",
};

/** Phones (the shell's breakpoint, shell.css): toasts at the top, clear of the bottom-anchored floating panel. */
const PHONE_QUERY = "(max-width: 639px)";

function subscribePhone(onChange: () => void) {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

function usePhone(): boolean {
  return useSyncExternalStore(
    subscribePhone,
    () => window.matchMedia(PHONE_QUERY).matches,
    () => false,
  );
}

/**
 * A toast the pointer is over turns see-through (`data-see-through`), so the control under it
 * shows while the click goes through to it (its card takes no pointer events, see shell.css).
 * CSS :hover cannot tell, since the card is not hit; one rect test per toast per frame can.
 */
function useSeeThroughToasts(enabled: boolean) {
  useEffect(() => {
    if (!enabled) return;
    let frame = 0;
    let x = -1;
    let y = -1;
    const update = () => {
      frame = 0;
      for (const el of document.querySelectorAll<HTMLElement>(".gt-toaster [data-sonner-toast]")) {
        const r = el.getBoundingClientRect();
        const over = x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
        const onOwnButton = over && !!document.elementFromPoint(x, y)?.closest(".gt-toaster button");
        el.toggleAttribute("data-see-through", over && !onOwnButton);
      }
    };
    const onMove = (e: PointerEvent) => {
      x = e.clientX;
      y = e.clientY;
      if (!frame) frame = requestAnimationFrame(update);
    };
    const onLeave = () => onMove({ clientX: -1, clientY: -1 } as PointerEvent);
    document.addEventListener("pointermove", onMove, { passive: true });
    document.documentElement.addEventListener("pointerleave", onLeave);
    return () => {
      document.removeEventListener("pointermove", onMove);
      document.documentElement.removeEventListener("pointerleave", onLeave);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [enabled]);
}

/** Flash ids already handed to sonner, so a revalidation never shows one twice. */
const seenFlash = new Set<string>();

/** Hands a flash toast to sonner once (by its id). */
function showFlash(flash: FlashToastData | null | undefined) {
  if (!flash || seenFlash.has(flash.id)) return;
  seenFlash.add(flash.id);
  add(flash.type, flash.message, { description: flash.description, duration: flash.duration });
}

/**
 * The root's client loader hands every flash here as its load arrives, not when a render
 * commits it. The server gives a flash out once; the router's updates are React transitions,
 * and a load finishing right after (a live revalidation) replaced the state that carried it
 * before React rendered it: the toast never showed (a CI journey's "Stalker started
 * successfully · Took account … over", its flash taken 270 ms before such a load).
 */
export function receiveFlash(flash: FlashToastData | null | undefined) {
  if (typeof document !== "undefined") showFlash(flash);
}

export function Toaster({ flash, theme = "dark" }: { flash?: FlashToastData | null; theme?: "dark" | "light" }) {
  const hydrated = useHydrated();
  const phone = usePhone();
  useSeeThroughToasts(hydrated);

  // The flash the page was rendered with (the server's, at hydration); later ones come through receiveFlash too.
  useEffect(() => showFlash(flash), [flash]);

  // Server HTML and the hydration render: the flash inside <noscript>, which the browser
  // shows only when scripts are off (React leaves noscript content alone on the client).
  // With scripts on, sonner mounts after hydration and the effect above hands it the flash,
  // so it is never on screen twice.
  if (!hydrated) {
    return flash ? (
      <noscript>
        <section aria-label="Notifications" className="gt-toaster gt-toaster-static">
          <ol>
            <li className="gt-toast-static" style={{ "--gt-toast-duration": `${flash.duration ?? DEFAULT_TOAST_DURATION}ms` } as CSSProperties}>
              {/* Closing without JavaScript: a checkbox the card's × is the label of (CSS hides the
                  card once it is checked), so a toast never has to be waited out over a button. */}
              <input type="checkbox" id={`gt-toast-${flash.id}`} className="gt-toast-dismiss gt-visually-hidden" aria-label="Dismiss notification" />
              <ToastCard type={flash.type} message={flash.message} description={flash.description} closeFor={`gt-toast-${flash.id}`} />
            </li>
          </ol>
        </section>
      </noscript>
    ) : null;
  }

  return (
    <SonnerToaster
      className="gt-toaster"
      theme={theme}
      position={phone ? "top-center" : "bottom-right"}
      mobileOffset={{ top: 8, left: 8, right: 8 }}
      expand
      visibleToasts={MAX_VISIBLE_TOASTS}
      duration={DEFAULT_TOAST_DURATION}
      gap={8}
      style={{ "--width": "380px" } as CSSProperties}
      toastOptions={{ unstyled: true }}
    />
  );
}

type ToastCardProps = { type: ToastType; message: string; description?: string; action?: ToastAction; id?: string; closeFor?: string };

/**
 * One toast's card. Without an id (the no-JavaScript flash) it has no buttons: `closeFor`
 * names the checkbox its × label ticks to hide it.
 */
function ToastCard({ id, type, message, description, action, closeFor }: ToastCardProps) {
  return (
    <Callout.Root
      color={COLOR[type]}
      variant="surface"
      size="1"
      className="gt-toast-card"
      data-type={type}
      role={type === "error" ? "alert" : "status"}
      aria-atomic="true"
    >
      <Callout.Text className="gt-toast-body">
        <span className="gt-toast-message">{message}</span>
        {description ? <span className="gt-toast-description">{description}</span> : null}
      </Callout.Text>
      {id && action ? (
        <Button
          type="button"
          size="1"
          variant="soft"
          color={COLOR[type]}
          className="gt-toast-action"
          onClick={() => {
            action.onClick();
            dismiss(id);
          }}
        >
          {action.label}
        </Button>
      ) : null}
      {closeFor ? (
        <label htmlFor={closeFor} className="gt-toast-close gt-toast-close-static" title="Dismiss notification" aria-hidden="true">
          <Cross2Icon />
        </label>
      ) : null}
      {id ? (
        <IconButton
          type="button"
          size="1"
          variant="ghost"
          color="gray"
          aria-label="Dismiss notification"
          className="gt-toast-close"
          onClick={() => dismiss(id)}
        >
          <Cross2Icon />
        </IconButton>
      ) : null}
    </Callout.Root>
  );
}
