// The one shape of every in-memory cache of a Worker isolate. An isolate lives for many requests
// and is shared by all their senders, so anything it remembers per key must have a ceiling (an
// attacker's endless keys only cycle it) and, when the remembered fact goes stale, an expiry.
// Performance register: docs/performance.md.

type Held<V> = { value: V; until: number };

/**
 * A Map of at most `maxEntries`: setting a key makes it the newest, and past the cap the entry
 * set longest ago is forgotten first. An entry set with `until` reads as absent (and is dropped)
 * from that moment on.
 */
export class BoundedMap<K, V> {
  // A Map iterates in insertion order, so its first key is always the one set longest ago.
  private readonly held = new Map<K, Held<V>>();

  constructor(private readonly maxEntries: number) {
    if (!(maxEntries >= 1)) throw new RangeError(`BoundedMap needs room for at least one entry, not ${maxEntries}`);
  }

  get size(): number {
    return this.held.size;
  }

  /** The value of `key`, or undefined when it was never set, was forgotten or expired by `now`. */
  get(key: K, now = Date.now()): V | undefined {
    const found = this.held.get(key);
    if (!found) return undefined;
    if (found.until > now) return found.value;
    this.held.delete(key);
    return undefined;
  }

  /** Remembers `value` until the time `until` (ms, the same clock as `get`'s `now`), or for as long as there is room. */
  set(key: K, value: V, until = Number.POSITIVE_INFINITY): void {
    this.held.delete(key);
    this.held.set(key, { value, until });
    while (this.held.size > this.maxEntries) this.held.delete(this.held.keys().next().value as K);
  }

  delete(key: K): boolean {
    return this.held.delete(key);
  }

  /** Forgets every entry whose key and value `match`, expired or not. */
  deleteWhere(match: (value: V, key: K) => boolean): void {
    for (const [key, { value }] of this.held) if (match(value, key)) this.held.delete(key);
  }
}
