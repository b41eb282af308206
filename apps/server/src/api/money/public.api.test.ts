import { coinsResponse, poolPayoutsResponse } from '@lodestone/contract';
import { savePrices } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

const CATALOGUE = ['BTC', 'LTC', 'DOGE', 'DGB', 'ETH', 'CKB', 'KDA', 'DASH', 'KAS', 'BELLS', 'BCH', 'USDC', 'SOL'];
const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe.each(testEngines())('public money calls on %s', (engine) => {
  let t: TestApp;
  const now = new Date('2025-06-15T12:00:00Z');
  beforeEach(async () => {
    t = await createTestApp({}, undefined, engine, { now: () => now });
  });
  afterEach(() => t.close());

  describe('GET /v1/coins', () => {
    it('lists the catalogue in order with bounds, decimals, explorer templates and the newest price', async () => {
      await savePrices(t.database.db, {
        source: 'test',
        takenAt: new Date(now.getTime() - 2 * DAY),
        quotes: [{ ticker: 'BTC', usd: '60000' }],
      });
      // An older price never wins over a newer one; a stale price is still shown (display only).
      await savePrices(t.database.db, {
        source: 'test',
        takenAt: new Date(now.getTime() - DAY),
        quotes: [
          { ticker: 'BTC', usd: '90000.25' },
          { ticker: 'USDC', usd: '1' },
        ],
      });
      const res = await t.app.inject({ url: '/v1/coins' });
      expect(res.statusCode, res.body).toBe(200);
      const body = coinsResponse.parse(res.json());
      expect(Object.keys(body)).toEqual(CATALOGUE);
      expect(body.BTC).toEqual({
        name: 'Bitcoin',
        coin_price: 90000.25,
        threshold_min: '0.001',
        threshold_max: '0.5',
        interval_min: 1,
        interval_max: 48,
        decimals: 8,
        network: 'bitcoin',
        explorer_tx_url: 'https://mempool.space/tx/{txid}',
        explorer_address_url: 'https://mempool.space/address/{address}',
        payouts_enabled: true,
      });
      expect(body.USDC).toMatchObject({ coin_price: 1, decimals: 6, network: 'ethereum' });
      expect(body.LTC?.coin_price).toBeNull();
    });
  });

  describe('GET /v1/pool/payouts', () => {
    let ids = 0;
    const payout = (p: {
      coin: string;
      status: 'pending' | 'sending' | 'sent' | 'failed';
      total: bigint;
      ageMs: number;
      txid?: string;
      demo?: boolean;
    }) => {
      ids += 1;
      const createdAt = new Date(now.getTime() - p.ageMs);
      return t.database.db
        .insertInto('payouts')
        .values({
          idempotency_key: `payout:${p.coin}:${ids}`,
          coin: p.coin,
          status: p.status,
          total: p.total,
          txid: p.status === 'sent' ? (p.txid ?? `${ids}`.padStart(64, 'a')) : null,
          demo: p.demo ?? false,
          error: p.status === 'failed' ? 'wallet refused' : null,
          created_at: createdAt,
          sending_at: p.status === 'sending' || p.status === 'sent' ? createdAt : null,
          sent_at: p.status === 'sent' ? createdAt : null,
          failed_at: p.status === 'failed' ? createdAt : null,
        })
        .execute();
    };

    it('answers empty lists before any payout', async () => {
      const body = poolPayoutsResponse.parse((await t.app.inject({ url: '/v1/pool/payouts' })).json());
      expect(body).toEqual({ latest: [], charts: { day: [], month: [], all_time: [] } });
    });

    it('lists the newest payouts: sent with explorer links, pending as Pending, failed left out', async () => {
      await payout({ coin: 'BTC', status: 'sent', total: 150_000_000n, ageMs: 3 * HOUR, txid: 'ab'.repeat(32) });
      await payout({ coin: 'LTC', status: 'pending', total: 5_000_000n, ageMs: HOUR });
      await payout({ coin: 'LTC', status: 'sending', total: 7_000_000n, ageMs: 2 * HOUR });
      await payout({ coin: 'DOGE', status: 'failed', total: 10n ** 10n, ageMs: 30 * 60_000 });
      await payout({ coin: 'KAS', status: 'sent', total: 99n, ageMs: 4 * HOUR, txid: 'demo-kas-1', demo: true });
      await payout({ coin: 'ETH', status: 'sent', total: 10n ** 18n, ageMs: 5 * HOUR, txid: `0x${'cd'.repeat(32)}` });

      const res = await t.app.inject({ url: '/v1/pool/payouts' });
      expect(res.statusCode, res.body).toBe(200);
      const body = poolPayoutsResponse.parse(res.json());
      expect(body.latest).toEqual([
        {
          payout_date: new Date(now.getTime() - HOUR).toISOString(),
          coin_balance: '5000000',
          coin_decimals: 8,
          coin_ticker: 'LTC',
          payout_txid: 'Pending',
          payout_txid_url: null,
        },
        expect.objectContaining({ coin_ticker: 'LTC', coin_balance: '7000000', payout_txid: 'Pending' }),
        {
          payout_date: new Date(now.getTime() - 3 * HOUR).toISOString(),
          coin_balance: '150000000',
          coin_decimals: 8,
          coin_ticker: 'BTC',
          payout_txid: 'ab'.repeat(32),
          payout_txid_url: `https://mempool.space/tx/${'ab'.repeat(32)}`,
        },
        // Demo transactions exist on no public chain: no link.
        expect.objectContaining({ coin_ticker: 'KAS', payout_txid: 'demo-kas-1', payout_txid_url: null }),
        expect.objectContaining({
          coin_ticker: 'ETH',
          coin_balance: '1000000000000000000',
          coin_decimals: 18,
          payout_txid_url: `https://etherscan.io/tx/0x${'cd'.repeat(32)}`,
        }),
      ]);
    });

    it('keeps the newest 100', async () => {
      for (let i = 0; i < 105; i++)
        await payout({ coin: 'BTC', status: 'sent', total: BigInt(i + 1), ageMs: i * 60_000 });
      const body = poolPayoutsResponse.parse((await t.app.inject({ url: '/v1/pool/payouts' })).json());
      expect(body.latest).toHaveLength(100);
      expect(body.latest[0]?.coin_balance).toBe('1');
      expect(body.latest[99]?.coin_balance).toBe('100');
    });

    it('charts the dollar value paid per coin over 24 hours, 30 days and all time at current prices', async () => {
      await savePrices(t.database.db, {
        source: 'test',
        takenAt: now,
        quotes: [
          { ticker: 'BTC', usd: '90000' },
          { ticker: 'LTC', usd: '90.5' },
        ],
      });
      await payout({ coin: 'BTC', status: 'sent', total: 1_000_000n, ageMs: HOUR }); // 0.01 BTC = 900
      await payout({ coin: 'BTC', status: 'pending', total: 500_000n, ageMs: 2 * HOUR }); // 450
      await payout({ coin: 'BTC', status: 'sent', total: 2_000_000n, ageMs: 3 * DAY }); // 1800
      await payout({ coin: 'BTC', status: 'failed', total: 9_000_000n, ageMs: HOUR }); // never paid
      await payout({ coin: 'LTC', status: 'sent', total: 333_333_333n, ageMs: 10 * DAY }); // 3.33333333 × 90.5
      await payout({ coin: 'LTC', status: 'sent', total: 100_000_000n, ageMs: 100 * DAY }); // 90.5
      await payout({ coin: 'DOGE', status: 'sent', total: 10n ** 10n, ageMs: HOUR }); // no price: left out

      const body = poolPayoutsResponse.parse((await t.app.inject({ url: '/v1/pool/payouts' })).json());
      expect(body.charts).toEqual({
        day: [{ coin_ticker: 'BTC', usd_value: 1350 }],
        month: [
          { coin_ticker: 'BTC', usd_value: 3150 },
          // 3.33333333 × 90.5 = 301.666666…, cut to cents
          { coin_ticker: 'LTC', usd_value: 301.66 },
        ],
        all_time: [
          { coin_ticker: 'BTC', usd_value: 3150 },
          { coin_ticker: 'LTC', usd_value: 392.16 },
        ],
      });
    });
  });
});
