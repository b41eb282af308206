/** Runs `fn` on the first call only; later calls get the same promise (idempotent close). */
export function once(fn: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | undefined;
  return () => {
    result ??= fn();
    return result;
  };
}
