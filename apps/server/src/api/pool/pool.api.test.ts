import { poolStatsResponse } from '@lodestone/contract';
import { insertPoolStats } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import type { AlgorithmKey } from '@lodestone/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { STALE_AFTER_MS } from '../../services/poolStats.js';

const KEYS = ['scrypt', 'sha256', 'eaglesong', 'blake2s', 'x11', 'kheavyhash'];

describe.each(testEngines())('GET /v1/pool/stats on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({}, undefined, engine);
  });
  afterEach(() => t.close());

  it('answers zeros for every algorithm, in spec order, before the pool has any data', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/pool/stats' });
    expect(res.statusCode).toBe(200);
    const body = poolStatsResponse.parse(res.json());
    expect(Object.keys(body)).toEqual(KEYS);
    for (const key of KEYS) {
      expect(body[key as keyof typeof body]).toMatchObject({ hashrate: 0, miners: 0, profit: 0, profit_avg: 0 });
    }
    expect(body.scrypt.profit_units).toBe('BTC/TH/s');
    expect(body.sha256.profit_units).toBe('BTC/PH/s');
  });

  it('reads the newest snapshot per algorithm and scales base units for display', async () => {
    const now = Date.now();
    const row = (algorithm: AlgorithmKey, ageMs: number, hashrate: string, miners: number) => ({
      algorithm,
      taken_at: new Date(now - ageMs),
      hashrate,
      miners,
      workers: miners * 2,
      profit: '0.000000000000000025',
      profit_avg_24h: '0.00000000000000002',
    });
    await insertPoolStats(t.database.db, row('scrypt', 120_000, '1000', 1));
    await insertPoolStats(t.database.db, row('scrypt', 60_000, '2500000000000', 42));
    await insertPoolStats(t.database.db, row('x11', 30_000, '750000', 3));

    const body = poolStatsResponse.parse((await t.app.inject({ url: '/v1/pool/stats' })).json());
    expect(body.scrypt).toEqual({
      hashrate: 2.5,
      hashrate_units: 'Th/s',
      miners: 42,
      profit: 0.000025,
      profit_avg: 0.00002,
      profit_units: 'BTC/TH/s',
    });
    expect(body.x11).toMatchObject({ hashrate: 750, hashrate_units: 'Kh/s', miners: 3 });
    expect(body.sha256).toMatchObject({ hashrate: 0, miners: 0 });
  });

  it('does not present a stale snapshot as live hashrate', async () => {
    await insertPoolStats(t.database.db, {
      algorithm: 'sha256',
      taken_at: new Date(Date.now() - STALE_AFTER_MS - 60_000),
      hashrate: '9000000000000000',
      miners: 7,
      workers: 9,
      profit: '0.0000000000000000004',
      profit_avg_24h: '0.0000000000000000004',
    });
    const body = poolStatsResponse.parse((await t.app.inject({ url: '/v1/pool/stats' })).json());
    expect(body.sha256).toMatchObject({ hashrate: 0, miners: 0, profit: 0.0004, profit_units: 'BTC/PH/s' });
  });
});
