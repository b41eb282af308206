import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../connection.js';
import { createTestDatabase, insertedRow, testEngines } from '../testing.js';
import { insertAccount } from './accounts.js';
import { dailyEarnings, lifetimeEarnings } from './earnings.js';
import {
  balancesOfAccount,
  balancesOfSystemAccount,
  lockBalance,
  postLedgerTransaction,
  reconcileLedger,
  UnbalancedTransactionError,
} from './ledger.js';
import { insertUser } from './users.js';

describe.each(testEngines())('the ledger on %s', (engine) => {
  let database: Database;
  let alice: bigint;
  let bob: bigint;
  let n = 0;
  const key = () => `test:${++n}`;

  beforeAll(async () => {
    database = await createTestDatabase({ engine });
    const user = insertedRow(await insertUser(database.db, { email: 'ledger@example.org', passwordHash: null }));
    const account = async (username: string) =>
      insertedRow(
        await insertAccount(database.db, {
          userId: user.id,
          username,
          apiKey: `a-${username}`,
          observerKey: `o-${username}`,
          referralCode: username.toUpperCase(),
        }),
      );
    alice = (await account('alice')).id;
    bob = (await account('bobby')).id;
  });
  afterAll(async () => {
    await database.close();
  });

  const credit = (accountId: bigint, amount: bigint, coin = 'LTC', at?: Date) => ({
    key: key(),
    kind: 'admin_adjustment' as const,
    legs: [
      { account: { accountId }, coin, amount, kind: 'admin_adjustment' as const },
      { account: { system: 'pool:adjustments' as const }, coin, amount: -amount, kind: 'admin_adjustment' as const },
    ],
    ...(at ? { at } : {}),
  });

  it('posts a balanced transaction once and keeps balances equal to the entries', async () => {
    const tx = credit(alice, 500n);
    expect((await database.db.transaction().execute((trx) => postLedgerTransaction(trx, tx))).posted).toBe(true);
    expect((await database.db.transaction().execute((trx) => postLedgerTransaction(trx, tx))).posted).toBe(false);
    expect(await balancesOfAccount(database.db, alice)).toEqual([{ coin: 'LTC', amount: 500n }]);
    expect(await balancesOfSystemAccount(database.db, 'pool:adjustments')).toEqual([{ coin: 'LTC', amount: -500n }]);
    expect(await reconcileLedger(database.db)).toEqual([]);
  });

  it('applies the same key posted concurrently once', async () => {
    const tx = credit(bob, 7n, 'BTC');
    const results = await Promise.all(
      [1, 2, 3].map(() => database.db.transaction().execute((trx) => postLedgerTransaction(trx, tx))),
    );
    expect(results.filter((r) => r.posted)).toHaveLength(1);
    expect(await balancesOfAccount(database.db, bob)).toEqual([{ coin: 'BTC', amount: 7n }]);
  });

  it('refuses an unbalanced transaction before writing anything', async () => {
    const tx = credit(alice, 5n);
    const legs = [
      ...tx.legs,
      { account: { accountId: bob }, coin: 'LTC', amount: 1n, kind: 'admin_adjustment' as const },
    ];
    await expect(
      database.db.transaction().execute((trx) => postLedgerTransaction(trx, { ...tx, legs })),
    ).rejects.toBeInstanceOf(UnbalancedTransactionError);
  });

  it('refuses, at commit, legs written around postLedgerTransaction that do not balance', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        const [t] = (
          await sql<{
            id: bigint;
          }>`insert into ledger_transactions (idempotency_key, kind) values ('raw', 'admin_adjustment') returning id`.execute(
            trx,
          )
        ).rows;
        const [la] = (
          await sql<{ id: bigint }>`select id from ledger_accounts where account_id = ${alice}`.execute(trx)
        ).rows;
        await sql`insert into ledger_entries (transaction_id, ledger_account_id, coin, amount, kind)
                  values (${t?.id}, ${la?.id}, 'LTC', 1, 'admin_adjustment')`.execute(trx);
      }),
    ).rejects.toThrow(/does not balance/);
  });

  it('never lets a mining account go below zero', async () => {
    const before = await lockBalance(database.db, alice, 'LTC');
    await expect(
      database.db.transaction().execute((trx) => postLedgerTransaction(trx, credit(alice, -(before + 1n)))),
    ).rejects.toThrow();
    expect(await lockBalance(database.db, alice, 'LTC')).toBe(before);
  });

  it('keeps entries append-only and finds a tampered balance', async () => {
    await expect(sql`update ledger_entries set amount = amount + 1`.execute(database.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from ledger_transactions`.execute(database.db)).rejects.toThrow(/append-only/);
    await database.db.transaction().execute(async (trx) => {
      await sql`update balances set amount = amount + 1 where coin = 'BTC'`.execute(trx);
      const problems = await reconcileLedger(trx);
      expect(problems.map((p) => p.kind)).toContain('balance-mismatch');
      await sql`update balances set amount = amount - 1 where coin = 'BTC'`.execute(trx);
    });
    expect(await reconcileLedger(database.db)).toEqual([]);
  });

  it('derives daily earnings in the miner’s time zone and lifetime earnings from the ledger', async () => {
    const pps = (amount: bigint, at: string) => ({
      key: key(),
      kind: 'pps_credit' as const,
      at: new Date(at),
      legs: [
        { account: { accountId: bob }, coin: 'DOGE', amount, kind: 'pps' as const, algorithm: 'scrypt' as const },
        { account: { system: 'pool:pps' as const }, coin: 'DOGE', amount: -amount, kind: 'pps_expense' as const },
      ],
    });
    for (const tx of [
      pps(10n, '2026-03-01T22:30:00Z'),
      pps(20n, '2026-03-01T23:30:00Z'),
      pps(40n, '2026-03-02T12:00:00Z'),
    ]) {
      await database.db.transaction().execute((trx) => postLedgerTransaction(trx, tx));
    }
    const range = { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-03T00:00:00Z') };
    expect(await dailyEarnings(database.db, bob, { ...range, timeZone: 'UTC' })).toEqual([
      { day: '2026-03-02', coin: 'DOGE', amount: 40n },
      { day: '2026-03-01', coin: 'DOGE', amount: 30n },
    ]);
    // In Madrid (UTC+1 in March) 23:30 UTC is already the 2nd.
    expect(await dailyEarnings(database.db, bob, { ...range, timeZone: 'Europe/Madrid', algorithm: 'scrypt' })).toEqual(
      [
        { day: '2026-03-02', coin: 'DOGE', amount: 60n },
        { day: '2026-03-01', coin: 'DOGE', amount: 10n },
      ],
    );
    expect(await dailyEarnings(database.db, bob, { ...range, timeZone: 'UTC', algorithm: 'sha256' })).toEqual([]);
    // Admin adjustments are not earnings.
    expect(await lifetimeEarnings(database.db, bob)).toEqual(new Map([['DOGE', 70n]]));
    expect(await reconcileLedger(database.db)).toEqual([]);
  });
});
