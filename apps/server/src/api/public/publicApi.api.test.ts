import {
  miningSummaryResponse,
  miningWorkersResponse,
  publicApiPoolResponse,
  publicApiProfitsResponse,
  publicApiUserResponse,
  revenueBalanceResponse,
  revenueEarningsResponse,
  revenuePayoutsResponse,
} from '@lodestone/contract';
import { insertPoolStats } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { ALGORITHM_KEYS, unitsToAmount } from '@lodestone/domain';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextAddress } from '../../../test/accounts.js';
import { NOW, type RevenueWorld, seedRevenueWorld } from '../../../test/revenueWorld.js';
import { PUBLIC_RATE_LIMITS } from '../../http/rateLimits.js';

/**
 * The public API on the revenue tests' seeded world (../revenue/fixture.ts: alice and bob with
 * earnings, payouts and worker statistics; prices BTC 100,000, LTC 80, DOGE 0.2 US dollars). The
 * account answer must agree with the dashboard's own calls (here their observer twins), which it reuses.
 */

function expectCors(res: LightMyRequestResponse) {
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
  expect(String(res.headers['access-control-expose-headers'])).toContain('RateLimit-Remaining');
}

describe.each(testEngines())('public API on %s', (engine) => {
  let world: RevenueWorld;
  let aliceKey: string;
  let bobKey: string;
  beforeAll(async () => {
    world = await seedRevenueWorld(engine);
    const db = world.t.database.db;
    const keyOf = async (id: bigint) =>
      (await db.selectFrom('accounts').select('api_key').where('id', '=', id).executeTakeFirstOrThrow()).api_key ?? '';
    aliceKey = await keyOf(world.alice.id);
    bobKey = await keyOf(world.bob.id);
    const snapshot = (algorithm: 'scrypt' | 'sha256', ageMs: number, profit: string) =>
      insertPoolStats(db, {
        algorithm,
        taken_at: new Date(NOW.getTime() - ageMs),
        hashrate: '5000000000',
        miners: 3,
        workers: 4,
        blocks: 7,
        profit,
        profit_avg_24h: '0.000000000000002',
      });
    await snapshot('scrypt', 60_000, '0.000000000000003');
    await snapshot('sha256', 11 * 60_000, '0.00000000000000003'); // stale: no hashrate, rates still shown
  });
  afterAll(() => world.t.close());

  const get = (
    url: string,
    options: { query?: Record<string, string>; address?: string; headers?: Record<string, string> } = {},
  ) =>
    world.t.app.inject({
      method: 'GET',
      url,
      remoteAddress: options.address ?? nextAddress(),
      ...(options.query ? { query: options.query } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
    });

  describe('GET /v1/api/pool', () => {
    it('gives each algorithm’s hashrate, pay rates, miners, fee and blocks, and the prices', async () => {
      const res = await get('/v1/api/pool', { headers: { origin: 'https://elsewhere.example' } });
      expect(res.statusCode, res.body).toBe(200);
      expectCors(res);
      const body = publicApiPoolResponse.parse(res.json());
      expect(Object.keys(body.algorithms)).toEqual(ALGORITHM_KEYS);
      expect(body.algorithms.scrypt).toEqual({
        hashrate: 5,
        speedUnits: 'Gh/s',
        BTCpayRate: 0.003,
        BTCpayRateSpeedPort: 0.003,
        BTCaveragePayRate: 0.002,
        payRateUnits: 'TH/s',
        miners: 3,
        fee: 1,
        blocks: 7,
      });
      expect(body.algorithms.sha256).toMatchObject({ hashrate: 0, miners: 0, BTCpayRate: 0.03, payRateUnits: 'PH/s' });
      expect(body.algorithms.x11).toMatchObject({ hashrate: 0, BTCpayRate: 0, blocks: 0, fee: 1 });
      expect(body.prices).toEqual({ BTC: 100000, LTC: 80, DOGE: 0.2 });
    });
  });

  describe('GET /v1/api/profits', () => {
    it('gives our means and the comparison tables of every algorithm', async () => {
      const res = await get('/v1/api/profits');
      expect(res.statusCode, res.body).toBe(200);
      expectCors(res);
      const body = publicApiProfitsResponse.parse(res.json());
      expect(Object.keys(body.algorithms)).toEqual(ALGORITHM_KEYS);
      expect(body.algorithms.scrypt).toMatchObject({ profit_24h: 0.003, profit_7d: 0.003, profit_30d: 0.003 });
      expect(body.algorithms.scrypt.profit_units).toBe('BTC/TH/s');
      expect(body.algorithms.scrypt.comparison_24h).toEqual([
        ['Lodestone', 'http://localhost:8080', 0.003, 'BTC/TH/s', 0],
      ]);
      expect(body.algorithms.x11.comparison_30d).toEqual([['Lodestone', 'http://localhost:8080', 0, 'BTC/TH/s', null]]);
    });
  });

  describe('GET /v1/api/user', () => {
    it('gives the key’s account as its dashboard shows it', async () => {
      const res = await get('/v1/api/user', { query: { apiKey: aliceKey } });
      expect(res.statusCode, res.body).toBe(200);
      expectCors(res);
      expect(res.headers['cache-control']).toBe('no-store');
      // The account's own API key shows every section.
      const body = publicApiUserResponse.required({ balances: true, payments: true, earnings: true }).parse(res.json());
      expect(body.username).toBe(world.alice.name);

      const observer = async (path: string, query: Record<string, string> = {}) => {
        const r = await get(`/v1/observer/${path}`, { query: { observer_key: world.alice.observerKey, ...query } });
        expect(r.statusCode, r.body).toBe(200);
        return r.json() as unknown;
      };
      for (const algorithm of ALGORITHM_KEYS) {
        expect(body.hashrate[algorithm]).toEqual(miningSummaryResponse.parse(await observer('mining', { algorithm })));
        const workers = miningWorkersResponse.parse(await observer('mining/workers', { algorithm }));
        expect(body.workers.filter((w) => w.algorithm === algorithm)).toEqual(
          workers.map(({ id: _id, ...w }) => ({ algorithm, ...w })),
        );
      }
      expect(body.workers.length).toBeGreaterThan(0);

      const balances = revenueBalanceResponse.parse(await observer('revenue/balance'));
      const held = balances.filter((b) => b.coin_balance !== '0');
      expect(body.balances.filter((b) => b.balance !== '0')).toEqual(
        held.map((b) => ({
          coin: expect.any(String),
          coinTicker: b.coin_ticker,
          balance: unitsToAmount(BigInt(b.coin_balance), b.coin_decimals),
        })),
      );
      // By hand: LTC 10,521,000 earned − 4,500,000 paid (sent and pending) = 0.06021 LTC.
      expect(body.balances.find((b) => b.coinTicker === 'LTC')).toEqual({
        coin: 'Litecoin',
        coinTicker: 'LTC',
        balance: '0.06021',
      });

      const payouts = revenuePayoutsResponse.parse(await observer('revenue/payouts'));
      expect(body.payments).toEqual(
        payouts.map((p) => ({
          address: p.payout_address,
          value: unitsToAmount(BigInt(p.coin_balance), p.coin_decimals),
          txID: p.payout_txid,
          ticker: p.coin_ticker,
          coin: expect.any(String),
          date: new Date(p.payout_date).toISOString(),
          timestamp: Math.floor(Date.parse(p.payout_date) / 1000),
        })),
      );
      expect(body.payments.map((p) => p.txID)).toContain('Pending');

      // Earnings: the last 30 UTC days, per day and algorithm, as the dashboard lists them.
      for (const algorithm of ['scrypt', 'x11'] as const) {
        const days = revenueEarningsResponse.parse(await observer('revenue/earnings', { algorithm }));
        const recent = days.filter((d) => d.earning_timestamp >= '2025-05-17');
        expect(body.earnings.filter((e) => e.algorithm === algorithm).map((e) => e.earning_timestamp)).toEqual(
          recent.map((d) => d.earning_timestamp),
        );
        for (const day of recent) {
          const mine = body.earnings.find(
            (e) => e.algorithm === algorithm && e.earning_timestamp === day.earning_timestamp,
          );
          expect(mine).toMatchObject({ speed: day.speed, speed_units: day.speed_units });
          expect(mine?.coins).toEqual(day.coins.map((c) => ({ coin_id: c.coin_ticker, ...c })));
        }
      }
      // 2025-06-14 on scrypt: 700 sat × 100,000 + 0.005 LTC × 80 = 0.70 + 0.40 US dollars.
      expect(
        body.earnings.find((e) => e.algorithm === 'scrypt' && e.earning_timestamp === '2025-06-14')?.usd_value,
      ).toBe(1.1);
      const dates = body.earnings.map((e) => e.earning_timestamp);
      expect(dates).toEqual([...dates].sort().reverse());
    });

    it('answers 404 for an unknown key and 400 without one, with CORS headers', async () => {
      const wrong = await get('/v1/api/user', { query: { apiKey: 'not-a-key' } });
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json()).toEqual({ error: 'Account not found', code: 'NOT_FOUND' });
      expectCors(wrong);
      const missing = await get('/v1/api/user');
      expect(missing.statusCode).toBe(400);
      expectCors(missing);
    });

    it('honours no cookie: the key alone says whose data it is', async () => {
      const res = await world.t.app.inject({
        url: '/v1/api/user',
        query: { apiKey: bobKey },
        remoteAddress: nextAddress(),
        cookies: { lodestone_session: world.alice.user.cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(publicApiUserResponse.parse(res.json()).username).toBe(world.bob.name);
      expect(res.headers['set-cookie']).toBeUndefined();
      const noKey = await world.t.app.inject({
        url: '/v1/api/user',
        remoteAddress: nextAddress(),
        cookies: { lodestone_session: world.alice.user.cookie },
      });
      expect(noKey.statusCode).toBe(400);
    });
  });

  describe('CORS preflight', () => {
    it('allows GET from any origin, without credentials', async () => {
      for (const path of ['/v1/api/pool', '/v1/api/profits', '/v1/api/user', '/v1/openapi.json']) {
        const res = await world.t.app.inject({
          method: 'OPTIONS',
          url: path,
          headers: {
            origin: 'https://dashboard.example',
            'access-control-request-method': 'GET',
            'sec-fetch-site': 'cross-site',
          },
        });
        expect(res.statusCode, path).toBe(204);
        expectCors(res);
        expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
        expect(res.headers['access-control-max-age']).toBe('86400');
      }
    });

    it('is not offered on the website’s own calls', async () => {
      const res = await world.t.app.inject({ url: '/v1/pool/stats' });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('rate limits', () => {
    it('limit each address, with RateLimit headers and Retry-After on the 429', async () => {
      const address = nextAddress();
      const { max } = PUBLIC_RATE_LIMITS.api;
      for (let i = 1; i <= max; i++) {
        const res = await get('/v1/api/pool', { address });
        expect(res.statusCode).toBe(200);
        expect(res.headers['ratelimit-limit']).toBe(String(max));
        expect(res.headers['ratelimit-remaining']).toBe(String(max - i));
      }
      const limited = await get('/v1/api/pool', { address });
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expectCors(limited);
      expect((await get('/v1/api/pool', { address: nextAddress() })).statusCode).toBe(200);
    });

    it('limit each API key across addresses', async () => {
      const perKey = PUBLIC_RATE_LIMITS.apiUserPerKey.max;
      const perAddress = PUBLIC_RATE_LIMITS.apiUser.max;
      const query = { apiKey: 'shared-key-of-a-farm' };
      let sent = 0;
      while (sent < perKey) {
        const address = nextAddress();
        for (let i = 0; i < perAddress && sent < perKey; i++, sent++) {
          const res = await get('/v1/api/user', { query, address });
          expect(res.statusCode).toBe(404);
          // The tighter of the two budgets is the one announced.
          const remaining = Math.min(perAddress - i - 1, perKey - sent - 1);
          expect(res.headers['ratelimit-remaining']).toBe(String(remaining));
        }
      }
      const limited = await get('/v1/api/user', { query });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toMatch(/API key/);
      expect(limited.headers['ratelimit-limit']).toBe(String(perKey));
      expect(limited.headers['ratelimit-remaining']).toBe('0');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expectCors(limited);
      // Another key from a fresh address is not affected.
      expect((await get('/v1/api/user', { query: { apiKey: bobKey } })).statusCode).toBe(200);
    });
  });
});
