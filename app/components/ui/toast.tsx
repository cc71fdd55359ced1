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
 *
 * Every call returns the toast's id; `toast.dismiss(id)` removes it early.
 * When a 4th toast arrives the oldest one is dropped. Errors are announced assertively
 * (role="alert"), everything else politely (role="status").
 *
 * Server flash toasts: actions use `redirectWithSuccess` / `jsonWithSuccess` from
 * `~/utils/toast.server`; the root loader passes the flash to <Toaster flash>, which also
 * renders it without JavaScript (it then fades out by CSS after its duration).
 */
import { Cross2Icon } from "~/components/ui/icons";
import { Callout, IconButton } from "@radix-ui/themes";
import { useEffect, useRef, useSyncExternalStore, type CSSProperties } from "react";
import { useHydrated } from "~/components/ui/use-hydrated";

export type ToastType = "success" | "error" | "info" | "warning";
export type ToastOptions = { duration?: number; description?: string; id?: string };
export type ToastItem = { id: string; type: ToastType; message: string; description?: string; duration: number };
/** A flash toast as the root loader hands it over (see ~/utils/toast.server). */
export type FlashToastData = { id: string; type: ToastType; message: string; description?: string; duration?: number };

export const MAX_VISIBLE_TOASTS = 3;
export const DEFAULT_TOAST_DURATION = 4000;

// ---------------------------------------------------------------------------------------
// The store: module state, used in the browser only (the server renders `flash` from props).

type Listener = () => void;
let items: ToastItem[] = [];
const listeners = new Set<Listener>();
/** Flash ids already shown (or dismissed), so a re-render never shows one twice. */
const seenFlash = new Set<string>();
let counter = 0;
const EMPTY: ToastItem[] = [];

function emit() {
  for (const l of listeners) l();
}

function add(type: ToastType, message: string, options: ToastOptions = {}): string {
  const id = options.id ?? `t${Date.now().toString(36)}${(counter++).toString(36)}`;
  const item: ToastItem = {
    id,
    type,
    message,
    description: options.description,
    duration: options.duration && options.duration > 0 ? options.duration : DEFAULT_TOAST_DURATION,
  };
  // A toast with the same id replaces the old one; the oldest drops out beyond the limit.
  items = [...items.filter((t) => t.id !== id), item].slice(-MAX_VISIBLE_TOASTS);
  emit();
  return id;
}

function dismiss(id: string) {
  if (!items.some((t) => t.id === id)) return;
  items = items.filter((t) => t.id !== id);
  emit();
}

export const toast = {
  success: (message: string, options?: ToastOptions) => add("success", message, options),
  error: (message: string, options?: ToastOptions) => add("error", message, options),
  info: (message: string, options?: ToastOptions) => add("info", message, options),
  warning: (message: string, options?: ToastOptions) => add("warning", message, options),
  dismiss,
};

export type ToastApi = typeof toast;

/** The toasts on screen right now, oldest first (for tests and debugging). */
export function currentToasts(): readonly ToastItem[] {
  return items;
}

/** The toast API as a hook, for components that prefer hooks. */
export function useToast(): ToastApi {
  return toast;
}

function subscribe(listener: Listener) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

// ---------------------------------------------------------------------------------------
// The viewport.

const COLOR: Record<ToastType, "green" | "red" | "blue" | "amber"> = {
  success: "green",
  error: "red",
  info: "blue",
  warning: "amber",
};

export function Toaster({ flash }: { flash?: FlashToastData | null }) {
  const stored = useSyncExternalStore(subscribe, () => items, () => EMPTY);

  // The flash shows from props until the effect below has moved it into the store, so
  // the server HTML, the hydration render and the client agree.
  const pendingFlash = flash && !seenFlash.has(flash.id) && !stored.some((t) => t.id === flash.id) ? flash : undefined;
  useEffect(() => {
    if (!flash || seenFlash.has(flash.id)) return;
    seenFlash.add(flash.id);
    add(flash.type, flash.message, { id: flash.id, description: flash.description, duration: flash.duration });
  }, [flash]);

  const visible: ToastItem[] = pendingFlash
    ? [...stored, { ...pendingFlash, duration: pendingFlash.duration ?? DEFAULT_TOAST_DURATION }].slice(-MAX_VISIBLE_TOASTS)
    : stored;

  return (
    <section aria-label="Notifications" className="gt-toaster">
      <ol>
        {visible.map((t) => (
          <ToastView key={t.id} item={t} />
        ))}
      </ol>
    </section>
  );
}

function ToastView({ item }: { item: ToastItem }) {
  const hydrated = useHydrated();
  const remaining = useRef(item.duration);
  const started = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>();

  const start = () => {
    started.current = Date.now();
    timer.current = setTimeout(() => dismiss(item.id), remaining.current);
  };
  const pause = () => {
    if (!timer.current) return;
    clearTimeout(timer.current);
    timer.current = undefined;
    remaining.current = Math.max(500, remaining.current - (Date.now() - started.current));
  };

  useEffect(() => {
    start();
    return () => clearTimeout(timer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once: the timer belongs to this toast instance; a new toast is a new component.
  }, []);

  return (
    <li
      className={hydrated ? "gt-toast" : "gt-toast gt-toast-static"}
      data-type={item.type}
      // Without JavaScript (gt-toast-static) a CSS animation hides it after its duration.
      style={{ "--gt-toast-duration": `${item.duration}ms` } as CSSProperties}
      onMouseEnter={pause}
      onMouseLeave={() => !timer.current && start()}
      onFocus={pause}
      onBlur={() => !timer.current && start()}
    >
      <Callout.Root
        color={COLOR[item.type]}
        variant="surface"
        size="1"
        className="gt-toast-card"
        role={item.type === "error" ? "alert" : "status"}
        aria-atomic="true"
      >
        <Callout.Text className="gt-toast-body">
          <span className="gt-toast-message">{item.message}</span>
          {item.description ? <span className="gt-toast-description">{item.description}</span> : null}
        </Callout.Text>
        {hydrated ? (
          <IconButton
            type="button"
            size="1"
            variant="ghost"
            color="gray"
            aria-label="Dismiss notification"
            className="gt-toast-close"
            onClick={() => dismiss(item.id)}
          >
            <Cross2Icon />
          </IconButton>
        ) : null}
      </Callout.Root>
    </li>
  );
}
