import {
  balancesOfAccount,
  balancesOfSystemAccount,
  type Database,
  insertAccount,
  insertUser,
  reconcileLedger,
  savePrices,
} from '@lodestone/db';
import { createTestDatabase, insertedRow, testEngines } from '@lodestone/db/testing';
import type { BatchNetwork } from '@lodestone/domain';
import { Exact } from '@lodestone/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { powHashesPerDifficulty } from '../services/hashesPerDifficulty.js';
import { mergedCreditId } from './accounting/value.js';
import { applyShareBatch, type CreditSettings } from './accounting.js';
import { creditPendingBatches } from './credits.js';
import { ppsRates } from './rollup.js';
import { recordingLog, shareBatch, shareCounts } from './testing.js';

const NOW = new Date('2026-11-01T12:00:00Z');
const LTC: BatchNetwork = { coin: 'LTC', height: 2_900_000, reward: '625000000', difficulty: '1000000', demo: false };
const settings: CreditSettings = { feePercent: 1, priceMaxAgeMs: 1_800_000, now: () => NOW };

describe.each(testEngines())('PPS crediting on %s', (engine) => {
  let database: Database;
  let ids: Record<string, bigint>;

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
    const db = database.db;
    const user = insertedRow(await insertUser(db, { email: 'miners@example.org', passwordHash: null }));
    const make = async (username: string, over: { referredBy?: bigint; feeDiscount?: string } = {}) =>
      insertedRow(
        await insertAccount(db, {
          userId: user.id,
          username,
          apiKey: `api-${username}`,
          observerKey: `obs-${username}`,
          referralCode: username.toUpperCase().padEnd(4, 'X'),
          ...over,
        }),
      ).id;
    const alice = await make('alice');
    const carol = await make('carol');
    const dave = await make('dave');
    const bob = await make('bob', { referredBy: carol, feeDiscount: '0.5' });
    ids = { alice, bob, carol, dave };
    await db
      .insertInto('redirect_settings')
      .values({ account_id: bob, target_account_id: dave, percentage: '10' })
      .execute();
    await db
      .insertInto('conversion_settings')
      .values([
        { account_id: bob, algorithm: 'scrypt', ticker: 'LTC', proportion: '50' },
        { account_id: bob, algorithm: 'scrypt', ticker: 'BTC', proportion: '50' },
      ])
      .execute();
  });
  afterAll(async () => {
    await database.close();
  });
  afterEach(async () => {
    expect(await reconcileLedger(database.db)).toEqual([]);
  });

  const balances = async (name: string) =>
    Object.fromEntries((await balancesOfAccount(database.db, ids[name] as bigint)).map((b) => [b.coin, b.amount]));
  const pool = async (name: 'pool:pps' | 'pool:fees') =>
    Object.fromEntries((await balancesOfSystemAccount(database.db, name)).map((b) => [b.coin, b.amount]));

  it('keeps the value of a batch while prices are stale, then credits it exactly once at fresh prices', async () => {
    await savePrices(database.db, {
      source: 'test',
      takenAt: new Date(NOW.getTime() - 3_600_000),
      quotes: [
        { ticker: 'LTC', usd: '80' },
        { ticker: 'BTC', usd: '100000' },
      ],
    });
    const batch = shareBatch(
      '2026-11-01T11:59:55Z',
      [
        shareCounts('alice', 'rig1', { acceptedDifficulty: 1600, valid: 3 }),
        shareCounts('bob', 'rig1', { acceptedDifficulty: 3200, valid: 5 }),
        shareCounts('nobody', 'rig1', { acceptedDifficulty: 999, valid: 1 }),
      ],
      { network: LTC },
    );
    const result = await applyShareBatch(database.db, batch, settings);
    expect(result.credit).toEqual({ kind: 'waiting-for-prices', tickers: ['BTC', 'LTC'] });
    expect(await balances('alice')).toEqual({});
    const pending = await database.db.selectFrom('pps_credits').selectAll().orderBy('account_id').execute();
    expect(pending.map((p) => [p.account_id, p.value, p.credited_at])).toEqual([
      [ids.alice, '1000000', null],
      [ids.bob, '2000000', null],
    ]);
    const log = recordingLog();
    expect(await creditPendingBatches(database.db, settings, log)).toBe(0);

    await savePrices(database.db, {
      source: 'test',
      takenAt: new Date(NOW.getTime() - 60_000),
      quotes: [
        { ticker: 'LTC', usd: '80' },
        { ticker: 'BTC', usd: '100000' },
      ],
    });
    expect(await creditPendingBatches(database.db, settings, log)).toBe(1);
    expect(await creditPendingBatches(database.db, settings, log)).toBe(0);

    // alice: 1600 × 6.25 LTC ÷ 1,000,000 = 0.01 LTC; 1% fee.
    expect(await balances('alice')).toEqual({ LTC: 990_000n });
    // bob: 0.02 LTC, half kept as LTC, half as BTC (800 sat at $80 / $100,000); his fee is 0.5%
    // (50% discount), a fifth of it to carol; 10% of the rest to dave. Fractions of a unit carry.
    expect(await balances('bob')).toEqual({ LTC: 895_500n, BTC: 716n });
    expect(await balances('dave')).toEqual({ LTC: 99_500n, BTC: 79n });
    expect(await balances('carol')).toEqual({ LTC: 1_000n });
    expect(await pool('pool:fees')).toEqual({ LTC: 14_000n, BTC: 3n });
    expect(await pool('pool:pps')).toEqual({ LTC: -2_000_000n, BTC: -798n });
    const accruals = await database.db
      .selectFrom('pps_accruals as p')
      .innerJoin('ledger_accounts as l', 'l.id', 'p.ledger_account_id')
      .select(['l.account_id', 'l.system_name', 'p.kind', 'p.fraction'])
      .where('p.coin', '=', 'BTC')
      .where('p.fraction', '>', '0')
      .orderBy('p.kind')
      .execute();
    expect(accruals.map((a) => [a.account_id ?? a.system_name, a.kind, a.fraction])).toEqual([
      ['pool:fees', 'fee', '0.2'],
      [ids.bob, 'pps', '0.4'],
      [ids.dave, 'redirect_in', '0.6'],
      [ids.carol, 'referral', '0.8'],
    ]);
  });

  it('credits at once when prices are fresh, and a batch delivered twice concurrently only once', async () => {
    const before = await balances('alice');
    const batch = shareBatch(
      '2026-11-01T11:59:58Z',
      [shareCounts('alice', 'rig2', { acceptedDifficulty: 16, valid: 1 })],
      {
        network: LTC,
      },
    );
    const results = await Promise.all([
      applyShareBatch(database.db, batch, settings),
      applyShareBatch(database.db, batch, settings),
    ]);
    expect(results.map((r) => r.applied).sort()).toEqual([false, true]);
    // 16 × 6.25 LTC ÷ 1,000,000 = 10,000 units, less 1%.
    expect((await balances('alice')).LTC).toBe((before.LTC ?? 0n) + 9_900n);
    const state = await database.db.selectFrom('network_states').selectAll().executeTakeFirstOrThrow();
    expect([state.algorithm, state.coin, state.reward, state.difficulty]).toEqual([
      'scrypt',
      'LTC',
      '625000000',
      '1000000',
    ]);
  });

  it('publishes as profit exactly the rate the ledger credits shares at', async () => {
    const before = (await pool('pool:pps')).LTC ?? 0n;
    const batch = shareBatch(
      '2026-11-01T11:59:57Z',
      [shareCounts('alice', 'rig9', { acceptedDifficulty: 1600, valid: 1 })],
      {
        network: LTC,
      },
    );
    await applyShareBatch(database.db, batch, settings);
    const gross = before - ((await pool('pool:pps')).LTC ?? 0n); // what PPS cost for these shares
    const rate = (await ppsRates(database.db, powHashesPerDifficulty)).get('scrypt');
    // profit is BTC per H/s per day: the shares' hashes for a day's share of a second, valued back in LTC.
    const hashes = Exact.of(1600).times(powHashesPerDifficulty('scrypt'));
    const btc = Exact.of(rate ?? '0')
      .times(hashes)
      .dividedBy(86_400, 20);
    const ltcUnits = btc.times(100_000).dividedBy(80, 20).shifted(8);
    expect(gross).toBe(1_000_000n);
    expect(ltcUnits.toString()).toBe('1000000');
  });

  it('values a batch without network information at the newest known network state', async () => {
    const before = (await balances('alice')).LTC ?? 0n;
    const batch = shareBatch('2026-11-01T11:59:59Z', [
      shareCounts('alice', 'rig2', { acceptedDifficulty: 160, valid: 1 }),
    ]);
    expect((await applyShareBatch(database.db, batch, settings)).credit).toEqual({ kind: 'credited' });
    expect((await balances('alice')).LTC).toBe(before + 99_000n);
  });

  it('does not value a batch when no network state is known for its algorithm', async () => {
    const batch = shareBatch(
      '2026-11-01T11:59:59Z',
      [shareCounts('alice', 'rig3', { acceptedDifficulty: 1, valid: 1 })],
      {
        algorithm: 'sha256',
      },
    );
    const result = await applyShareBatch(database.db, batch, settings);
    expect(result.credit).toEqual({ kind: 'not-valued', reason: 'no network state known for sha256' });
  });

  it('refuses a batch with a malformed network and writes nothing', async () => {
    const batch = shareBatch(
      '2026-11-01T11:59:59Z',
      [shareCounts('alice', 'rig3', { acceptedDifficulty: 1, valid: 1 })],
      {
        network: { ...LTC, difficulty: '0' },
      },
    );
    await expect(applyShareBatch(database.db, batch, settings)).rejects.toThrow(/difficulty/);
    const row = await database.db
      .selectFrom('share_batches')
      .select('id')
      .where('id', '=', batch.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('values a merge-mined share in every coin it was mined against, each credited once', async () => {
    // 10,000 DOGE a block at difficulty 20,000,000; 10 BELLS at 100,000 (made-up, round numbers).
    const DOGE: BatchNetwork = {
      coin: 'DOGE',
      height: 5_900_000,
      reward: '1000000000000',
      difficulty: '20000000',
      demo: false,
    };
    const BELLS: BatchNetwork = {
      coin: 'BELLS',
      height: 300_000,
      reward: '1000000000',
      difficulty: '100000',
      demo: false,
    };
    const fresh = (takenAt: Date, doge: string) =>
      savePrices(database.db, {
        source: 'test',
        takenAt,
        quotes: [
          { ticker: 'LTC', usd: '80' },
          { ticker: 'BTC', usd: '100000' },
          { ticker: 'DOGE', usd: doge },
          { ticker: 'BELLS', usd: '0.8' },
        ],
      });
    await fresh(new Date(NOW.getTime() - 60_000), '0.4');
    const before = await balances('alice');
    const batch = shareBatch(
      '2026-11-01T11:59:50Z',
      [shareCounts('alice', 'rig3', { acceptedDifficulty: 1600, valid: 1 })],
      { network: LTC, merged: [DOGE, BELLS] },
    );
    expect((await applyShareBatch(database.db, batch, settings)).credit).toEqual({ kind: 'credited' });
    expect((await applyShareBatch(database.db, batch, settings)).applied).toBe(false);
    // By hand, each network's difficulty × reward ÷ network difficulty, converted to alice's coin (LTC):
    //   LTC   1600 × 6.25 LTC ÷ 1,000,000      = 0.01 LTC                       = 1,000,000 litoshi
    //   DOGE  1600 × 10,000 DOGE ÷ 20,000,000  = 0.8 DOGE  ($0.32 at $0.40)     =   400,000 litoshi
    //   BELLS 1600 × 10 BELLS ÷ 100,000        = 0.16 BELLS ($0.128 at $0.80)   =   160,000 litoshi
    // 1,560,000 litoshi, less the 1% fee.
    expect((await balances('alice')).LTC).toBe((before.LTC ?? 0n) + 1_544_400n);
    const keys = await database.db
      .selectFrom('ledger_transactions')
      .select('idempotency_key')
      .where('idempotency_key', 'in', [
        `pps:${batch.id}`,
        `pps:${mergedCreditId(batch.id, 'DOGE')}`,
        `pps:${mergedCreditId(batch.id, 'BELLS')}`,
      ])
      .execute();
    expect(keys).toHaveLength(3);
    // Profitability counts the aux chains: $0.80 + $0.32 + $0.128 for these shares, at $100,000 a BTC.
    const rate = (await ppsRates(database.db, powHashesPerDifficulty)).get('scrypt');
    const hashes = Exact.of(1600).times(powHashesPerDifficulty('scrypt'));
    expect(
      Exact.of(rate ?? '0')
        .times(hashes)
        .dividedBy(86_400, 20)
        .shifted(8)
        .toString(),
    ).toBe('1248');
    const states = await database.db.selectFrom('merged_network_states').selectAll().orderBy('coin').execute();
    expect(states.map((s) => [s.algorithm, s.coin, s.reward, s.difficulty])).toEqual([
      ['scrypt', 'BELLS', '1000000000', '100000'],
      ['scrypt', 'DOGE', '1000000000000', '20000000'],
    ]);

    // A stale DOGE price holds back the DOGE part alone; it is credited once the price is fresh.
    await fresh(new Date(NOW.getTime() - 3_600_000), '0.4');
    await database.db
      .deleteFrom('prices')
      .where('ticker', '=', 'DOGE')
      .where('taken_at', '>', new Date(NOW.getTime() - 3_000_000))
      .execute();
    const late = shareBatch(
      '2026-11-01T11:59:51Z',
      [shareCounts('alice', 'rig3', { acceptedDifficulty: 1600, valid: 1 })],
      { network: LTC, merged: [DOGE] },
    );
    const middle = (await balances('alice')).LTC ?? 0n;
    expect((await applyShareBatch(database.db, late, settings)).credit).toEqual({
      kind: 'waiting-for-prices',
      tickers: ['DOGE'],
    });
    expect((await balances('alice')).LTC).toBe(middle + 990_000n);
    const pending = await database.db
      .selectFrom('pps_credits')
      .select(['batch_id', 'coin', 'value'])
      .where('credited_at', 'is', null)
      .execute();
    expect(pending).toEqual([{ batch_id: mergedCreditId(late.id, 'DOGE'), coin: 'DOGE', value: '80000000' }]);
    await fresh(new Date(NOW.getTime() - 30_000), '0.4');
    expect(await creditPendingBatches(database.db, settings, recordingLog())).toBe(1);
    expect(await creditPendingBatches(database.db, settings, recordingLog())).toBe(0);
    expect((await balances('alice')).LTC).toBe(middle + 990_000n + 396_000n);
  });

  it('credits a waiting Litecoin value even while the Dogecoin value of the same shares still waits', async () => {
    const DOGE: BatchNetwork = {
      coin: 'DOGE',
      height: 5_900_001,
      reward: '1000000000000',
      difficulty: '20000000',
      demo: false,
    };
    // Every price stale: both values of the batch wait.
    await database.db
      .deleteFrom('prices')
      .where('taken_at', '>', new Date(NOW.getTime() - 3_000_000))
      .execute();
    const batch = shareBatch(
      '2026-11-01T11:59:52Z',
      [shareCounts('alice', 'rig4', { acceptedDifficulty: 1600, valid: 1 })],
      { network: LTC, merged: [DOGE] },
    );
    expect((await applyShareBatch(database.db, batch, settings)).credit).toMatchObject({ kind: 'waiting-for-prices' });
    const waiting = () =>
      database.db.selectFrom('pps_credits').select('coin').where('credited_at', 'is', null).orderBy('coin').execute();
    expect(await waiting()).toEqual([{ coin: 'DOGE' }, { coin: 'LTC' }]);
    const before = (await balances('alice')).LTC ?? 0n;

    // Litecoin's price is fresh again, Dogecoin's is not: the Litecoin value is credited, whichever comes first.
    await savePrices(database.db, {
      source: 'test',
      takenAt: new Date(NOW.getTime() - 30_000),
      quotes: [
        { ticker: 'LTC', usd: '80' },
        { ticker: 'BTC', usd: '100000' },
      ],
    });
    expect(await creditPendingBatches(database.db, settings, recordingLog())).toBe(1);
    expect(await waiting()).toEqual([{ coin: 'DOGE' }]);
    expect((await balances('alice')).LTC).toBe(before + 990_000n);
  });
});
