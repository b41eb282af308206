import { overviewResponse } from '@lodestone/contract';
import { savePoolStats, savePrices } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import type { WorkerShareCounts } from '@lodestone/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { applyShareBatch } from '../../jobs/accounting.js';
import { shareBatch, shareCounts } from '../../jobs/testing.js';
import { runWorkerRollup } from '../../jobs/workerRollup.js';

/**
 * GET /v1/user/overview (docs/dashboard.md, "All accounts") against the real app and database, with
 * shares written by the accounting job. Now is 12:05:30 UTC; with STATS_WINDOW_MINUTES=10 the window
 * is 11:55:00 – 12:05:30 (630 s), the 24 hours 2024-05-05 12:00 – now (86,730 s). SCRYPT: 65,536
 * hashes per difficulty 1. Each account has a worker from before the 24 hours, so neither is young and
 * both are measured over the whole periods.
 */
const NOW = Date.parse('2024-05-06T12:05:30Z');

describe.each(testEngines())('all-accounts overview on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ STATS_WINDOW_MINUTES: '10', FEE_PERCENT: '1' }, undefined, engine, {
      now: () => new Date(NOW),
    });
    // The PPS rate of docs/money.md's example (BTC per H/s per day) and a BTC price, as the Mining API test.
    await savePoolStats(t.database.db, {
      algorithm: 'scrypt',
      taken_at: new Date(NOW - 20_000),
      hashrate: '0',
      miners: 0,
      workers: 0,
      profit: '0.000000006591796875',
      profit_avg_24h: '0.000000006591796875',
    });
    await savePrices(t.database.db, {
      source: 'test',
      takenAt: new Date(NOW - 60_000),
      quotes: [{ ticker: 'BTC', usd: '100000' }],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const apply = (end: string, workers: WorkerShareCounts[], algorithm: 'scrypt' | 'sha256' = 'scrypt') =>
    applyShareBatch(t.database.db, shareBatch(end, workers, { algorithm }));

  const overview = async (user: TestUser, algorithm = 'scrypt') => {
    const res = await get(t.app, '/v1/user/overview', { cookie: user.cookie, query: { algorithm } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return overviewResponse.strict().parse(res.json());
  };

  const newAccount = async (user: TestUser, name: string) => {
    const res = await post(t.app, '/v1/user/new_account', { username: name }, { cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('answers 401 logged out and 400 for a bad or missing algorithm', async () => {
    const user = await registerUser(t.app);
    expect((await get(t.app, '/v1/user/overview', { query: { algorithm: 'scrypt' } })).statusCode).toBe(401);
    expect((await get(t.app, '/v1/user/overview', { query: { algorithm: 'ethash' } })).statusCode).toBe(401);
    const bad = await get(t.app, '/v1/user/overview', { cookie: user.cookie, query: { algorithm: 'ethash' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'Unknown algorithm: ethash', code: 'VALIDATION_FAILED' });
    const missing = await get(t.app, '/v1/user/overview', { cookie: user.cookie });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'algorithm is required', code: 'VALIDATION_FAILED' });
  });

  it('is in the OpenAPI document the server publishes, among the dashboard’s calls', async () => {
    const res = await get(t.app, '/v1/openapi.json');
    expect(res.statusCode).toBe(200);
    const operation = res.json().paths['/v1/user/overview']?.get;
    expect(operation).toMatchObject({ operationId: 'userOverview', tags: ['Dashboard'] });
    expect(operation.parameters.map((p: { name: string; required: boolean }) => [p.name, p.required])).toEqual([
      ['algorithm', true],
    ]);
    expect(operation.responses['200'].content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['accounts', 'totals']),
    );
  });

  it('lists a new user’s one account as zeros', async () => {
    const user = await registerUser(t.app);
    const zeros = {
      hashrate: 0,
      hashrate_units: 'H/s',
      hashrate_avg: 0,
      hashrate_avg_units: 'H/s',
      active_workers: 0,
      total_workers: 0,
      low_workers: 0,
      offline_workers: 0,
      estimated_revenue: 0,
    };
    expect(await overview(user)).toEqual({
      algorithm: 'scrypt',
      window_minutes: 10,
      accounts: [{ account_name: user.username, ...zeros }],
      totals: zeros,
    });
  });

  it('answers each of the user’s live accounts as its Mining tab does, and their totals', async () => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const a = alice.username;
    const b = `${a}_b`;
    const gone = `${a}_c`;
    await newAccount(alice, b);
    await newAccount(alice, gone);

    // Account a: `old` only before the 24 hours (offline), rig1 in the window (online), rig3 earlier today (offline).
    await apply('2024-05-05T11:30:00Z', [shareCounts(a, 'old', { acceptedDifficulty: 9999, valid: 99 })]);
    await apply('2024-05-06T09:00:05Z', [shareCounts(a, 'rig3', { acceptedDifficulty: 6000, valid: 60 })]);
    await apply('2024-05-06T12:01:00Z', [shareCounts(a, 'rig1', { acceptedDifficulty: 3000, valid: 30 })]);
    await apply('2024-05-06T12:05:10Z', [shareCounts(a, 'rig1', { acceptedDifficulty: 1000, valid: 10 })]);
    // Account b: `old` (offline); `farm` mined 600,000 at 10:00 and 100 in the window (low: about 350 shares of
    // difficulty 100 were expected at 70% of its average, it sent 1); rig2 at 11:57 (online).
    await apply('2024-05-05T11:30:00Z', [shareCounts(b, 'old', { acceptedDifficulty: 1, valid: 1 })]);
    await apply('2024-05-06T10:00:05Z', [shareCounts(b, 'farm', { acceptedDifficulty: 600_000, valid: 6000 })]);
    await apply('2024-05-06T11:58:00Z', [shareCounts(b, 'rig2', { acceptedDifficulty: 2050, valid: 20 })]);
    await apply('2024-05-06T12:04:00Z', [shareCounts(b, 'farm', { acceptedDifficulty: 100, valid: 1 })]);
    // Neither the removed account, nor bob's, nor a's SHA256 rig is in a's answer.
    await apply('2024-05-06T12:02:00Z', [shareCounts(gone, 'rig1', { acceptedDifficulty: 50_000, valid: 500 })]);
    await apply('2024-05-06T12:02:00Z', [shareCounts(bob.username, 'rig1', { acceptedDifficulty: 5000, valid: 50 })]);
    await apply('2024-05-06T12:02:00Z', [shareCounts(a, 'asic', { acceptedDifficulty: 77, valid: 7 })], 'sha256');
    const removed = await post(t.app, '/v1/user/remove_account', { account_name: gone }, { cookie: alice.cookie });
    expect(removed.statusCode, removed.body).toBe(200);

    // a: window 4,000 × 65,536 ÷ 630 s = 416,101.59 H/s; 24 hours 10,000 × 65,536 ÷ 86,730 s = 7,556.32 H/s.
    // Revenue 4,000 × 65,536 × 6.591796875e-9 ÷ 630 s × (1 − 1%) × $100,000 = $271.5428… → 271.54.
    const rowA = {
      account_name: a,
      hashrate: 416.1,
      hashrate_units: 'Kh/s',
      hashrate_avg: 7.56,
      hashrate_avg_units: 'Kh/s',
      active_workers: 1,
      total_workers: 3,
      low_workers: 0,
      offline_workers: 2,
      estimated_revenue: 271.54,
    };
    // b: window 2,150 × 65,536 ÷ 630 s = 223,654.60 H/s; 24 hours 602,150 × 65,536 ÷ 86,730 s = 455,004.06 H/s.
    // Revenue 2,150 × 65,536 × 6.591796875e-9 ÷ 630 s × 0.99 × $100,000 = $145.9542… → 145.95.
    const rowB = {
      account_name: b,
      hashrate: 223.65,
      hashrate_units: 'Kh/s',
      hashrate_avg: 455,
      hashrate_avg_units: 'Kh/s',
      active_workers: 2,
      total_workers: 3,
      low_workers: 1,
      offline_workers: 1,
      estimated_revenue: 145.95,
    };
    // Totals are the rows as shown, added up in H/s: 416,100 + 223,650 = 639,750 H/s (all shares together:
    // 6,150 × 65,536 ÷ 630 s = 639,756.19); 7,560 + 455,000 = 462,560 H/s (612,150 × 65,536 ÷ 86,730 s =
    // 462,560.39); $271.54 + $145.95 = $417.49.
    const expected = {
      algorithm: 'scrypt',
      window_minutes: 10,
      accounts: [rowA, rowB],
      totals: {
        hashrate: 639.75,
        hashrate_units: 'Kh/s',
        hashrate_avg: 462.56,
        hashrate_avg_units: 'Kh/s',
        active_workers: 3,
        total_workers: 6,
        low_workers: 1,
        offline_workers: 3,
        estimated_revenue: 417.49,
      },
    };
    expect(await overview(alice)).toEqual(expected);
    // The algorithm as a name, any case, reads the same.
    expect(await overview(alice, 'SCRYPT')).toEqual(expected);

    // Each row is what that account's own Mining tab says.
    for (const row of [rowA, rowB]) {
      const res = await get(t.app, '/v1/user/mining', {
        cookie: alice.cookie,
        query: { account_name: row.account_name, algorithm: 'scrypt' },
      });
      const { account_name: _name, low_workers: _low, offline_workers: _offline, ...cards } = row;
      expect(res.json()).toEqual({ ...cards, window_minutes: 10 });
    }

    // Another algorithm: a's SHA256 rig, no PPS rate there, so no revenue.
    const sha = await overview(alice, 'sha256');
    expect(sha.accounts.map((r) => [r.account_name, r.total_workers, r.estimated_revenue])).toEqual([
      [a, 1, 0],
      [b, 0, 0],
    ]);

    // Bob sees his own account only.
    const bobs = await overview(bob);
    expect(bobs.accounts.map((r) => r.account_name)).toEqual([bob.username]);
    expect(bobs.totals.total_workers).toBe(1);

    // The same after the rollup job has run.
    await runWorkerRollup(t.database.db, new Date(NOW));
    expect(await overview(alice)).toEqual(expected);
  });
});
