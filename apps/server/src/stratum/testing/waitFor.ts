/**
 * Polls `check` until it returns a value (not undefined) and returns it; throws after `timeoutMs`,
 * naming what was awaited. For socket tests that wait on a node stand-in, a bus or a miner.
 */
export async function waitFor<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 20_000,
  intervalMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
