import {
  chartResponse,
  lifetimeEarningsResponse,
  REVENUE_CHART_LABEL,
  revenueBalanceResponse,
  revenueEarningsResponse,
  revenuePayoutsResponse,
} from '@lodestone/contract';
import { lockWorkerRollups, pruneWorkerMinutes, reconcileLedger, rollUpWorkerStats, savePrices } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import type { BatchNetwork } from '@lodestone/domain';
import { addDays, daysBetween } from '@lodestone/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, registerUser } from '../../../test/accounts.js';
import { createTestApp } from '../../../test/helpers.js';
import { DEMO_TXID, LTC_TXID, minerOf, NOW, type RevenueWorld, seedRevenueWorld } from '../../../test/revenueWorld.js';
import { applyShareBatch } from '../../jobs/accounting.js';
import { shareBatch, shareCounts } from '../../jobs/testing.js';

const CALLS = [
  ['/v1/user/revenue/balance', {}],
  ['/v1/user/revenue/payouts', { timezone: 'UTC' }],
  ['/v1/user/revenue/earnings', { algorithm: 'scrypt' }],
  ['/v1/user/revenue/lifetimeearnings', { algorithm: 'scrypt' }],
  ['/v1/user/revenue/chart', { algorithm: 'scrypt', timezone: 'UTC' }],
] as const;

describe.each(testEngines())('revenue calls on %s', (engine) => {
  let w: RevenueWorld;
  beforeAll(async () => {
    w = await seedRevenueWorld(engine);
  });
  afterAll(async () => {
    await w?.t.close();
  });

  const call = (path: string, query: Record<string, string> = {}, who = w.alice) =>
    get(w.t.app, path, { cookie: who.user.cookie, query: { account_name: who.name, ...query } });

  describe('GET /v1/user/revenue/balance', () => {
    it('lists held coins and conversion coins in catalogue order with price, balance and payout warning', async () => {
      const res = await call('/v1/user/revenue/balance');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(revenueBalanceResponse.parse(res.json())).toEqual([
        // 700 earned − 200 paid (the failed payout of 100 was given back); no BTC address: warning.
        {
          coin_ticker: 'BTC',
          coin_price: 100000,
          coin_balance: '500',
          coin_decimals: 8,
          usd_decimals: 2,
          show_warning: true,
        },
        // 10,521,000 earned − 4,000,000 sent − 500,000 pending; paid to ltc1qalice1: no warning.
        {
          coin_ticker: 'LTC',
          coin_price: 80,
          coin_balance: '6021000',
          coin_decimals: 8,
          usd_decimals: 2,
          show_warning: false,
        },
        // Half of scrypt is converted into DOGE, which has no address yet: listed at 0 with a warning.
        {
          coin_ticker: 'DOGE',
          coin_price: 0.2,
          coin_balance: '0',
          coin_decimals: 8,
          usd_decimals: 2,
          show_warning: true,
        },
        // No price recorded: null, not 0.
        {
          coin_ticker: 'DASH',
          coin_price: null,
          coin_balance: '3000000',
          coin_decimals: 8,
          usd_decimals: 2,
          show_warning: true,
        },
      ]);
    });

    it("shows another account's own balances only", async () => {
      const body = revenueBalanceResponse.parse((await call('/v1/user/revenue/balance', {}, w.bob)).json());
      // 2,500,000 earned − 2,000,000 paid; no payout settings.
      expect(body).toEqual([
        {
          coin_ticker: 'LTC',
          coin_price: 80,
          coin_balance: '500000',
          coin_decimals: 8,
          usd_decimals: 2,
          show_warning: true,
        },
      ]);
    });
  });

  describe('GET /v1/user/revenue/payouts', () => {
    it("lists this account's items newest first, dates in the zone, Pending until sent, failed left out", async () => {
      const res = await call('/v1/user/revenue/payouts', { timezone: 'Europe/Madrid' });
      expect(res.statusCode, res.body).toBe(200);
      expect(revenuePayoutsResponse.parse(res.json())).toEqual([
        {
          payout_date: '2025-06-15T01:30:00+02:00',
          payout_address: 'ltc1qalice1',
          coin_balance: '500000',
          coin_decimals: 8,
          coin_ticker: 'LTC',
          payout_txid: 'Pending',
          payout_txid_url: null,
        },
        {
          payout_date: '2025-06-12T02:00:00+02:00',
          payout_address: 'bc1qalice',
          coin_balance: '200',
          coin_decimals: 8,
          coin_ticker: 'BTC',
          payout_txid: DEMO_TXID,
          payout_txid_url: null,
        },
        {
          payout_date: '2025-06-10T10:00:00+02:00',
          payout_address: 'ltc1qalice1',
          coin_balance: '3000000',
          coin_decimals: 8,
          coin_ticker: 'LTC',
          payout_txid: LTC_TXID,
          payout_txid_url: `https://litecoinspace.org/tx/${LTC_TXID}`,
        },
        {
          payout_date: '2025-06-10T10:00:00+02:00',
          payout_address: 'ltc1qalice2',
          coin_balance: '1000000',
          coin_decimals: 8,
          coin_ticker: 'LTC',
          payout_txid: LTC_TXID,
          payout_txid_url: `https://litecoinspace.org/tx/${LTC_TXID}`,
        },
      ]);
    });

    it('writes UTC dates by default, and lists only the asking account', async () => {
      const alice = revenuePayoutsResponse.parse((await call('/v1/user/revenue/payouts')).json());
      expect(alice.map((p) => p.payout_date)).toEqual([
        '2025-06-14T23:30:00+00:00',
        '2025-06-12T00:00:00+00:00',
        '2025-06-10T08:00:00+00:00',
        '2025-06-10T08:00:00+00:00',
      ]);
      const bob = revenuePayoutsResponse.parse((await call('/v1/user/revenue/payouts', {}, w.bob)).json());
      expect(bob.map((p) => [p.payout_address, p.coin_balance, p.payout_txid])).toEqual([
        ['ltc1qbob', '2000000', LTC_TXID],
      ]);
    });
  });

  describe('GET /v1/user/revenue/earnings', () => {
    it('lists days with earnings or shares of the last 90 days, newest first, UTC days by default', async () => {
      const res = await call('/v1/user/revenue/earnings', { algorithm: 'scrypt' });
      expect(res.statusCode, res.body).toBe(200);
      expect(revenueEarningsResponse.parse(res.json())).toEqual([
        // 43,200 × 65,536 hashes over the 12 hours of today so far = 65,536 H/s.
        {
          earning_timestamp: '2025-06-15',
          speed: 65.536,
          speed_units: 'Kh/s',
          coins: [{ coin_balance: '1000000', coin_decimals: 8, coin_ticker: 'LTC' }],
        },
        // 86,400 × 65,536 over 24 hours.
        {
          earning_timestamp: '2025-06-14',
          speed: 65.536,
          speed_units: 'Kh/s',
          coins: [
            { coin_balance: '700', coin_decimals: 8, coin_ticker: 'BTC' },
            { coin_balance: '500000', coin_decimals: 8, coin_ticker: 'LTC' },
          ],
        },
        // The referral reward counts as an earning of the algorithm whose shares earned it.
        {
          earning_timestamp: '2025-06-13',
          speed: 0,
          speed_units: 'H/s',
          coins: [{ coin_balance: '20000', coin_decimals: 8, coin_ticker: 'LTC' }],
        },
        // Shares without a credit that day: 864 × 65,536 / 86,400 = 655.36 H/s.
        { earning_timestamp: '2025-06-12', speed: 655.36, speed_units: 'H/s', coins: [] },
        {
          earning_timestamp: '2025-05-31',
          speed: 0,
          speed_units: 'H/s',
          coins: [{ coin_balance: '1000', coin_decimals: 8, coin_ticker: 'LTC' }],
        },
        // 2025-03-01 is older than 90 days.
      ]);
    });

    it('puts day boundaries in the asked time zone: 23:30 UTC is the next day in Madrid', async () => {
      const body = revenueEarningsResponse.parse(
        (await call('/v1/user/revenue/earnings', { algorithm: 'SCRYPT', timezone: 'Europe/Madrid' })).json(),
      );
      expect(body).toEqual([
        // Today in Madrid began at 22:00 UTC: 43,200 × 65,536 over 14 hours = 56,173.714 H/s.
        {
          earning_timestamp: '2025-06-15',
          speed: 56.174,
          speed_units: 'Kh/s',
          coins: [{ coin_balance: '1500000', coin_decimals: 8, coin_ticker: 'LTC' }],
        },
        {
          earning_timestamp: '2025-06-14',
          speed: 65.536,
          speed_units: 'Kh/s',
          coins: [{ coin_balance: '700', coin_decimals: 8, coin_ticker: 'BTC' }],
        },
        {
          earning_timestamp: '2025-06-13',
          speed: 0,
          speed_units: 'H/s',
          coins: [{ coin_balance: '20000', coin_decimals: 8, coin_ticker: 'LTC' }],
        },
        { earning_timestamp: '2025-06-12', speed: 655.36, speed_units: 'H/s', coins: [] },
        {
          earning_timestamp: '2025-06-01',
          speed: 0,
          speed_units: 'H/s',
          coins: [{ coin_balance: '1000', coin_decimals: 8, coin_ticker: 'LTC' }],
        },
      ]);
    });

    it('keeps algorithms apart', async () => {
      const body = revenueEarningsResponse.parse(
        (await call('/v1/user/revenue/earnings', { algorithm: 'x11' })).json(),
      );
      // 1,000 × 2^32 hashes over a day = 49,710,269.63 H/s.
      expect(body).toEqual([
        {
          earning_timestamp: '2025-06-14',
          speed: 49.71,
          speed_units: 'Mh/s',
          coins: [{ coin_balance: '3000000', coin_decimals: 8, coin_ticker: 'DASH' }],
        },
      ]);
      expect((await call('/v1/user/revenue/earnings', { algorithm: 'sha256' })).json()).toEqual([]);
    });

    it('reads the same speeds once the worker rollup ran and the minute rows are gone', async () => {
      const query = { algorithm: 'scrypt', timezone: 'Europe/Madrid' };
      const before = (await call('/v1/user/revenue/earnings', query)).json();
      const db = w.t.database.db;
      await db.transaction().execute(async (trx) => {
        await lockWorkerRollups(trx);
        await rollUpWorkerStats(trx, { completeBefore: NOW, now: NOW, maxBatches: 1000 });
      });
      for (const algorithm of ['scrypt', 'x11'] as const) await pruneWorkerMinutes(db, algorithm, NOW, 1000);
      expect(await db.selectFrom('worker_stats_minute').select('worker_id').execute()).toEqual([]);
      expect((await call('/v1/user/revenue/earnings', query)).json()).toEqual(before);
    });
  });

  describe('GET /v1/user/revenue/lifetimeearnings', () => {
    it('adds up everything the algorithm ever earned per coin, as exact coin amounts', async () => {
      const res = await call('/v1/user/revenue/lifetimeearnings', { algorithm: 'scrypt' });
      expect(res.statusCode, res.body).toBe(200);
      const body = lifetimeEarningsResponse.parse(res.json());
      expect(body).toEqual({ BTC: '0.000007', LTC: '0.10521' });
      expect(Object.keys(body)).toEqual(['BTC', 'LTC']);
      expect((await call('/v1/user/revenue/lifetimeearnings', { algorithm: 'x11' })).json()).toEqual({ DASH: '0.03' });
      expect((await call('/v1/user/revenue/lifetimeearnings', { algorithm: 'kheavyhash' })).json()).toEqual({});
    });
  });

  describe('GET /v1/user/revenue/chart', () => {
    const thirtyDays = daysBetween(addDays('2025-06-15', -29), '2025-06-15');

    it('charts 30 days of earnings in US dollars at current prices, cut to cents', async () => {
      const res = await call('/v1/user/revenue/chart', { algorithm: 'scrypt', timezone: 'UTC' });
      expect(res.statusCode, res.body).toBe(200);
      const body = chartResponse.parse(res.json());
      expect(body.label).toBe(REVENUE_CHART_LABEL);
      expect(body.x_axis).toEqual(thirtyDays);
      expect(body.x_axis[0]).toBe('2025-05-17');
      const y = Object.fromEntries(body.x_axis.map((x, i) => [x, body.y_axis[i]]));
      // 05-31: 0.00001 LTC × $80 = $0.0008 → 0; 06-13: 0.0002 × 80 = 0.016 → 0.01;
      // 06-14: 0.000007 BTC × 100,000 + 0.005 LTC × 80 = 1.1; 06-15: 0.01 × 80 = 0.8.
      expect(y).toMatchObject({ '2025-05-31': 0, '2025-06-13': 0.01, '2025-06-14': 1.1, '2025-06-15': 0.8 });
      expect(body.y_axis.reduce((a, b) => a + b, 0)).toBeCloseTo(1.91, 10);
    });

    it('charts the last 24 hours in hours and 7 days in 4-hour points', async () => {
      const chart = async (period: string) =>
        chartResponse.parse((await call('/v1/user/revenue/chart', { algorithm: 'scrypt', period })).json());
      // Now is 06-15 12:00Z: 24 hours from 06-14 13:00 to the current 12:00; 06-14 12:00's BTC is before them.
      const day = await chart('24h');
      expect(day.x_axis).toHaveLength(24);
      expect([day.x_axis[0], day.x_axis.at(-1)]).toEqual(['13:00', '12:00']);
      const byHour = Object.fromEntries(day.x_axis.map((x, i) => [x, day.y_axis[i]]));
      expect(byHour).toMatchObject({ '23:00': 0.4, '10:00': 0.8 });
      expect(day.y_axis.reduce((a, b) => a + b, 0)).toBeCloseTo(1.2, 10);
      // 42 points of 4 hours, the last 06-15 12:00–16:00.
      const week = await chart('7d');
      expect(week.x_axis).toHaveLength(42);
      expect(week.x_axis.at(-1)).toBe('06-15 12:00');
      const byPoint = Object.fromEntries(week.x_axis.map((x, i) => [x, week.y_axis[i]]));
      expect(byPoint).toMatchObject({ '06-14 12:00': 0.7, '06-14 20:00': 0.4, '06-15 08:00': 0.8 });
      const bad = await call('/v1/user/revenue/chart', { algorithm: 'scrypt', period: '90d' });
      expect(bad.statusCode).toBe(400);
    });

    it('uses the zone for day boundaries', async () => {
      const body = chartResponse.parse(
        (await call('/v1/user/revenue/chart', { algorithm: 'scrypt', timezone: 'Europe/Madrid' })).json(),
      );
      expect(body.x_axis).toEqual(thirtyDays);
      const y = Object.fromEntries(body.x_axis.map((x, i) => [x, body.y_axis[i]]));
      expect(y).toMatchObject({ '2025-06-13': 0.01, '2025-06-14': 0.7, '2025-06-15': 1.2 });
    });

    it('starts at the day of the first earning from the algorithm, not with zeros; later days without earnings are 0', async () => {
      const chart = async (query: Record<string, string>, who = w.alice) =>
        chartResponse.parse((await call('/v1/user/revenue/chart', query, who)).json());
      // Bob first earned on 2025-06-09 at 12:00Z: 0.025 LTC × $80 = $2, then nothing (real zeros).
      const bob = await chart({ algorithm: 'scrypt', timezone: 'UTC' }, w.bob);
      expect(bob.x_axis).toEqual(daysBetween('2025-06-09', '2025-06-15'));
      expect(bob.y_axis).toEqual([2, 0, 0, 0, 0, 0, 0]);
      // At UTC+14 that first earning is on the 10th.
      const kiritimati = await chart({ algorithm: 'scrypt', timezone: 'Pacific/Kiritimati' }, w.bob);
      expect(kiritimati.x_axis[0]).toBe('2025-06-10');
      expect(kiritimati.y_axis[0]).toBe(2);
      // Alice's x11 starts on 06-14 (DASH has no price: its days read 0, they are not left out).
      expect(await chart({ algorithm: 'x11', timezone: 'UTC' })).toEqual({
        x_axis: ['2025-06-14', '2025-06-15'],
        y_axis: [0, 0],
        label: REVENUE_CHART_LABEL,
      });
      // Nothing ever earned on the algorithm: no points.
      expect(await chart({ algorithm: 'kheavyhash', timezone: 'UTC' })).toEqual({
        x_axis: [],
        y_axis: [],
        label: REVENUE_CHART_LABEL,
      });
    });
  });

  describe('who may call', () => {
    it.each(CALLS)('%s: another user’s account is 404, no session is 401', async (path, query) => {
      const other = await get(w.t.app, path, {
        cookie: w.alice.user.cookie,
        query: { account_name: w.bob.name, ...query },
      });
      expect(other.statusCode).toBe(404);
      expect(other.json()).toEqual({ error: 'Account not found', code: 'NOT_FOUND' });
      const loggedOut = await get(w.t.app, path, { query: { account_name: w.alice.name, ...query } });
      expect(loggedOut.statusCode).toBe(401);
      const missing = await get(w.t.app, path, { cookie: w.alice.user.cookie, query: { ...query } });
      expect(missing.statusCode).toBe(400);
    });

    it('refuses unknown algorithms and time zones with 400', async () => {
      const badAlgorithm = await call('/v1/user/revenue/earnings', { algorithm: 'ethash' });
      expect(badAlgorithm.statusCode).toBe(400);
      expect(badAlgorithm.json().error).toContain('Unknown algorithm: ethash');
      expect((await call('/v1/user/revenue/lifetimeearnings')).statusCode).toBe(400);
      const badZone = await call('/v1/user/revenue/chart', { algorithm: 'scrypt', timezone: 'Mars/Olympus' });
      expect(badZone.statusCode).toBe(400);
      expect(badZone.json().code).toBe('VALIDATION_FAILED');
      expect((await call('/v1/user/revenue/payouts', { timezone: 'Nowhere/City' })).statusCode).toBe(400);
    });

    it('warns about a coin whose payouts the operator disabled, address or not', async () => {
      await w.t.database.db.updateTable('coins').set({ payouts_enabled: false }).where('ticker', '=', 'LTC').execute();
      try {
        const body = revenueBalanceResponse.parse((await call('/v1/user/revenue/balance')).json());
        expect(body.find((b) => b.coin_ticker === 'LTC')?.show_warning).toBe(true);
      } finally {
        await w.t.database.db.updateTable('coins').set({ payouts_enabled: true }).where('ticker', '=', 'LTC').execute();
      }
    });
  });
});

describe.each(testEngines())('revenue calls after real share batches on %s', (engine) => {
  const LTC: BatchNetwork = { coin: 'LTC', height: 2_900_000, reward: '625000000', difficulty: '1000000', demo: false };

  it('show the PPS credits of a batch in balance, earnings and lifetime earnings', async () => {
    const t = await createTestApp({}, undefined, engine);
    try {
      const miner = await minerOf(t, await registerUser(t.app));
      const now = new Date();
      await savePrices(t.database.db, { source: 'test', takenAt: now, quotes: [{ ticker: 'LTC', usd: '80' }] });
      const batch = shareBatch(
        new Date(now.getTime() - 1000).toISOString(),
        [shareCounts(miner.name, 'rig1', { acceptedDifficulty: 1600, valid: 3 })],
        { network: LTC },
      );
      await applyShareBatch(t.database.db, batch, { feePercent: 1, priceMaxAgeMs: 1_800_000 });
      const query = { account_name: miner.name, algorithm: 'scrypt' };
      const balance = revenueBalanceResponse.parse(
        (await get(t.app, '/v1/user/revenue/balance', { cookie: miner.user.cookie, query })).json(),
      );
      // 1,600 × 6.25 LTC ÷ 1,000,000 = 0.01 LTC, less the 1% fee.
      expect(balance).toEqual([expect.objectContaining({ coin_ticker: 'LTC', coin_balance: '990000' })]);
      const earnings = revenueEarningsResponse.parse(
        (await get(t.app, '/v1/user/revenue/earnings', { cookie: miner.user.cookie, query })).json(),
      );
      // Today's record (the shares' minute and the credit could only fall on two days within a
      // millisecond of midnight, so the records are added up rather than assumed to be one).
      expect(earnings.flatMap((e) => e.coins)).toEqual([
        { coin_balance: '990000', coin_decimals: 8, coin_ticker: 'LTC' },
      ]);
      expect(earnings.some((e) => e.speed > 0)).toBe(true);
      const lifetime = await get(t.app, '/v1/user/revenue/lifetimeearnings', { cookie: miner.user.cookie, query });
      expect(lifetime.json()).toEqual({ LTC: '0.0099' });
      expect(await reconcileLedger(t.database.db)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
