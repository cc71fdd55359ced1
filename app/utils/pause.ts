/**
 * Waits `ms`, or less when `signal` aborts first. Never rejects: session loops check
 * `signal.aborted` themselves after each pause (stop, lock loss and shutdown all abort it).
 * The Galaxy client's limiter has its own rejecting `sleep` (app/galaxy/limiter.ts) for
 * callers that must unwind on abort.
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
