import { chartResponse, poolFeesResponse, poolProfitsResponse } from '@lodestone/contract';
import { insertPoolStats, savePoolComparison, savePrices } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import type { AlgorithmKey } from '@lodestone/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

/**
 * The Profitability page's calls and the FAQ's fees. Our scrypt rate (BTC per H/s per day) is seeded
 * so the means come out round, in BTC/TH/s (× 10^12):
 *   24h (from 2025-06-14 13:00Z): 3 and 1                  → 0.002
 *   7d  (from 2025-06-08 13:00Z): + 5 (06-10) and 9 (06-14 11:59:40, before the 24h) → 0.0045
 *   30d (from 2025-05-16 13:00Z): + 7 (05-20)              → 0.005
 * (all × 10^-15), plus a 0 (an unknown rate, left out) and a snapshot older than 30 days.
 */
const NOW = new Date('2025-06-15T12:30:00Z');
const POOL = 'Lodestone';
const URL = 'https://pool.example';
const e15 = (n: number) => `0.${'0'.repeat(14)}${n}`;

async function snapshot(t: TestApp, algorithm: AlgorithmKey, at: string, profit: string) {
  await insertPoolStats(t.database.db, {
    algorithm,
    taken_at: new Date(at),
    hashrate: '1000',
    miners: 1,
    workers: 1,
    profit,
    profit_avg_24h: profit,
  });
}

describe.each(testEngines())('profitability on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ POOL_NAME: POOL, PUBLIC_URL: URL }, undefined, engine, { now: () => NOW });
  });
  afterEach(() => t.close());

  async function seed() {
    for (const [at, n] of [
      ['2025-06-15T12:10:00Z', 3],
      ['2025-06-14T20:00:00Z', 1],
      ['2025-06-14T11:59:40Z', 9],
      ['2025-06-10T00:00:00Z', 5],
      ['2025-05-20T00:00:00Z', 7],
    ] as const) {
      await snapshot(t, 'scrypt', at, e15(n));
    }
    await snapshot(t, 'scrypt', '2025-05-20T00:00:20Z', '0');
    await snapshot(t, 'scrypt', '2025-05-01T00:00:00Z', e15(100)); // older than 30 days
    await snapshot(t, 'sha256', '2025-06-15T12:10:00Z', '0.00000000000000004');
    const db = t.database.db;
    await savePoolComparison(
      db,
      {
        algorithm: 'scrypt',
        poolName: 'Alpha Pool',
        poolUrl: 'https://alpha.example',
        hashrateUnit: 'TH/s',
        profit24h: '0.0021',
        profit7d: null,
        profit30d: '0.004',
      },
      NOW,
    );
    await savePoolComparison(
      db,
      {
        algorithm: 'scrypt',
        poolName: 'Beta Pool',
        poolUrl: 'https://beta.example',
        hashrateUnit: 'GH/s',
        profit24h: '0.0000019',
        profit7d: '0.0000045',
        profit30d: null,
      },
      NOW,
    );
    await savePoolComparison(
      db,
      {
        algorithm: 'sha256',
        poolName: 'Gamma Pool',
        poolUrl: 'https://gamma.example',
        hashrateUnit: 'PH/s',
        profit24h: '0.05',
        profit7d: '0.05',
        profit30d: '0.05',
      },
      NOW,
    );
    await savePrices(db, {
      source: 'test',
      takenAt: new Date(NOW.getTime() - 60_000),
      quotes: [
        { ticker: 'LTC', usd: '80' },
        { ticker: 'BTC', usd: '100000' },
        { ticker: 'EUR', usd: '1.08' },
      ],
    });
  }

  describe('GET /v1/pool/profits/{algorithm}', () => {
    it('compares our mean rate per period with the other pools’ figures', async () => {
      await seed();
      const res = await t.app.inject({ url: '/v1/pool/profits/scrypt' });
      expect(res.statusCode, res.body).toBe(200);
      const body = poolProfitsResponse.parse(res.json());
      const unit = 'BTC/TH/s';
      expect(body.profit_table_24h).toEqual([
        ['Alpha Pool', 'https://alpha.example', 0.0021, unit, 5], // pays 5% more than we do
        [POOL, URL, 0.002, unit, 0],
        ['Beta Pool', 'https://beta.example', 0.0019, unit, -5], // GH/s figure, 5% less
      ]);
      expect(body.profit_table_7d).toEqual([
        [POOL, URL, 0.0045, unit, 0],
        ['Beta Pool', 'https://beta.example', 0.0045, unit, 0],
      ]);
      expect(body.profit_table_30d).toEqual([
        [POOL, URL, 0.005, unit, 0],
        ['Alpha Pool', 'https://alpha.example', 0.004, unit, -20],
      ]);
      expect(body).toMatchObject({
        // SCRYPT machines report GH/s (an L9: 16 GH/s).
        calculator_units_factor: 9,
        profit_rate_units_factor: 12,
        calculator_units: 'GH/s',
        profit_rate_units: unit,
        prices: [
          { ticker: 'BTC', price: 100000 },
          { ticker: 'LTC', price: 80 },
        ],
        fiat_prices: { USD: 1, EUR: 1.08 },
        profit_24h: 0.002,
      });
    });

    it('takes the algorithm by key, name or index, in PH/s for SHA256', async () => {
      await seed();
      for (const param of ['sha256', 'SHA256', '1']) {
        const res = await t.app.inject({ url: `/v1/pool/profits/${param}` });
        expect(res.statusCode, res.body).toBe(200);
        const body = poolProfitsResponse.parse(res.json());
        expect(body.calculator_units_factor).toBe(12);
        expect(body.profit_rate_units_factor).toBe(15);
        expect(body.profit_table_24h).toEqual([
          ['Gamma Pool', 'https://gamma.example', 0.05, 'BTC/PH/s', 25],
          [POOL, URL, 0.04, 'BTC/PH/s', 0],
        ]);
      }
      for (const param of ['bitcoin', '6', '-1']) {
        const res = await t.app.inject({ url: `/v1/pool/profits/${param}` });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      }
    });

    it('shows only our row, at 0 and without percentages, on an empty pool', async () => {
      const res = await t.app.inject({ url: '/v1/pool/profits/x11' });
      const body = poolProfitsResponse.parse(res.json());
      for (const table of [body.profit_table_24h, body.profit_table_7d, body.profit_table_30d]) {
        expect(table).toEqual([[POOL, URL, 0, 'BTC/TH/s', null]]);
      }
      expect(body.prices).toEqual([]);
      expect(body.fiat_prices).toEqual({ USD: 1 });
      expect(body.profit_24h).toBe(0);
    });
  });

  describe('GET /v1/pool/profits/{algorithm}/chart', () => {
    it('draws 30 daily means by default, days in the asked zone', async () => {
      await seed();
      const res = await t.app.inject({ url: '/v1/pool/profits/scrypt/chart', query: { timezone: 'Asia/Tokyo' } });
      expect(res.statusCode, res.body).toBe(200);
      const chart = chartResponse.parse(res.json());
      expect(chart.label).toBe('AVG Profit (BTC/TH/s)');
      expect(chart.x_axis).toHaveLength(30);
      expect(chart.x_axis.at(-1)).toBe('2025-06-15');
      expect(chart.y_axis.at(-1)).toBe(0.002); // 06-14 20:00Z is the 15th in Tokyo: (1 + 3) / 2
      expect(chart.y_axis.at(-2)).toBe(0.009);
      expect(chart.y_axis[chart.x_axis.indexOf('2025-05-20')]).toBe(0.007); // the 0 is no rate
    });

    it('draws 24 hourly points and 42 four-hour points', async () => {
      await seed();
      const day = chartResponse.parse((await t.app.inject({ url: '/v1/pool/profits/scrypt/chart?period=24h' })).json());
      expect(day.x_axis).toHaveLength(24);
      expect(day.x_axis.at(-1)).toBe('12:00');
      expect(day.y_axis.at(-1)).toBe(0.003);
      const week = chartResponse.parse((await t.app.inject({ url: '/v1/pool/profits/0/chart?period=7d' })).json());
      expect(week.x_axis).toHaveLength(42);
      expect(week.x_axis.at(-1)).toBe('06-15 12:00');
    });

    it('starts at the point of the first known rate, not with zeros; later points without a rate read 0', async () => {
      // x11 started on 06-13 at 23:00Z without a rate (profit 0), knew one from 06-14 02:30Z, then had none.
      await snapshot(t, 'x11', '2025-06-13T23:00:00Z', '0');
      await snapshot(t, 'x11', '2025-06-14T02:30:00Z', e15(4));
      await snapshot(t, 'x11', '2025-06-15T12:10:00Z', e15(2));
      const chart = async (query: string) =>
        chartResponse.parse((await t.app.inject({ url: `/v1/pool/profits/x11/chart?${query}` })).json());
      const month = await chart('timezone=UTC');
      expect(month.x_axis).toEqual(['2025-06-14', '2025-06-15']);
      expect(month.y_axis).toEqual([0.004, 0.002]);
      const week = await chart('period=7d');
      expect(week.x_axis[0]).toBe('06-14 00:00');
      expect(week.x_axis).toHaveLength(10); // 06-14 00:00 … 06-15 12:00
      expect(week.y_axis).toEqual([0.004, 0, 0, 0, 0, 0, 0, 0, 0, 0.002]);
      // The 24 hours are older than the first rate: all 24 points, the hours without a rate at 0.
      const day = await chart('period=24h');
      expect(day.x_axis).toHaveLength(24);
      expect(day.y_axis.filter((v) => v !== 0)).toEqual([0.002]);
      // An algorithm whose rate was never known has no points.
      const never = chartResponse.parse((await t.app.inject({ url: '/v1/pool/profits/blake2s/chart' })).json());
      expect(never.x_axis).toEqual([]);
    });

    it('refuses unknown periods and zones', async () => {
      expect((await t.app.inject({ url: '/v1/pool/profits/scrypt/chart?period=1y' })).statusCode).toBe(400);
      expect((await t.app.inject({ url: '/v1/pool/profits/scrypt/chart?timezone=Mars/Base' })).statusCode).toBe(400);
    });
  });

  describe('GET /v1/pool/fees', () => {
    it('gives the fee as a fraction for every coin whose payouts are enabled', async () => {
      await t.database.db.updateTable('coins').set({ payouts_enabled: false }).where('ticker', '=', 'KAS').execute();
      const res = await t.app.inject({ url: '/v1/pool/fees' });
      expect(res.statusCode, res.body).toBe(200);
      const body = poolFeesResponse.parse(res.json());
      expect(Object.keys(body.pools)).toEqual([
        'BTC',
        'LTC',
        'DOGE',
        'DGB',
        'ETH',
        'CKB',
        'KDA',
        'DASH',
        'BELLS',
        'BCH',
        'USDC',
        'SOL',
      ]);
      for (const entry of Object.values(body.pools)) expect(entry).toEqual({ fee: 0.01 });
    });
  });
});

describe('GET /v1/pool/fees with another fee', () => {
  it('follows FEE_PERCENT', async () => {
    const t = await createTestApp({ FEE_PERCENT: '0.3' });
    try {
      const body = poolFeesResponse.parse((await t.app.inject({ url: '/v1/pool/fees' })).json());
      expect(body.pools.BTC).toEqual({ fee: 0.003 });
    } finally {
      await t.close();
    }
  });
});
