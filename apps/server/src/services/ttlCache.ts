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
