import { testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { seedTreasury, TREASURY_NOW } from '../services/admin/treasuryFixture.js';

describe.each(testEngines())('the treasury gauges on /metrics (%s)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, engine, { now: () => TREASURY_NOW });
    await seedTreasury(t.database.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the seeded pool’s figures per coin, in coins', async () => {
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    const samples = new Set(res.body.split('\n').filter((line) => line.startsWith('lodestone_treasury_')));
    for (const sample of [
      'lodestone_treasury_owed_coins{coin="LTC"} 2.3',
      'lodestone_treasury_due_coins{coin="LTC"} 2.3',
      'lodestone_treasury_wallet_coins{coin="LTC"} 2.2',
      'lodestone_treasury_shortfall_coins{coin="LTC"} 0.2',
      'lodestone_treasury_wallet_age_seconds{coin="LTC"} 90',
      'lodestone_treasury_wallet_read_failing{coin="LTC"} 0',
      'lodestone_treasury_waiting_payouts{coin="LTC"} 1',
      'lodestone_treasury_waiting_accounts{coin="LTC"} 1',
      'lodestone_treasury_profit_coins{coin="LTC"} 3.7',
      'lodestone_treasury_shortfall_coins{coin="USDC"} 0',
      'lodestone_treasury_waiting_accounts{coin="USDC"} 1',
      'lodestone_treasury_fee_reserve_coins{coin="USDC",fee_coin="ETH"} 0.001',
      'lodestone_treasury_fee_shortfall_coins{coin="USDC",fee_coin="ETH"} 0.0006',
      'lodestone_treasury_wallet_read_failing{coin="ETH"} 1',
      'lodestone_treasury_wallet_age_seconds{coin="ETH"} 3600',
      'lodestone_treasury_owed_coins{coin="BTC"} 0',
      'lodestone_treasury_shortfall_coins{coin="BTC"} 0',
    ]) {
      expect(samples, sample).toContain(sample);
    }
    // BTC has no wallet: no wallet series rather than a made-up 0.
    expect([...samples].filter((s) => s.includes('coin="BTC"') && s.includes('_wallet_'))).toEqual([]);
  });
});
