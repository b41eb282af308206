import {
  type ConversionListKey,
  type ConversionRow,
  createPayout,
  type DatabaseEngine,
  type Executor,
  failPayout,
  markPayoutSending,
  markPayoutSent,
  postLedgerTransaction,
  reconcileLedger,
  replaceConversionSettings,
  replacePayoutSettings,
  savePrices,
} from '@lodestone/db';
import type { AlgorithmKey } from '@lodestone/domain';
import { applyShareBatch } from '../src/jobs/accounting.js';
import { shareBatch, shareCounts } from '../src/jobs/testing.js';
import { registerUser, type TestUser } from './accounts.js';
import { createTestApp, type TestApp } from './helpers.js';

/**
 * Tests only: the revenue API tests' seeded world — two users on a real app and database, money in
 * the ledger at known times, payouts in every state, worker statistics, prices and settings. The
 * numbers are chosen so the answers can be computed by hand (see the expectations in the tests).
 *
 * The app's clock is NOW = 2025-06-15 12:00 UTC (14:00 in Madrid). Alice's scrypt earnings:
 *   2025-03-01 12:00Z  LTC 9,000,000 (older than the 90 days the earnings list shows)
 *   2025-05-31 22:30Z  LTC     1,000 (May in UTC, 1 June in Madrid)
 *   2025-06-13 08:00Z  LTC    20,000 referral reward (from bob's shares)
 *   2025-06-14 12:00Z  BTC       700
 *   2025-06-14 23:30Z  LTC   500,000 (the 14th in UTC, the 15th in Madrid)
 *   2025-06-15 10:00Z  LTC 1,000,000
 * and on x11: 2025-06-14 12:00Z DASH 3,000,000.
 * Payouts: LTC sent 2025-06-10 08:00Z (3,000,000 + 1,000,000 to two addresses, bob 2,000,000 in the
 * same transaction), LTC pending 2025-06-14 23:30Z (500,000), BTC failed 2025-06-13 (reversed), BTC
 * demo sent 2025-06-12 00:00Z (200).
 * Worker minutes (scrypt, 65,536 hashes per difficulty 1): 06-12 12:00Z 864, 06-14 10:00Z 86,400,
 * 06-15 06:00Z 43,200; x11 06-14 10:00Z 1,000; bob scrypt 06-14 10:00Z 5,555.
 */
export const NOW = new Date('2025-06-15T12:00:00Z');
export const LTC_TXID = 'ab'.repeat(32);
export const DEMO_TXID = `demo${'0'.repeat(59)}1`;

export interface Miner {
  user: TestUser;
  id: bigint;
  name: string;
  observerKey: string;
}

export interface RevenueWorld {
  t: TestApp;
  alice: Miner;
  bob: Miner;
}

let keys = 0;

export async function minerOf(t: TestApp, user: TestUser): Promise<Miner> {
  const row = await t.database.db
    .selectFrom('accounts')
    .select(['id', 'observer_key'])
    .where('username', '=', user.username)
    .executeTakeFirstOrThrow();
  if (!row.observer_key) throw new Error(`${user.username} has no observer key`);
  return { user, id: row.id, name: user.username, observerKey: row.observer_key };
}

/** A balanced ledger credit of an account at a given time (the other leg on pool:pps). */
export function earn(
  db: Executor,
  accountId: bigint,
  coin: string,
  amount: bigint,
  at: string,
  options: { algorithm?: AlgorithmKey; kind?: 'pps' | 'referral' | 'redirect_in'; source?: bigint } = {},
) {
  const algorithm = options.algorithm ?? 'scrypt';
  return db.transaction().execute((trx) =>
    postLedgerTransaction(trx, {
      key: `test-earning:${++keys}:${process.pid}`,
      kind: 'pps_credit',
      at: new Date(at),
      legs: [
        {
          account: { accountId },
          coin,
          amount,
          kind: options.kind ?? 'pps',
          algorithm,
          sourceAccountId: options.source ?? null,
        },
        { account: { system: 'pool:pps' }, coin, amount: -amount, kind: 'pps_expense', algorithm },
      ],
    }),
  );
}

/** A payout written and moved to `status` as the payout job would (balances debited). */
export async function payout(
  db: Executor,
  p: {
    coin: string;
    at: string;
    status: 'pending' | 'sent' | 'failed';
    accounts: { accountId: bigint; items: { address: string; amount: bigint }[] }[];
    txid?: string;
    demo?: boolean;
  },
) {
  const created = await createPayout(db, {
    key: `payout:${p.coin}:test-${++keys}`,
    coin: p.coin,
    demo: p.demo ?? false,
    createdAt: new Date(p.at),
    accounts: p.accounts.map((a) => ({ ...a, amount: a.items.reduce((s, i) => s + i.amount, 0n) })),
  });
  if (!created) throw new Error('payout not created');
  const id = created.payout.id;
  const later = new Date(Date.parse(p.at) + 1000);
  if (p.status === 'sent') {
    await markPayoutSending(db, id, later);
    await markPayoutSent(db, id, { txid: p.txid ?? LTC_TXID, fee: 0n, at: later });
  }
  if (p.status === 'failed') await failPayout(db, id, 'wallet refused', later);
}

export async function seedRevenueWorld(engine: DatabaseEngine): Promise<RevenueWorld> {
  const t = await createTestApp({}, undefined, engine, { now: () => NOW });
  const alice = await minerOf(t, await registerUser(t.app));
  const bob = await minerOf(t, await registerUser(t.app));
  const db = t.database.db;

  await savePrices(db, {
    source: 'test',
    takenAt: new Date(NOW.getTime() - 3600_000),
    quotes: [
      { ticker: 'BTC', usd: '100000' },
      { ticker: 'LTC', usd: '80' },
      { ticker: 'DOGE', usd: '0.2' },
    ],
  });

  await earn(db, alice.id, 'LTC', 9_000_000n, '2025-03-01T12:00:00Z');
  await earn(db, alice.id, 'LTC', 1_000n, '2025-05-31T22:30:00Z');
  await earn(db, alice.id, 'LTC', 20_000n, '2025-06-13T08:00:00Z', { kind: 'referral', source: bob.id });
  await earn(db, alice.id, 'BTC', 700n, '2025-06-14T12:00:00Z');
  await earn(db, alice.id, 'LTC', 500_000n, '2025-06-14T23:30:00Z');
  await earn(db, alice.id, 'LTC', 1_000_000n, '2025-06-15T10:00:00Z');
  await earn(db, alice.id, 'DASH', 3_000_000n, '2025-06-14T12:00:00Z', { algorithm: 'x11' });
  await earn(db, bob.id, 'LTC', 2_500_000n, '2025-06-09T12:00:00Z');

  await payout(db, {
    coin: 'LTC',
    at: '2025-06-10T08:00:00Z',
    status: 'sent',
    accounts: [
      {
        accountId: alice.id,
        items: [
          { address: 'ltc1qalice2', amount: 1_000_000n },
          { address: 'ltc1qalice1', amount: 3_000_000n },
        ],
      },
      { accountId: bob.id, items: [{ address: 'ltc1qbob', amount: 2_000_000n }] },
    ],
  });
  await payout(db, {
    coin: 'BTC',
    at: '2025-06-12T00:00:00Z',
    status: 'sent',
    demo: true,
    txid: DEMO_TXID,
    accounts: [{ accountId: alice.id, items: [{ address: 'bc1qalice', amount: 200n }] }],
  });
  await payout(db, {
    coin: 'BTC',
    at: '2025-06-13T00:00:00Z',
    status: 'failed',
    accounts: [{ accountId: alice.id, items: [{ address: 'bc1qalice', amount: 100n }] }],
  });
  await payout(db, {
    coin: 'LTC',
    at: '2025-06-14T23:30:00Z',
    status: 'pending',
    accounts: [{ accountId: alice.id, items: [{ address: 'ltc1qalice1', amount: 500_000n }] }],
  });

  // Alice is paid in LTC (one address) and converts scrypt half into DOGE, for which she has no address.
  await replacePayoutSettings(
    db,
    alice.id,
    [
      {
        ticker: 'LTC',
        threshold: '0.01',
        intervalHours: '24',
        pausedUntil: null,
        addresses: [{ address: 'ltc1qalice1', proportion: '100' }],
      },
    ],
    NOW,
  );
  await replaceConversionSettings(
    db,
    alice.id,
    new Map<ConversionListKey, ConversionRow[]>([
      [
        'scrypt',
        [
          { ticker: 'LTC', proportion: '50' },
          { ticker: 'DOGE', proportion: '50' },
        ],
      ],
    ]),
    false,
  );

  // Worker statistics as accounting writes them: share batches (rolled up or not, the dashboard
  // readers add the rollups and the minutes not rolled yet).
  const shares = (account: string, algorithm: AlgorithmKey, end: string, acceptedDifficulty: number) =>
    applyShareBatch(
      db,
      shareBatch(end, [shareCounts(account, 'rig1', { acceptedDifficulty, valid: 1 })], { algorithm }),
    );
  await shares(alice.name, 'scrypt', '2025-06-12T12:00:30Z', 864);
  await shares(alice.name, 'scrypt', '2025-06-14T10:00:30Z', 86_400);
  await shares(alice.name, 'scrypt', '2025-06-15T06:00:30Z', 43_200);
  await shares(alice.name, 'x11', '2025-06-14T10:00:30Z', 1_000);
  await shares(bob.name, 'scrypt', '2025-06-14T10:00:30Z', 5_555);

  const problems = await reconcileLedger(db);
  if (problems.length > 0) throw new Error(`seeded ledger does not reconcile: ${JSON.stringify(problems)}`);
  return { t, alice, bob };
}
