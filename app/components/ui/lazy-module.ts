/**
 * A module loaded once, on demand, with React-subscribable state: the store behind
 * `lazyComponent` and `lazyValidation` (bench/README.md "First-load weight").
 * A failed load (offline, a stale deployment) is forgotten, so the next `start()` retries.
 */
export type LazyModule<T> = {
  /** Starts loading unless it is loaded or loading. */
  start(): void;
  subscribe(listener: () => void): () => void;
  /** The loaded value, else `initial`. */
  get(): T | undefined;
};

export function lazyModule<T>(load: () => Promise<T>, initial?: T): LazyModule<T> {
  let loaded = initial;
  let loading: Promise<void> | undefined;
  const listeners = new Set<() => void>();
  return {
    start() {
      loading ??= load().then(
        (value) => {
          loaded = value;
          for (const listener of listeners) listener();
        },
        () => {
          loading = undefined;
        },
      );
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: () => loaded,
  };
}
