import { adminTreasuryResponse, type TreasuryCoin } from '@lodestone/contract';
import { reconcileLedger, userLogOfUser } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, registerUser } from '../../../test/accounts.js';
import { registerAdmin } from '../../../test/admins.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedTreasury, TREASURY_NOW } from '../../services/admin/treasuryFixture.js';

const ZERO_PROFIT = { mined: '0', pps_credited: '0', solo_credited: '0', fees_kept: '0', net: '0' };
const NOTHING_WAITS = { open_payouts: 0, open_total: '0', accounts_for_funds: 0 };

/** Every figure of the seeded pool (treasuryFixture.ts says how each follows from the seed). */
const EXPECTED: Record<string, TreasuryCoin> = {
  LTC: {
    coin: 'LTC',
    name: 'Litecoin',
    decimals: 8,
    payouts_enabled: true,
    owed: '2.3',
    due: '2.3',
    due_accounts: 2,
    wallet: {
      demo: false,
      address: null,
      spendable: '2.2',
      min_balance: '0.1',
      read_at: '2026-05-06T11:58:30.000Z',
      checked_at: '2026-05-06T11:58:30.000Z',
      error: null,
      fee_reserve: null,
    },
    shortfall: '0.2',
    // Alice, first in due order, is covered; bob after her is not.
    waiting: { open_payouts: 1, open_total: '0.25', accounts_for_funds: 1 },
    profit: { mined: '6.25', pps_credited: '2.6', solo_credited: '0', fees_kept: '0.05', net: '3.7' },
  },
  USDC: {
    coin: 'USDC',
    name: 'USD Coin (Ethereum)',
    decimals: 6,
    payouts_enabled: true,
    owed: '50',
    due: '50',
    due_accounts: 1,
    wallet: {
      demo: false,
      address: '0x00000000000000000000000000000000000f00d5',
      spendable: '100',
      min_balance: '5',
      read_at: '2026-05-06T11:58:30.000Z',
      checked_at: '2026-05-06T11:58:30.000Z',
      error: null,
      fee_reserve: { coin: 'ETH', spendable: '0.001', needed: '0.0016', shortfall: '0.0006' },
    },
    shortfall: '0',
    // The wallet holds the USDC but not the gas to send it: alice waits for funds.
    waiting: { open_payouts: 0, open_total: '0', accounts_for_funds: 1 },
    // An admin adjustment is not the pool's mined result.
    profit: ZERO_PROFIT,
  },
  ETH: {
    coin: 'ETH',
    name: 'Ethereum',
    decimals: 18,
    payouts_enabled: true,
    owed: '0',
    due: '0',
    due_accounts: 0,
    wallet: {
      demo: false,
      address: '0x00000000000000000000000000000000000f00d5',
      spendable: '1',
      min_balance: '0.1',
      read_at: '2026-05-06T11:00:00.000Z',
      checked_at: '2026-05-06T11:59:30.000Z',
      error: 'connect ECONNREFUSED 127.0.0.1:8545',
      fee_reserve: null,
    },
    shortfall: '0',
    waiting: NOTHING_WAITS,
    profit: ZERO_PROFIT,
  },
  BTC: {
    coin: 'BTC',
    name: 'Bitcoin',
    decimals: 8,
    payouts_enabled: true,
    owed: '0',
    due: '0',
    due_accounts: 0,
    wallet: null,
    shortfall: '0',
    waiting: NOTHING_WAITS,
    profit: ZERO_PROFIT,
  },
};

describe.each(testEngines())('GET /v1/admin/treasury on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, engine, { now: () => TREASURY_NOW });
    await seedTreasury(t.database.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers every figure of every catalogue coin, shortfalls included', async () => {
    const admin = await registerAdmin(t);
    const res = await get(t.app, '/v1/admin/treasury', { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const answer = adminTreasuryResponse.parse(res.json());
    expect(answer.generated_at).toBe('2026-05-06T12:00:00.000Z');
    expect(answer.coins.map((c) => c.coin)).toEqual([
      'BTC',
      'LTC',
      'DOGE',
      'DGB',
      'ETH',
      'CKB',
      'KDA',
      'DASH',
      'KAS',
      'BELLS',
      'BCH',
      'USDC',
      'SOL',
    ]);
    for (const coin of answer.coins) {
      const expected = EXPECTED[coin.coin];
      if (expected) expect(coin, coin.coin).toEqual(expected);
      else expect(coin, coin.coin).toMatchObject({ owed: '0', due: '0', wallet: null, shortfall: '0' });
    }
    // The seed is a balanced ledger like any other.
    expect(await reconcileLedger(t.database.db)).toEqual([]);
    // Looking is recorded in the admin's own log.
    const log = await userLogOfUser(t.database.db, admin.userId);
    expect(log[0]).toMatchObject({ log_name: 'admin_treasury_viewed', log_value: { ip: expect.any(String) } });
  });

  it('is refused to visitors (401) and to miners as if it did not exist (404)', async () => {
    expect((await get(t.app, '/v1/admin/treasury')).statusCode).toBe(401);
    const miner = await registerUser(t.app);
    const res = await get(t.app, '/v1/admin/treasury', { cookie: miner.cookie });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual((await get(t.app, '/v1/admin/nothing-here', { cookie: miner.cookie })).json());
  });
});
