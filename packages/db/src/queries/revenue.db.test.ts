import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../connection.js';
import type { Executor } from '../schema.js';
import { createTestDatabase, insertTestAccount, testEngines } from '../testing.js';
import { postLedgerTransaction, reconcileLedger } from './ledger.js';
import { createPayout, failPayout, markPayoutSending, markPayoutSent } from './payouts.js';
import { accountPayoutRows } from './revenue.js';

const at = (iso: string) => new Date(iso);

async function newAccount(db: Executor, name: string) {
  return insertTestAccount(db, name);
}

let seeded = 0;
function credit(db: Executor, accountId: bigint, coin: string, amount: bigint) {
  return postLedgerTransaction(db, {
    key: `seed:${++seeded}`,
    kind: 'admin_adjustment',
    legs: [
      { account: { accountId }, coin, amount, kind: 'admin_adjustment' },
      { account: { system: 'pool:adjustments' }, coin, amount: -amount, kind: 'admin_adjustment' },
    ],
  });
}

describe.each(testEngines())('revenue queries on %s', (engine) => {
  let database: Database;
  let alice: bigint;
  let bob: bigint;

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
    const db = database.db;
    alice = (await newAccount(db, 'alice')).id;
    bob = (await newAccount(db, 'bob')).id;
    await credit(db, alice, 'LTC', 10_000_000n);
    await credit(db, alice, 'BTC', 1_000n);
    await credit(db, bob, 'LTC', 10_000_000n);
  });
  afterAll(async () => {
    await database?.close();
  });

  describe('accountPayoutRows', () => {
    beforeAll(async () => {
      const db = database.db;
      // A sent LTC payout paying alice at two addresses and bob at one.
      const sent = await createPayout(db, {
        key: 'payout:LTC:1',
        coin: 'LTC',
        demo: false,
        createdAt: at('2025-06-10T08:00:00Z'),
        accounts: [
          {
            accountId: alice,
            amount: 4_000_000n,
            items: [
              { address: 'ltc1qalice2', amount: 1_000_000n },
              { address: 'ltc1qalice1', amount: 3_000_000n },
            ],
          },
          { accountId: bob, amount: 2_000_000n, items: [{ address: 'ltc1qbob', amount: 2_000_000n }] },
        ],
      });
      if (!sent) throw new Error('payout not created');
      await markPayoutSending(db, sent.payout.id, at('2025-06-10T08:00:01Z'));
      await markPayoutSent(db, sent.payout.id, { txid: 'ab'.repeat(32), fee: 100n, at: at('2025-06-10T08:00:02Z') });
      // A pending one (listed: the balance has left) and a failed one (not listed: it gave the coins back).
      await createPayout(db, {
        key: 'payout:LTC:2',
        coin: 'LTC',
        demo: false,
        createdAt: at('2025-06-14T23:30:00Z'),
        accounts: [{ accountId: alice, amount: 500_000n, items: [{ address: 'ltc1qalice1', amount: 500_000n }] }],
      });
      const failed = await createPayout(db, {
        key: 'payout:BTC:1',
        coin: 'BTC',
        demo: false,
        createdAt: at('2025-06-12T00:00:00Z'),
        accounts: [{ accountId: alice, amount: 300n, items: [{ address: 'bc1qalice', amount: 300n }] }],
      });
      if (!failed) throw new Error('payout not created');
      await failPayout(db, failed.payout.id, 'wallet refused', at('2025-06-12T00:00:05Z'));
    });

    it("lists one account's items, newest payout first, addresses in order, failed payouts left out", async () => {
      const rows = await accountPayoutRows(database.db, alice);
      expect(rows.map((r) => [r.coin, r.status, r.address, r.amount, r.txid, r.createdAt.toISOString()])).toEqual([
        ['LTC', 'pending', 'ltc1qalice1', 500_000n, null, '2025-06-14T23:30:00.000Z'],
        ['LTC', 'sent', 'ltc1qalice1', 3_000_000n, 'ab'.repeat(32), '2025-06-10T08:00:00.000Z'],
        ['LTC', 'sent', 'ltc1qalice2', 1_000_000n, 'ab'.repeat(32), '2025-06-10T08:00:00.000Z'],
      ]);
      expect((await accountPayoutRows(database.db, bob)).map((r) => [r.address, r.amount])).toEqual([
        ['ltc1qbob', 2_000_000n],
      ]);
      expect(await reconcileLedger(database.db)).toEqual([]);
    });

    it('bounds by creation time (end exclusive) and limits', async () => {
      const june10 = await accountPayoutRows(database.db, alice, {
        from: at('2025-06-10T08:00:00Z'),
        to: at('2025-06-14T23:30:00Z'),
      });
      expect(june10.map((r) => r.amount)).toEqual([3_000_000n, 1_000_000n]);
      expect((await accountPayoutRows(database.db, alice, { limit: 1 })).map((r) => r.amount)).toEqual([500_000n]);
    });

    it('lists oldest first on request, addresses still in order within a payout', async () => {
      const rows = await accountPayoutRows(database.db, alice, { oldestFirst: true });
      expect(rows.map((r) => [r.address, r.amount])).toEqual([
        ['ltc1qalice1', 3_000_000n],
        ['ltc1qalice2', 1_000_000n],
        ['ltc1qalice1', 500_000n],
      ]);
    });
  });
});
