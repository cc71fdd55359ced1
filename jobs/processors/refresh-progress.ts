import { storeRefreshProgress, type RefreshScope } from "~/models/refresh-progress.server";
import type { RefreshProgress } from "~/utils/refresh-outcome";

/**
 * Writes a bulk refresh's progress for the screens, throttled: each write is an app_settings
 * upsert plus a live event (`refresh:<scope>`, after the write), and a refresh of 200 accounts
 * answering within a second would otherwise send 200 of each. At most one write per `everyMs`
 * (4 a second by default), the first at once, and the latest figures always reach the
 * database (a trailing write), so the page never stays behind a quiet stretch.
 *
 * Writes run one after another in call order; a failed write is dropped (the next one
 * carries newer figures). `end()` writes the final figures at once and waits for every write.
 */
export function refreshProgressWriter(scope: RefreshScope, first: RefreshProgress, everyMs = 250) {
  let latest = first;
  let lastWrite = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let chain: Promise<void> = Promise.resolve();

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    lastWrite = Date.now();
    const p = latest;
    chain = chain.then(() => storeRefreshProgress(scope, p)).catch(() => {});
  };

  flush();
  return {
    get latest() {
      return latest;
    },
    /** New running figures: written now, or by the trailing write within `everyMs`. */
    update(patch: Partial<RefreshProgress>) {
      latest = { ...latest, ...patch };
      const wait = lastWrite + everyMs - Date.now();
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
    /** The final figures, written at once; resolves when every write is done. */
    async end(patch: Partial<RefreshProgress>) {
      latest = { ...latest, ...patch };
      flush();
      await chain;
    },
  };
}
