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

/**
 * Waits until the clock reads `at` (epoch ms), or less when `signal` aborts first. A timer runs
 * on the process's monotonic clock, counted in whole milliseconds, and can end before `Date.now()`
 * reads `at` (by a millisecond of rounding, by more while the wall clock is slewed). A wait for a
 * deadline that someone else checks by the clock (the platform's relogin window) waits out the rest.
 */
export async function pauseUntil(at: number, signal?: AbortSignal): Promise<void> {
  while (!signal?.aborted && Date.now() < at) await pause(Math.max(1, at - Date.now()), signal);
}
