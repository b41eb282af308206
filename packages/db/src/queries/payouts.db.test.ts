import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../connection.js';
import type { Executor } from '../schema.js';
import {
  createTestDatabase,
  emptyTestDatabase,
  insertTestAccount,
  seedBalance,
  seedPayoutSettings,
  testEngines,
} from '../testing.js';
import { recordBlock } from './blocks.js';
import { balancesOfAccount, balancesOfSystemAccount, postLedgerTransaction, reconcileLedger } from './ledger.js';
import {
  blockRewardKey,
  confirmBlock,
  createPayout,
  demoWalletTransaction,
  demoWalletTransactionsByComment,
  failPayout,
  insertDemoWalletTransaction,
  markPayoutSending,
  markPayoutSent,
  type NewPayout,
  openPayouts,
  orphanBlock,
  payoutById,
  payoutCandidates,
  payoutItems,
  payoutReversalKey,
  pendingBlocks,
  setBlockConfirmations,
} from './payouts.js';

const T = (iso: string) => new Date(`2024-05-06T${iso}Z`);

async function newAccount(db: Executor, name: string): Promise<bigint> {
  return (await insertTestAccount(db, name)).id;
}

const credit = seedBalance;

async function balance(db: Executor, accountId: bigint, coin: string): Promise<bigint> {
  return (await balancesOfAccount(db, accountId)).find((b) => b.coin === coin)?.amount ?? 0n;
}

const settings = seedPayoutSettings;

describe.each(testEngines())('payout queries on %s', (engine) => {
  let database: Database;
  let alice: bigint;
  let bob: bigint;
  beforeAll(async () => {
    database = await createTestDatabase({ engine });
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await emptyTestDatabase(database.db);
    alice = await newAccount(database.db, 'alice');
    bob = await newAccount(database.db, 'bob');
  });

  const payoutOf = (over: Partial<NewPayout> = {}): NewPayout => ({
    key: 'payout:LTC:1',
    coin: 'LTC',
    demo: false,
    createdAt: T('10:00:00'),
    accounts: [
      {
        accountId: alice,
        amount: 1000n,
        items: [
          { address: 'a1', amount: 600n },
          { address: 'a2', amount: 400n },
        ],
      },
      { accountId: bob, amount: 500n, items: [{ address: 'b1', amount: 500n }] },
    ],
    ...over,
  });

  it('the ledger debits a mining account within its balance and refuses to take it below zero', async () => {
    // The payout's debit leg; a proposed new balance row must not slip past the balances check.
    const db = database.db;
    const debit = (key: string, accountId: bigint, amount: bigint) =>
      db.transaction().execute((trx) =>
        postLedgerTransaction(trx, {
          key,
          kind: 'payout',
          legs: [
            { account: { accountId }, coin: 'LTC', amount: -amount, kind: 'payout' },
            { account: { system: 'pool:payouts' }, coin: 'LTC', amount, kind: 'payout' },
          ],
        }),
      );
    await credit(db, alice, 'LTC', 1000n);
    await debit('d1', alice, 400n);
    expect(await balance(db, alice, 'LTC')).toBe(600n);
    await expect(debit('d2', alice, 601n)).rejects.toMatchObject({ code: '23514' });
    await expect(debit('d3', bob, 1n)).rejects.toMatchObject({ code: '23514' });
    expect(await balance(db, alice, 'LTC')).toBe(600n);
    expect(await balancesOfAccount(db, bob)).toEqual([]);
    expect(await reconcileLedger(db)).toEqual([]);
  });

  it('createPayout writes a pending payout, its items and one ledger transaction debiting each account', async () => {
    const db = database.db;
    await credit(db, alice, 'LTC', 1000n);
    await credit(db, bob, 'LTC', 700n);
    const created = await createPayout(db, payoutOf());
    expect(created?.dropped).toEqual([]);
    expect(created?.payout).toMatchObject({
      idempotency_key: 'payout:LTC:1',
      coin: 'LTC',
      status: 'pending',
      total: '1500',
      demo: false,
      txid: null,
      fee: null,
      created_at: T('10:00:00'),
    });
    expect(await payoutItems(db, created?.payout.id as bigint)).toEqual([
      { accountId: alice, address: 'a1', amount: 600n },
      { accountId: alice, address: 'a2', amount: 400n },
      { accountId: bob, address: 'b1', amount: 500n },
    ]);
    expect(await balance(db, alice, 'LTC')).toBe(0n);
    expect(await balance(db, bob, 'LTC')).toBe(200n);
    expect(await balancesOfSystemAccount(db, 'pool:payouts')).toEqual([{ coin: 'LTC', amount: 1500n }]);
    const ledger = await db
      .selectFrom('ledger_transactions')
      .select(['kind', 'reference'])
      .where('idempotency_key', '=', 'payout:LTC:1')
      .execute();
    expect(ledger).toEqual([{ kind: 'payout', reference: String(created?.payout.id) }]);
    expect(await reconcileLedger(db)).toEqual([]);
  });

  it('createPayout drops accounts whose balance no longer covers the plan, and writes nothing when none is left', async () => {
    const db = database.db;
    await credit(db, alice, 'LTC', 1000n);
    await credit(db, bob, 'LTC', 499n);
    const created = await createPayout(db, payoutOf());
    expect(created?.dropped).toEqual([bob]);
    expect(created?.payout.total).toBe('1000');
    expect(await balance(db, bob, 'LTC')).toBe(499n);

    expect(await createPayout(db, payoutOf({ key: 'payout:LTC:2' }))).toBeUndefined();
    expect((await db.selectFrom('payouts').select('idempotency_key').execute()).map((p) => p.idempotency_key)).toEqual([
      'payout:LTC:1',
    ]);
    expect(await reconcileLedger(db)).toEqual([]);
  });

  it('createPayout refuses a reused key and items that do not add up, writing nothing', async () => {
    const db = database.db;
    await credit(db, alice, 'LTC', 5000n);
    await credit(db, bob, 'LTC', 5000n);
    await createPayout(db, payoutOf());
    await expect(createPayout(db, payoutOf())).rejects.toMatchObject({ code: '23505' });
    const bad = payoutOf({ key: 'payout:LTC:3' });
    await expect(
      createPayout(db, {
        ...bad,
        accounts: [{ accountId: alice, amount: 10n, items: [{ address: 'a', amount: 9n }] }],
      }),
    ).rejects.toThrow(/do not add up/);
    expect(await balance(db, alice, 'LTC')).toBe(4000n);
    expect(await reconcileLedger(db)).toEqual([]);
  });

  it('moves pending → sending → sent only along the guarded transitions', async () => {
    const db = database.db;
    await credit(db, alice, 'LTC', 1000n);
    await credit(db, bob, 'LTC', 500n);
    const id = (await createPayout(db, payoutOf()))?.payout.id as bigint;
    expect(await markPayoutSent(db, id, { txid: 'ab'.repeat(32), fee: 10n, at: T('10:00:02') })).toBe(false);
    expect(await markPayoutSending(db, id, T('10:00:01'))).toBe(true);
    expect(await markPayoutSending(db, id, T('10:00:01'))).toBe(false);
    expect((await openPayouts(db, 'LTC')).map((p) => p.status)).toEqual(['sending']);
    expect(await markPayoutSent(db, id, { txid: 'ab'.repeat(32), fee: 10n, at: T('10:00:02') })).toBe(true);
    expect(await markPayoutSent(db, id, { txid: 'cd'.repeat(32), fee: 10n, at: T('10:00:03') })).toBe(false);
    expect(await failPayout(db, id, 'too late', T('10:00:04'))).toBe(false);
    expect(await payoutById(db, id)).toMatchObject({
      status: 'sent',
      txid: 'ab'.repeat(32),
      fee: '10',
      sending_at: T('10:00:01'),
      sent_at: T('10:00:02'),
      error: null,
    });
    expect(await openPayouts(db)).toEqual([]);
    expect(await balance(db, alice, 'LTC')).toBe(0n);
  });

  it('failPayout restores every balance with one reversal, once', async () => {
    const db = database.db;
    await credit(db, alice, 'LTC', 1000n);
    await credit(db, bob, 'LTC', 500n);
    const id = (await createPayout(db, payoutOf()))?.payout.id as bigint;
    await markPayoutSending(db, id, T('10:00:01'));
    expect(await failPayout(db, id, 'wallet refused', T('10:00:02'))).toBe(true);
    expect(await failPayout(db, id, 'wallet refused', T('10:00:03'))).toBe(false);
    expect(await payoutById(db, id)).toMatchObject({
      status: 'failed',
      error: 'wallet refused',
      failed_at: T('10:00:02'),
    });
    expect(await balance(db, alice, 'LTC')).toBe(1000n);
    expect(await balance(db, bob, 'LTC')).toBe(500n);
    expect(await balancesOfSystemAccount(db, 'pool:payouts')).toEqual([{ coin: 'LTC', amount: 0n }]);
    const reversal = await db
      .selectFrom('ledger_transactions')
      .select(['kind', 'reason'])
      .where('idempotency_key', '=', payoutReversalKey('payout:LTC:1'))
      .execute();
    expect(reversal).toEqual([{ kind: 'payout_reversal', reason: 'wallet refused' }]);
    expect(await reconcileLedger(db)).toEqual([]);
  });

  it('payoutCandidates lists positive balances with settings, addresses and the last payout that was not failed', async () => {
    const db = database.db;
    const carol = await newAccount(db, 'carol');
    await settings(db, alice, 'LTC', [
      ['a1', '60'],
      ['a2', '40'],
    ]);
    await settings(db, bob, 'LTC', [['b1', '100']], { threshold: '0.5', interval: '24', pausedUntil: T('12:00:00') });
    await settings(db, carol, 'LTC', [['c1', '100']]); // no balance: not a candidate
    await settings(db, alice, 'BTC', [['x', '100']]); // another coin
    await credit(db, alice, 'LTC', 1000n);
    await credit(db, bob, 'LTC', 500n);
    await credit(db, alice, 'BTC', 7n);

    const sent = (await createPayout(db, payoutOf({ createdAt: T('08:00:00') })))?.payout.id as bigint;
    await markPayoutSending(db, sent, T('08:00:00'));
    await markPayoutSent(db, sent, { txid: 'ab'.repeat(32), fee: 0n, at: T('08:00:00') });
    await credit(db, alice, 'LTC', 1000n);
    await credit(db, bob, 'LTC', 500n);
    const failed = (await createPayout(db, payoutOf({ key: 'payout:LTC:2', createdAt: T('09:00:00') })))?.payout
      .id as bigint;
    await failPayout(db, failed, 'refused', T('09:00:00'));

    expect(await payoutCandidates(db, 'LTC')).toEqual([
      {
        accountId: alice,
        balance: 1000n,
        threshold: '0.01',
        intervalHours: '1',
        pausedUntil: null,
        lastPayoutAt: T('08:00:00'),
        addresses: [
          { position: 0, address: 'a1', proportion: '60' },
          { position: 1, address: 'a2', proportion: '40' },
        ],
      },
      {
        accountId: bob,
        balance: 500n,
        threshold: '0.5',
        intervalHours: '24',
        pausedUntil: T('12:00:00'),
        lastPayoutAt: T('08:00:00'),
        addresses: [{ position: 0, address: 'b1', proportion: '100' }],
      },
    ]);
    expect((await payoutCandidates(db, 'BTC')).map((c) => [c.accountId, c.balance, c.lastPayoutAt])).toEqual([
      [alice, 7n, null],
    ]);
  });

  it('keeps demo wallet transactions with their outputs exact, and only with demo txids', async () => {
    const db = database.db;
    const big = 123456789012345678901234567890n;
    const tx = await insertDemoWalletTransaction(db, {
      txid: `demo${'0'.repeat(60)}`,
      coin: 'LTC',
      comment: 'payout:LTC:1',
      outputs: [
        { address: 'a1', amount: big },
        { address: 'a2', amount: 1n },
      ],
      createdAt: T('10:00:00'),
    });
    expect(tx).toEqual({
      txid: `demo${'0'.repeat(60)}`,
      coin: 'LTC',
      comment: 'payout:LTC:1',
      outputs: [
        { address: 'a1', amount: big },
        { address: 'a2', amount: 1n },
      ],
      total: big + 1n,
      createdAt: T('10:00:00'),
    });
    expect(await demoWalletTransactionsByComment(db, 'LTC', 'payout:LTC:1')).toEqual([tx]);
    expect(await demoWalletTransactionsByComment(db, 'BTC', 'payout:LTC:1')).toEqual([]);
    expect(await demoWalletTransaction(db, 'LTC', tx.txid)).toEqual(tx);
    await expect(
      insertDemoWalletTransaction(db, { txid: 'ab'.repeat(32), coin: 'LTC', comment: 'x', outputs: [] }),
    ).rejects.toMatchObject({ code: '23514' });
  });

  describe('found blocks', () => {
    const block = (hash: string, coin = 'LTC') => ({
      id: `6f1c8a8e-6a3a-4c43-9d5e-${hash.slice(0, 12)}`,
      node: 'node-1',
      algorithm: 'scrypt' as const,
      coin,
      height: 432,
      hash,
      reward: '625000000',
      account: 'alice',
      worker: 'rig1',
      difficulty: '512',
      status: 'pending' as const,
      found_at: T('10:00:00'),
      submit_error: null,
    });

    it('confirmBlock settles once with one balanced block_reward transaction', async () => {
      const db = database.db;
      const b = block('a'.repeat(64));
      await recordBlock(db, b);
      expect(await setBlockConfirmations(db, b.id, 3)).toBe(true);
      expect((await pendingBlocks(db)).map((x) => [x.hash, x.confirmations])).toEqual([[b.hash, 3]]);
      expect(await confirmBlock(db, b, { confirmations: 100, at: T('11:00:00'), reward: 625000000n })).toBe(true);
      expect(await confirmBlock(db, b, { confirmations: 101, at: T('11:01:00'), reward: 625000000n })).toBe(false);
      expect(await setBlockConfirmations(db, b.id, 102)).toBe(false);
      expect(await orphanBlock(db, b.id, T('11:02:00'))).toBe(false);
      expect(await pendingBlocks(db)).toEqual([]);
      const row = await db.selectFrom('blocks').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'confirmed', confirmations: 100, settled_at: T('11:00:00') });
      expect(await balancesOfSystemAccount(db, 'pool:blocks')).toEqual([{ coin: 'LTC', amount: 625000000n }]);
      expect(await balancesOfSystemAccount(db, 'pool:chain')).toEqual([{ coin: 'LTC', amount: -625000000n }]);
      const tx = await db
        .selectFrom('ledger_transactions')
        .select(['kind', 'reference'])
        .where('idempotency_key', '=', blockRewardKey(b.hash))
        .execute();
      expect(tx).toEqual([{ kind: 'block_reward', reference: b.hash }]);
      expect(await reconcileLedger(db)).toEqual([]);
    });

    it('orphanBlock settles a pending block without touching the ledger', async () => {
      const db = database.db;
      const b = block('b'.repeat(64));
      await recordBlock(db, b);
      await setBlockConfirmations(db, b.id, 2);
      expect(await orphanBlock(db, b.id, T('10:30:00'))).toBe(true);
      expect(await orphanBlock(db, b.id, T('10:31:00'))).toBe(false);
      expect(await db.selectFrom('blocks').selectAll().executeTakeFirstOrThrow()).toMatchObject({
        status: 'orphaned',
        confirmations: 0,
        settled_at: T('10:30:00'),
      });
      expect(await db.selectFrom('ledger_transactions').select('id').execute()).toEqual([]);
    });
  });
});
