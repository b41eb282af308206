/**
 * Remembers the result of an async read for `ttlMs`, and lets concurrent callers share one read in
 * flight. For data that changes on a schedule (pool statistics are rolled up once a minute) this
 * turns N requests per second into one query per period. A failed read is not remembered.
 */
export function ttlCache<T>(ttlMs: number, read: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let value: { at: number; data: T } | undefined;
  let inFlight: Promise<T> | undefined;
  return () => {
    if (value && now() - value.at < ttlMs) return Promise.resolve(value.data);
    if (!inFlight) {
      inFlight = read()
        .then((data) => {
          value = { at: now(), data };
          return data;
        })
        .finally(() => {
          inFlight = undefined;
        });
    }
    return inFlight;
  };
}

/**
 * One `ttlCache` per key, for reads by an argument from a small fixed set (an algorithm): `keyOf`
 * names the argument's entry. Entries are never dropped, so the set of keys must be bounded.
 */
export function ttlCacheBy<A, T>(
  ttlMs: number,
  read: (arg: A) => Promise<T>,
  keyOf: (arg: A) => PropertyKey,
  now: () => number = Date.now,
): (arg: A) => Promise<T> {
  const caches = new Map<PropertyKey, () => Promise<T>>();
  return (arg) => {
    const key = keyOf(arg);
    let cached = caches.get(key);
    if (!cached) {
      cached = ttlCache(ttlMs, () => read(arg), now);
      caches.set(key, cached);
    }
    return cached();
  };
}
