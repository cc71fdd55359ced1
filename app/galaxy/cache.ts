/**
 * A small in-memory TTL cache for Galaxy service answers, with in-flight sharing: two
 * callers asking the same thing at the same time cause one platform call, not two.
 * Entries are evicted oldest-first beyond `maxEntries` (Map keeps insertion order, and a
 * fresh write re-inserts its key at the end).
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private readonly pending = new Map<string, Promise<V>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get size() {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: V) {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** Removes every entry whose key starts with `prefix` (e.g. one account's answers). */
  deletePrefix(prefix: string) {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  deleteMatching(test: (key: string) => boolean) {
    for (const key of this.entries.keys()) if (test(key)) this.entries.delete(key);
  }

  clear() {
    this.entries.clear();
  }

  /**
   * The cached value, or the result of `load` (stored on success). With `skipCache` the
   * stored value is ignored but the fresh answer still replaces it, so the next normal
   * read sees the newest data. Failures are never cached.
   */
  async getOrLoad(key: string, load: () => Promise<V>, skipCache = false): Promise<V> {
    if (!skipCache) {
      const hit = this.get(key);
      if (hit !== undefined) return hit;
      const inFlight = this.pending.get(key);
      if (inFlight) return inFlight;
    }
    const promise = load().then((value) => {
      this.set(key, value);
      return value;
    });
    // A forced reload becomes the shared in-flight call too: later normal readers wait for it.
    this.pending.set(key, promise);
    const forget = () => {
      if (this.pending.get(key) === promise) this.pending.delete(key);
    };
    promise.then(forget, forget);
    return promise;
  }
}
