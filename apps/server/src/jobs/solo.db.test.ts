import type { BlockStatus } from '@lodestone/chain';
import {
  accountMiningTotals,
  balancesOfAccount,
  balancesOfSystemAccount,
  reconcileLedger,
  savePrices,
  soloRewardKey,
} from '@lodestone/db';
import { insertTestAccount, testEngines, useTestDatabase } from '@lodestone/db/testing';
import type { BatchNetwork } from '@lodestone/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FoundBlockRef } from '../chains/chain.js';
import { applyShareBatch, type CreditSettings, recordFoundBlock } from './accounting.js';
import { runBlockConfirmations } from './blockConfirmations.js';
import { foundBlock, recordingLog, shareBatch, shareCounts } from './testing.js';

/*
 * Solo mining through accounting (docs/solo.md): a solo worker's shares are statistics and its own
 * round, never PPS; its block keeps the solo fee in force and, matured, credits its finder once.
 */

const AT = new Date('2024-05-06T10:00:00Z');
/** 6.25 LTC and a difficulty of 1,000 (so a share of difficulty 10 is worth 1 % of a block). */
const LTC: BatchNetwork = { coin: 'LTC', height: 2_700_000, reward: '625000000', difficulty: '1000', demo: false };
const HASH = 'cd'.repeat(32);

describe.each(testEngines())('solo mining on %s', (engine) => {
  const t = useTestDatabase(engine);
  const db = () => t.database.db;
  const settings: CreditSettings = { feePercent: 1, soloFeePercent: '1.5', priceMaxAgeMs: 1_800_000, now: () => AT };
  let alice: bigint;
  let bob: bigint;

  beforeEach(async () => {
    alice = (await insertTestAccount(db(), 'alice')).id;
    bob = (await insertTestAccount(db(), 'bob')).id;
    await savePrices(db(), { source: 'test', takenAt: AT, quotes: [{ ticker: 'LTC', usd: '80' }] });
  });
  afterEach(async () => {
    expect(await reconcileLedger(db())).toEqual([]);
  });

  /** Alice mines rig1 on a pool port and on a solo port, Bob rig1 on a pool port, in one batch. */
  const mine = (end: string, best = 4000) =>
    applyShareBatch(
      db(),
      shareBatch(
        end,
        [
          shareCounts('alice', 'rig1', { acceptedDifficulty: 10, valid: 1 }),
          shareCounts('bob', 'rig1', { acceptedDifficulty: 30, valid: 3 }),
        ],
        {
          network: LTC,
          soloWorkers: [
            shareCounts('alice', 'rig1', {
              acceptedDifficulty: 50,
              valid: 5,
              invalid: 1,
              rejectReasons: { duplicate: 1 },
              bestDifficulty: best,
              lastShareAt: Date.parse(end) - 2000,
              lastAcceptedAt: Date.parse(end) - 2000,
            }),
          ],
        },
      ),
      settings,
    );

  const ppsEntries = () =>
    db()
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_accounts as la', 'la.id', 'e.ledger_account_id')
      .select(['la.account_id', (eb) => eb.fn.sum<string>('e.amount').as('amount')])
      .where('e.kind', '=', 'pps')
      .groupBy('la.account_id')
      .orderBy('la.account_id')
      .execute();

  it('keeps a solo port’s worker apart: statistics and its own round, never PPS nor the pool’s round', async () => {
    expect(await mine('2024-05-06T09:59:00Z')).toMatchObject({ applied: true, credit: { kind: 'credited' } });
    await mine('2024-05-06T09:59:30Z', 9000);

    const workers = await db()
      .selectFrom('workers')
      .select(['account', 'name', 'solo', 'total_accepted_difficulty', 'best_difficulty', 'best_difficulty_at'])
      .orderBy('account')
      .orderBy('solo')
      .execute();
    expect(workers).toEqual([
      expect.objectContaining({
        account: 'alice',
        solo: false,
        total_accepted_difficulty: '20',
        best_difficulty: null,
      }),
      {
        account: 'alice',
        name: 'rig1',
        solo: true,
        total_accepted_difficulty: '100',
        best_difficulty: '9000',
        best_difficulty_at: new Date('2024-05-06T09:59:28Z'),
      },
      expect.objectContaining({ account: 'bob', solo: false, total_accepted_difficulty: '60' }),
    ]);
    // PPS: 2 × 10 of alice's pool shares and 2 × 30 of bob's, each 1/1000 of 6.25 LTC, less 1 %.
    expect(await ppsEntries()).toEqual([
      { account_id: alice, amount: String((20n * 625_000_000n * 99n) / 100n / 1000n) },
      { account_id: bob, amount: String((60n * 625_000_000n * 99n) / 100n / 1000n) },
    ]);
    const pool = await db().selectFrom('block_rounds').select(['coin', 'accepted_difficulty']).execute();
    expect(pool).toEqual([{ coin: 'LTC', accepted_difficulty: '80' }]);
    const solo = await db().selectFrom('solo_rounds').selectAll().execute();
    expect(solo).toEqual([
      {
        account: 'alice',
        algorithm: 'scrypt',
        coin: 'LTC',
        accepted_difficulty: '100',
        best_difficulty: '9000',
        best_at: new Date('2024-05-06T09:59:28Z'),
        started_at: new Date('2024-05-06T09:59:00Z'),
        updated_at: new Date('2024-05-06T09:59:30Z'),
      },
    ]);
    const rejects = await db().selectFrom('worker_rejects_hour').select(['reason', 'shares']).execute();
    expect(rejects).toEqual([{ reason: 'duplicate', shares: 2n }]);
    // The dashboard's estimate of PPS earnings counts the pool ports' work only; its hashrate all of it.
    const totals = await accountMiningTotals(db(), {
      account: 'alice',
      algorithm: 'scrypt',
      windowFrom: new Date('2024-05-06T09:50:00Z'),
      windowMinutes: 10,
      dayFrom: new Date('2024-05-05T09:00:00Z'),
      to: AT,
    });
    expect(totals).toMatchObject({ totalWorkers: 2, windowDifficulty: '120', ppsWindowDifficulty: '20' });
  });

  it('records a solo block with the fee in force and its finder’s round; matured, credits the finder once', async () => {
    await mine('2024-05-06T09:59:00Z');
    const block = foundBlock({ hash: HASH, account: 'alice', solo: true, foundAt: AT.getTime() });
    expect(await recordFoundBlock(db(), block, settings.soloFeePercent)).toEqual({ recorded: true });
    // A pool block after it closes the pool's round, not alice's (which her block already closed).
    await mine('2024-05-06T10:00:30Z');
    await recordFoundBlock(db(), foundBlock({ hash: 'ef'.repeat(32), account: 'bob', foundAt: AT.getTime() + 40_000 }));

    const rows = await db()
      .selectFrom('blocks')
      .select(['hash', 'account', 'solo', 'solo_fee_percent', 'round_difficulty'])
      .orderBy('found_at')
      .execute();
    expect(rows).toEqual([
      { hash: HASH, account: 'alice', solo: true, solo_fee_percent: '1.5', round_difficulty: '50' },
      { hash: 'ef'.repeat(32), account: 'bob', solo: false, solo_fee_percent: null, round_difficulty: '80' },
    ]);
    const round = await db().selectFrom('solo_rounds').selectAll().executeTakeFirstOrThrow();
    expect(round).toMatchObject({ accepted_difficulty: '50', best_difficulty: '4000', started_at: AT });

    // A solo block without the fee setting is refused rather than recorded with a guess.
    await expect(recordFoundBlock(db(), { ...block, id: foundBlock().id, hash: '12'.repeat(32) })).rejects.toThrow(
      'solo, with no solo fee',
    );

    const chain = new Map<string, BlockStatus>([
      [HASH, { kind: 'in-main-chain', confirmations: 100, height: 2_700_000 }],
    ]);
    const statusOf = async (_coin: string, { hash }: FoundBlockRef): Promise<BlockStatus> =>
      chain.get(hash) ?? { kind: 'not-found' };
    const log = recordingLog();
    const run = () =>
      runBlockConfirmations(
        { db: db(), minedCoins: [{ ticker: 'LTC', algorithm: 'scrypt' }], statusOf, log },
        new Date('2024-05-06T12:00:00Z'),
      );
    expect((await run()).confirmed).toEqual([HASH]);
    expect((await run()).confirmed).toEqual([]);

    // 625,000,000 less 1.5 %: 615,625,000 to alice, 9,375,000 kept.
    const credits = await db()
      .selectFrom('ledger_transactions as t')
      .innerJoin('ledger_entries as e', 'e.transaction_id', 't.id')
      .select(['t.kind as tx', 'e.kind', 'e.amount', 'e.algorithm'])
      .where('t.idempotency_key', '=', soloRewardKey(HASH))
      .orderBy('e.amount')
      .execute();
    expect(credits).toEqual([
      { tx: 'solo_reward', kind: 'solo_expense', amount: '-625000000', algorithm: 'scrypt' },
      { tx: 'solo_reward', kind: 'fee', amount: '9375000', algorithm: 'scrypt' },
      { tx: 'solo_reward', kind: 'solo_reward', amount: '615625000', algorithm: 'scrypt' },
    ]);
    expect(await balancesOfSystemAccount(db(), 'pool:solo')).toEqual([{ coin: 'LTC', amount: -625_000_000n }]);
    expect(await balancesOfSystemAccount(db(), 'pool:blocks')).toEqual([{ coin: 'LTC', amount: 625_000_000n }]);
    const aliceLtc = (await balancesOfAccount(db(), alice)).find((b) => b.coin === 'LTC');
    const pps = (await ppsEntries()).find((e) => e.account_id === alice)?.amount ?? '0';
    expect(aliceLtc?.amount).toBe(615_625_000n + BigInt(pps));
    expect(log.entries.filter((e) => e.message === 'solo block credited to its finder')).toHaveLength(1);
  });

  it('gives the finder’s referrer a fifth of the fee and keeps a gone finder’s block the pool’s', async () => {
    await db().updateTable('accounts').set({ referred_by: bob, fee_discount: '0.5' }).where('id', '=', alice).execute();
    const chain = new Map<string, BlockStatus>();
    const statusOf = async (_coin: string, { hash }: FoundBlockRef): Promise<BlockStatus> =>
      chain.get(hash) ?? { kind: 'not-found' };
    const log = recordingLog();
    const matured: BlockStatus = { kind: 'in-main-chain', confirmations: 100, height: 2_700_000 };
    for (const [hash, account] of [
      [HASH, 'alice'],
      ['34'.repeat(32), 'carol'],
    ] as const) {
      await recordFoundBlock(db(), foundBlock({ hash, account, solo: true, reward: '1000000' }), 2);
      chain.set(hash, matured);
    }
    await runBlockConfirmations(
      { db: db(), minedCoins: [{ ticker: 'LTC', algorithm: 'scrypt' }], statusOf, log },
      new Date('2024-05-06T12:00:00Z'),
    );
    // 2 % less alice's 50 % discount = 1 % of 1,000,000: 10,000, of which bob gets 2,000.
    expect((await balancesOfAccount(db(), alice)).find((b) => b.coin === 'LTC')?.amount).toBe(990_000n);
    expect((await balancesOfAccount(db(), bob)).find((b) => b.coin === 'LTC')?.amount).toBe(2_000n);
    // carol has no account: her block matured into pool:blocks only, with a warning.
    expect(await balancesOfSystemAccount(db(), 'pool:solo')).toEqual([{ coin: 'LTC', amount: -1_000_000n }]);
    expect(await balancesOfSystemAccount(db(), 'pool:blocks')).toEqual([{ coin: 'LTC', amount: 2_000_000n }]);
    expect(log.entries.filter((e) => e.level === 'warn').map((e) => e.message)).toEqual([
      'a solo block matured whose finder’s account is gone: its reward stays the pool’s',
    ]);
  });
});
