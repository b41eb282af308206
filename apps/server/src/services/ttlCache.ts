import { LRUCache } from 'lru-cache';

/**
 * The API's answer cache, on lru-cache: a read is remembered for `ttlMs` and concurrent callers share
 * one read in flight (lru-cache's fetch). For data that changes on a schedule (pool statistics are
 * rolled up once a minute) this turns N requests per second into one query per period. A failed read
 * is not remembered.
 */

/** At most this many keys per cache (algorithms today); the least recently used goes first past it. */
const MAX_KEYS = 64;

/**
 * One remembered read per key, for reads by an argument from a small set (an algorithm): `keyOf` names
 * the argument's entry.
 */
export function ttlCacheBy<A, T>(
  ttlMs: number,
  read: (arg: A) => Promise<T>,
  keyOf: (arg: A) => string,
  now: () => number = performance.now.bind(performance),
): (arg: A) => Promise<T> {
  // Values are boxed: lru-cache takes no undefined or null value, and a read may answer either.
  const cache = new LRUCache<string, { value: T }, { arg: A }>({
    max: MAX_KEYS,
    // Fresh while its age is at most ttlMs (lru-cache's rule), then read again on the next call.
    ttl: ttlMs,
    // The clock is read on every get rather than rounded to lru-cache's default 1 ms resolution.
    ttlResolution: 0,
    perf: { now },
    fetchMethod: async (_key, _stale, { context }) => ({ value: await read(context.arg) }),
  });
  return async (arg) => {
    const boxed = await cache.fetch(keyOf(arg), { context: { arg } });
    // fetch answers undefined only when the fetch was aborted, which nothing here does.
    if (!boxed) throw new Error('cached read was aborted');
    return boxed.value;
  };
}

/** One remembered read: ttlCacheBy with a single key. */
export function ttlCache<T>(ttlMs: number, read: () => Promise<T>, now?: () => number): () => Promise<T> {
  const cached = ttlCacheBy<undefined, T>(ttlMs, read, () => '', now);
  return () => cached(undefined);
}
