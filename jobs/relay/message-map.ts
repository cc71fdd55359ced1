/**
 * A bounded map (issue 22 B.1 "keep a Discord ↔ Galaxy message-id map (bounded)"): insertion
 * order, the oldest entry goes when the bound is passed; a `set` of an existing key moves it to
 * the newest. matterbridge keeps an LRU of 5000 (gateway.go:49); so do we (RELAY_MAP_MAX).
 */
export class BoundedMap<K, V> {
  readonly #map = new Map<K, V>();
  constructor(readonly max: number) {}

  get(key: K): V | undefined {
    return this.#map.get(key);
  }

  set(key: K, value: V): this {
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.max) this.#map.delete(this.#map.keys().next().value as K);
    return this;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  get size(): number {
    return this.#map.size;
  }
}
