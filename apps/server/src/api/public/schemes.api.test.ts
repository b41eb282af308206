import { PAYOUT_SCHEMES_EXAMPLE, payoutSchemesResponse } from '@lodestone/contract';
import { insertFeeDay, saveNetworkState, saveValuation } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

/**
 * GET /v1/pool/schemes (docs/money.md, "FPPS"): Litecoin set to FPPS with Dogecoin merge-mined beside
 * it, SHA256 on the demo network; what each coin's newest credit was valued by, and Litecoin's fee day.
 */
const AT = new Date('2026-11-30T12:00:00Z');
const COINS = [
  {
    ticker: 'LTC',
    algorithm: 'scrypt',
    daemons: ['http://u:p@127.0.0.1:1/'],
    pool_address: 'x',
    payout_scheme: 'fpps',
    merged: [{ ticker: 'DOGE', chain_id: 98, daemons: ['http://u:p@127.0.0.1:2/'], pool_address: 'y' }],
  },
];

describe.each(testEngines())('payout schemes on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp({ COINS: JSON.stringify(COINS) }, undefined, engine, { now: () => AT });
  });
  afterEach(() => t.close());

  const valuation = (coin: string, scheme: 'pps' | 'fpps', fallback?: string, feeDayId?: bigint) =>
    saveValuation(t.database.db, {
      creditId: crypto.randomUUID(),
      coin,
      scheme,
      blockValue: '625000000',
      blockFees: undefined,
      networkDifficulty: '1',
      feeDayId,
      fallback,
      valuedAt: AT,
    });
  const schemes = async () => {
    const res = await t.app.inject({ url: '/v1/pool/schemes' });
    expect(res.statusCode, res.body).toBe(200);
    return payoutSchemesResponse.parse(res.json()).coins;
  };

  it('names each coin’s scheme, what its newest credit was valued by and the FPPS coin’s fee day', async () => {
    const db = t.database.db;
    await saveNetworkState(db, {
      algorithm: 'sha256',
      coin: 'BTC',
      height: 1,
      reward: 312_500_000n,
      difficulty: '1',
      demo: true,
      observedAt: AT,
    });
    // 576 blocks with 1.23456789 LTC of fees: 214,334.703125 litoshi a block, 0.00214334 LTC rounded down.
    const day = await insertFeeDay(db, {
      coin: 'LTC',
      computedAt: AT,
      from: new Date(AT.getTime() - 86_400_000),
      to: AT,
      day: { from: AT, to: AT, blocks: 576, firstHeight: 2_900_001, lastHeight: 2_900_576, totalFees: 123_456_789n },
    });
    await valuation('LTC', 'fpps', undefined, day);
    await valuation('DOGE', 'pps');
    // The contract's example is this very case: its figures are these.
    expect(await schemes()).toEqual([
      ...PAYOUT_SCHEMES_EXAMPLE.coins,
      {
        coin: 'BTC',
        algorithm: 'sha256',
        merged_with: null,
        scheme: 'pps',
        valued_by: null,
        fallback: null,
        fee_day: null,
      },
    ]);
  });

  it('says when an FPPS coin is valued by PPS and why, without fee figures it does not have', async () => {
    const reason = "LTC's node has no getblockstats, so it cannot report fees";
    await insertFeeDay(t.database.db, {
      coin: 'LTC',
      computedAt: AT,
      from: new Date(AT.getTime() - 86_400_000),
      to: AT,
      unavailable: reason,
    });
    await valuation('LTC', 'pps', reason);
    expect((await schemes())[0]).toEqual({
      coin: 'LTC',
      algorithm: 'scrypt',
      merged_with: null,
      scheme: 'fpps',
      valued_by: 'pps',
      fallback: reason,
      fee_day: null,
    });
  });
});
