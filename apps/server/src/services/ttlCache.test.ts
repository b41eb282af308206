import { describe, expect, it } from 'vitest';
import { ttlCache } from './ttlCache.js';

describe('ttlCache', () => {
  it('reads once per period and shares a read in flight', async () => {
    let clock = 0;
    let reads = 0;
    const get = ttlCache(
      1000,
      async () => ++reads,
      () => clock,
    );
    expect(await Promise.all([get(), get(), get()])).toEqual([1, 1, 1]);
    clock = 999;
    expect(await get()).toBe(1);
    clock = 1000;
    expect(await get()).toBe(2);
    expect(reads).toBe(2);
  });

  it('does not remember failures', async () => {
    let fail = true;
    const get = ttlCache(1000, async () => {
      if (fail) throw new Error('database down');
      return 'ok';
    });
    await expect(get()).rejects.toThrow('database down');
    fail = false;
    expect(await get()).toBe('ok');
  });
});
