import { balancesOfAccount, balancesOfSystemAccount, reconcileLedger, userLogOfUser } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextAddress, post, registerUser, type TestUser } from '../../../test/accounts.js';
import { accountIdOf, adminPost, registerAdmin, type TestAdmin, userIdOf } from '../../../test/admins.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe.each(testEngines())('POST /v1/admin/balance on %s', (engine) => {
  let t: TestApp;
  let admin: TestAdmin;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, engine);
    admin = await registerAdmin(t);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    // Whatever a test did, the ledger adds up: balances = entries, nothing negative, all balanced.
    expect(await reconcileLedger(t.database.db)).toEqual([]);
  });

  const submit = (fields: Record<string, string>) => adminPost(t, 'balance', fields, admin.cookie);
  const balances = async (accountId: bigint) =>
    Object.fromEntries((await balancesOfAccount(t.database.db, accountId)).map((b) => [b.coin, b.amount]));
  const adjustments = async () =>
    Object.fromEntries(
      (await balancesOfSystemAccount(t.database.db, 'pool:adjustments')).map((b) => [b.coin, b.amount]),
    );
  const newMiner = async (): Promise<TestUser & { accountId: bigint }> => {
    const user = await registerUser(t.app);
    return { ...user, accountId: await accountIdOf(t, user.username) };
  };
  const expectRefused = async (fields: Record<string, string>, status: number, error: string) => {
    const res = await submit(fields);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error).toBe(error);
  };

  it('credits the account in one admin_adjustment ledger transaction; the miner sees it', async () => {
    const miner = await newMiner();
    const poolBefore = await adjustments();
    const res = await submit({
      username: miner.username.toUpperCase(),
      algorithm: '1',
      ticker: 'ltc',
      value: '1.23456789',
      reason: 'Missed shares during the outage of 3 May',
    });
    expect(res.statusCode, res.body).toBe(200);
    // Spec 7: "balance true on success".
    expect(res.body).toBe('true');

    expect(await balances(miner.accountId)).toEqual({ LTC: 123_456_789n });
    expect((await adjustments()).LTC ?? 0n).toBe((poolBefore.LTC ?? 0n) - 123_456_789n);

    const tx = await t.database.db
      .selectFrom('ledger_transactions')
      .selectAll()
      .where('kind', '=', 'admin_adjustment')
      .where('created_by_user_id', '=', admin.userId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(tx.idempotency_key).toMatch(/^admin:[0-9a-f-]{36}$/);
    expect(tx.reason).toBe('Missed shares during the outage of 3 May');
    const legs = await t.database.db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_accounts as a', 'a.id', 'e.ledger_account_id')
      .select(['a.account_id', 'a.system_name', 'e.coin', 'e.amount', 'e.kind', 'e.algorithm'])
      .where('e.transaction_id', '=', tx.id)
      .orderBy('e.id')
      .execute();
    expect(legs).toEqual(
      expect.arrayContaining([
        {
          account_id: miner.accountId,
          system_name: null,
          coin: 'LTC',
          amount: '123456789',
          kind: 'admin_adjustment',
          algorithm: 'sha256',
        },
        {
          account_id: null,
          system_name: 'pool:adjustments',
          coin: 'LTC',
          amount: '-123456789',
          kind: 'admin_adjustment',
          algorithm: null,
        },
      ]),
    );
    expect(legs).toHaveLength(2);

    // Both logs: the admin's, and the account's (in its user's log).
    const [adminEntry] = await userLogOfUser(t.database.db, admin.userId, 1);
    expect(adminEntry).toMatchObject({
      log_name: 'admin_balance_adjusted',
      account_id: null,
      log_value: {
        username: miner.username,
        ticker: 'LTC',
        algorithm: 'SHA256',
        value: '1.23456789',
        units: '123456789',
        reason: 'Missed shares during the outage of 3 May',
        transaction: tx.idempotency_key,
      },
    });
    const [minerEntry] = await userLogOfUser(t.database.db, await userIdOf(t, miner.email), 1);
    expect(minerEntry).toMatchObject({
      log_name: 'balance_adjusted',
      account_id: miner.accountId,
      log_value: { ticker: 'LTC', value: '1.23456789', admin_email: admin.email, transaction: tx.idempotency_key },
    });
  });

  it('debits down to exactly zero, and refuses a debit below zero without writing anything', async () => {
    const miner = await newMiner();
    expect(
      (await submit({ username: miner.username, algorithm: '0', ticker: 'BTC', value: '0.0001' })).statusCode,
    ).toBe(200);
    const transactions = async () =>
      (await t.database.db.selectFrom('ledger_transactions').select('id').execute()).length;
    const before = await transactions();
    await expectRefused(
      { username: miner.username, algorithm: '0', ticker: 'BTC', value: '-0.00010001' },
      400,
      `Refused: ${miner.username} has 0.0001 BTC, so this debit would take the balance below zero.`,
    );
    // A coin the account never held has a balance of zero.
    await expectRefused(
      { username: miner.username, algorithm: '0', ticker: 'DOGE', value: '-1' },
      400,
      `Refused: ${miner.username} has 0 DOGE, so this debit would take the balance below zero.`,
    );
    expect(await transactions()).toBe(before);
    expect(await balances(miner.accountId)).toEqual({ BTC: 10_000n });

    const debit = await submit({ username: miner.username, algorithm: '0', ticker: 'BTC', value: '-0.0001' });
    expect(debit.statusCode, debit.body).toBe(200);
    expect(await balances(miner.accountId)).toEqual({ BTC: 0n });
    const [entry] = await userLogOfUser(t.database.db, admin.userId, 1);
    expect(entry).toMatchObject({
      log_value: { value: '-0.0001', units: '-10000', reason: 'Admin balance adjustment' },
    });
  });

  it('two concurrent debits cannot both spend the same coins', async () => {
    const miner = await newMiner();
    await submit({ username: miner.username, algorithm: '0', ticker: 'LTC', value: '1' });
    const results = await Promise.all(
      [1, 2].map(() =>
        adminPost(
          t,
          'balance',
          { username: miner.username, algorithm: '0', ticker: 'LTC', value: '-0.6' },
          admin.cookie,
          {
            remoteAddress: nextAddress(),
          },
        ),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await balances(miner.accountId)).toEqual({ LTC: 40_000_000n });
  });

  it('refuses more decimals than 8 or than the coin has, zero, and what is not a number', async () => {
    const miner = await newMiner();
    const base = { username: miner.username, algorithm: '0', ticker: 'LTC' };
    await expectRefused({ ...base, value: '0.000000001' }, 400, 'Value has at most 8 decimals');
    // USDC has 6 decimals: a seventh would be a fraction of its smallest unit.
    await expectRefused({ ...base, ticker: 'USDC', value: '0.0000001' }, 400, 'USDC has only 6 decimals');
    await expectRefused({ ...base, value: '0' }, 400, 'Value must not be zero');
    await expectRefused({ ...base, value: '-0.00000000' }, 400, 'Value must not be zero');
    await expectRefused({ ...base, value: 'ten' }, 400, 'Value must be a number, for example 0.00012345 or -0.5');
    await expectRefused({ ...base, value: '1e40' }, 400, 'Value is at most 1,000,000 coins either way');
    // A JSON 1e21 is read as its text, 1e+21.
    await expectRefused({ ...base, value: '1e+21' }, 400, 'Value is at most 1,000,000 coins either way');
    expect(await balances(miner.accountId)).toEqual({});
    // Trailing zeros are not extra precision: 0.100000000 is 0.1.
    expect((await submit({ ...base, ticker: 'USDC', value: '0.10000000' })).statusCode).toBe(200);
    expect(await balances(miner.accountId)).toEqual({ USDC: 100_000n });
  });

  it('refuses unknown accounts, coins and algorithms, and empty fields', async () => {
    const miner = await newMiner();
    await expectRefused(
      { username: 'no-such-miner', algorithm: '0', ticker: 'LTC', value: '1' },
      404,
      'Account not found',
    );
    await expectRefused({ username: miner.username, algorithm: '0', ticker: 'XYZ', value: '1' }, 400, 'Unknown coin');
    await expectRefused(
      { username: miner.username, algorithm: '6', ticker: 'LTC', value: '1' },
      400,
      'Unknown algorithm',
    );
    await expectRefused(
      { username: miner.username, algorithm: '0', ticker: 'LTC', value: '' },
      400,
      'Value is required',
    );
    await expectRefused({ username: '', algorithm: '0', ticker: 'LTC', value: '1' }, 400, 'Username is required');
    await expectRefused({ username: miner.username, ticker: 'LTC', value: '1' }, 400, 'Algorithm is required');
    // A removed account takes no adjustments.
    const other = await registerUser(t.app);
    const second = await post(
      t.app,
      '/v1/user/new_account',
      { username: `${other.username.slice(0, 20)}b` },
      { cookie: other.cookie },
    );
    expect(second.statusCode, second.body).toBe(200);
    const removed = await post(
      t.app,
      '/v1/user/remove_account',
      { account_name: other.username },
      { cookie: other.cookie },
    );
    expect(removed.statusCode, removed.body).toBe(200);
    await expectRefused(
      { username: other.username, algorithm: '0', ticker: 'LTC', value: '1' },
      404,
      'Account not found',
    );
  });

  it('takes JSON with a numeric value and the algorithm by name or key', async () => {
    const miner = await newMiner();
    for (const [algorithm, value] of [
      ['SCRYPT', 0.5],
      ['x11', 0.25],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/admin/balance',
        payload: { username: miner.username, algorithm, ticker: 'DOGE', value },
        headers: { origin: 'http://localhost:8080' },
        cookies: { lodestone_session: admin.cookie },
        remoteAddress: nextAddress(),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toBe(true);
    }
    expect(await balances(miner.accountId)).toEqual({ DOGE: 75_000_000n });
    const algorithms = await t.database.db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_accounts as a', 'a.id', 'e.ledger_account_id')
      .select('e.algorithm')
      .where('a.account_id', '=', miner.accountId)
      .orderBy('e.id')
      .execute();
    expect(algorithms.map((r) => r.algorithm)).toEqual(['scrypt', 'x11']);
  });
});
