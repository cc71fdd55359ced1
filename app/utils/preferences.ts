import { useCallback, useSyncExternalStore } from "react";

/**
 * Browser-local preferences (spec 1 §3 "Local preference": "optimistic-updates flag stored in
 * the browser, default true"). Client-safe; on the server every preference reads as its default.
 *
 * The flag is stored as the strings "true" / "false" under `optimisticUpdates`, and only the
 * exact string "false" turns optimistic updates off (spec 1 §4: "apply only if the optimistic
 * flag is not 'false'"), so a missing, cleared or garbled value keeps the default.
 */
export const OPTIMISTIC_UPDATES_KEY = "optimisticUpdates";

const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    // Storage can be blocked (privacy settings); the default then applies.
    return undefined;
  }
}

export function getOptimisticUpdates(): boolean {
  return storage()?.getItem(OPTIMISTIC_UPDATES_KEY) !== "false";
}

export function setOptimisticUpdates(enabled: boolean): void {
  try {
    storage()?.setItem(OPTIMISTIC_UPDATES_KEY, String(enabled));
  } catch {
    // Quota or privacy errors: the choice lasts for this page only.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changing the flag updates this one too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === OPTIMISTIC_UPDATES_KEY || event.key === null) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The optimistic-updates flag and its setter; the server and hydration render use the default. */
export function useOptimisticUpdates(): [boolean, (enabled: boolean) => void] {
  const enabled = useSyncExternalStore(subscribe, getOptimisticUpdates, () => true);
  const set = useCallback((value: boolean) => setOptimisticUpdates(value), []);
  return [enabled, set];
}
