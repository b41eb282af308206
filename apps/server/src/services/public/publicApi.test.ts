import type { PoolStats } from '@lodestone/db';
import { algorithmByKey } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { presentApiAlgorithm } from './publicApi.js';

describe('an algorithm of the public API', () => {
  it('gives its hashrate at three decimals of its unit, without float noise', () => {
    const now = new Date('2026-11-29T10:00:00Z');
    const row: PoolStats = {
      id: 1n,
      algorithm: 'scrypt',
      taken_at: now,
      hashrate: '524254932.7909355',
      miners: 3,
      workers: 4,
      users: 2,
      blocks: 1,
      total_hashes: '0',
      profit: '0',
      profit_avg_24h: '0',
    };
    const scrypt = algorithmByKey('scrypt');
    if (!scrypt) throw new Error('no scrypt');
    expect(presentApiAlgorithm(scrypt, row, 1, now)).toMatchObject({ hashrate: 524.255, speedUnits: 'Mh/s' });
    expect(presentApiAlgorithm(scrypt, { ...row, hashrate: '2307446' }, 1, now).hashrate).toBe(2.307);
  });
});
