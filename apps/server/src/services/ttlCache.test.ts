import { describe, expect, it } from 'vitest';
import { ttlCache, ttlCacheBy } from './ttlCache.js';

describe('ttlCache', () => {
  it('reads once per period and shares a read in flight', async () => {
    let clock = 1; // lru-cache reads a clock of 0 as "no time"
    let reads = 0;
    const get = ttlCache(
      1000,
      async () => ++reads,
      () => clock,
    );
    expect(await Promise.all([get(), get(), get()])).toEqual([1, 1, 1]);
    clock = 1000;
    expect(await get()).toBe(1);
    clock = 1002;
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

describe('ttlCacheBy', () => {
  it('keeps one entry per key, each with its own period', async () => {
    let clock = 1; // lru-cache reads a clock of 0 as "no time"
    const reads: string[] = [];
    const get = ttlCacheBy(
      1000,
      async (algorithm: { key: string }) => {
        reads.push(algorithm.key);
        return `${algorithm.key}:${reads.length}`;
      },
      (algorithm) => algorithm.key,
      () => clock,
    );
    expect(await get({ key: 'scrypt' })).toBe('scrypt:1');
    expect(await get({ key: 'sha256' })).toBe('sha256:2');
    clock = 501;
    expect(await get({ key: 'scrypt' })).toBe('scrypt:1');
    clock = 1002;
    expect(await get({ key: 'scrypt' })).toBe('scrypt:3');
    expect(reads).toEqual(['scrypt', 'sha256', 'scrypt']);
  });
});
