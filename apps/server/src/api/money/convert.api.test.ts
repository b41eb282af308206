import { randomUUID } from 'node:crypto';
import { convertResponse } from '@lodestone/contract';
import {
  balancesOfAccount,
  balancesOfSystemAccount,
  postLedgerTransaction,
  reconcileLedger,
  savePrices,
  userLogOfAccount,
} from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { post, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

const HOUR = 3600_000;

describe.each(testEngines())('POST /v1/user/convert on %s', (engine) => {
  let t: TestApp;
  let clock = Date.now();
  beforeAll(async () => {
    t = await createTestApp({ PRICE_MAX_AGE_SECONDS: '1800' }, undefined, engine, { now: () => new Date(clock) });
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    // Whatever a test did, the ledger still adds up: balances = entries, nothing negative, all balanced.
    expect(await reconcileLedger(t.database.db)).toEqual([]);
  });

  /**
   * Prices recorded now (the app's clock, moved on a second so each snapshot is the newest); the
   * newest row of a ticker is its price.
   */
  const setPrices = (quotes: Record<string, string>, at?: number) => {
    if (at === undefined) clock += 1000;
    return savePrices(t.database.db, {
      source: 'test',
      takenAt: new Date(at ?? clock),
      quotes: Object.entries(quotes).map(([ticker, usd]) => ({ ticker, usd })),
    });
  };

  const accountIdOf = async (user: TestUser) =>
    (
      await t.database.db
        .selectFrom('accounts')
        .select('id')
        .where('username', '=', user.username)
        .executeTakeFirstOrThrow()
    ).id;

  /** Credits a balance the way an admin adjustment does (the other leg on pool:adjustments). */
  const credit = (accountId: bigint, coin: string, amount: bigint) =>
    t.database.db.transaction().execute((trx) =>
      postLedgerTransaction(trx, {
        key: `test-credit:${randomUUID()}`,
        kind: 'admin_adjustment',
        legs: [
          { account: { accountId }, coin, amount, kind: 'admin_adjustment' },
          { account: { system: 'pool:adjustments' }, coin, amount: -amount, kind: 'admin_adjustment' },
        ],
      }),
    );

  const balances = async (accountId: bigint) =>
    Object.fromEntries((await balancesOfAccount(t.database.db, accountId)).map((b) => [b.coin, b.amount]));
  const poolConversions = async () =>
    Object.fromEntries(
      (await balancesOfSystemAccount(t.database.db, 'pool:conversions')).map((b) => [b.coin, b.amount]),
    );

  const convert = (user: TestUser, fields: Record<string, string>) =>
    post(t.app, '/v1/user/convert', fields, { cookie: user.cookie, query: { account_name: user.username } });

  const newMiner = async () => {
    const user = await registerUser(t.app);
    return { user, id: await accountIdOf(user) };
  };

  it('converts the whole balance at current prices in one ledger transaction; the fraction stays with the pool', async () => {
    await setPrices({ BTC: '90000', LTC: '70' });
    const { user, id } = await newMiner();
    await credit(id, 'BTC', 1_000_001n);
    const poolBefore = await poolConversions();

    const res = await convert(user, { base_coin: 'btc', target_coin: 'LTC' });
    expect(res.statusCode, res.body).toBe(200);
    // 1_000_001 sat × 90000 / 70 = 1_285_715_571.43 litoshi: the account gets the whole units.
    const out = (1_000_001n * 90000n) / 70n;
    expect(out).toBe(1_285_715_571n);
    expect(convertResponse.parse(res.json())).toEqual({
      result: true,
      base_coin: 'BTC',
      base_amount: '0.01000001',
      target_coin: 'LTC',
      target_amount: '12.85715571',
    });
    expect(await balances(id)).toEqual({ BTC: 0n, LTC: out });
    const poolAfter = await poolConversions();
    expect((poolAfter.BTC ?? 0n) - (poolBefore.BTC ?? 0n)).toBe(1_000_001n);
    expect((poolAfter.LTC ?? 0n) - (poolBefore.LTC ?? 0n)).toBe(-out);

    const entries = await t.database.db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
      .innerJoin('ledger_accounts as a', 'a.id', 'e.ledger_account_id')
      .select([
        't.kind as tx_kind',
        't.idempotency_key',
        'a.account_id',
        'a.system_name',
        'e.coin',
        'e.amount',
        'e.kind',
      ])
      .where('t.kind', '=', 'conversion')
      .where('t.idempotency_key', 'like', `convert:${id}:%`)
      .orderBy('e.id')
      .execute();
    expect(entries).toHaveLength(4);
    expect(
      entries.map(({ account_id, system_name, coin, amount, kind }) => ({
        account_id,
        system_name,
        coin,
        amount,
        kind,
      })),
    ).toEqual(
      expect.arrayContaining([
        { account_id: id, system_name: null, coin: 'BTC', amount: '-1000001', kind: 'conversion_out' },
        { account_id: null, system_name: 'pool:conversions', coin: 'BTC', amount: '1000001', kind: 'conversion_in' },
        { account_id: id, system_name: null, coin: 'LTC', amount: out.toString(), kind: 'conversion_in' },
        {
          account_id: null,
          system_name: 'pool:conversions',
          coin: 'LTC',
          amount: (-out).toString(),
          kind: 'conversion_out',
        },
      ]),
    );
    expect(entries[0]?.idempotency_key).toMatch(/^convert:\d+:[0-9a-f-]{36}$/);

    const [entry] = await userLogOfAccount(t.database.db, id);
    expect(entry).toMatchObject({
      log_name: 'balance_converted',
      log_value: {
        base_coin: 'BTC',
        base_amount: '0.01000001',
        target_coin: 'LTC',
        target_amount: '12.85715571',
        base_usd: '90000',
        target_usd: '70',
      },
    });
  });

  it('converts between coins of different decimals exactly (BTC 8 → ETH 18)', async () => {
    await setPrices({ BTC: '90000', ETH: '3000' });
    const { user, id } = await newMiner();
    await credit(id, 'BTC', 12_345n);
    const res = await convert(user, { base_coin: 'BTC', target_coin: 'ETH' });
    expect(res.statusCode, res.body).toBe(200);
    // 12_345 sat = 0.00012345 BTC = 11.1105 USD = 0.0037035 ETH
    expect(await balances(id)).toEqual({ BTC: 0n, ETH: 3_703_500_000_000_000n });
  });

  it('refuses with a message and moves nothing: no target, same coin, unknown coin, nothing to convert', async () => {
    await setPrices({ BTC: '90000', LTC: '70' });
    const { user, id } = await newMiner();
    await credit(id, 'BTC', 5000n);
    const cases: [Record<string, string>, number, string, string][] = [
      [{ base_coin: 'BTC' }, 400, 'VALIDATION_FAILED', 'No target coin selected'],
      [{ base_coin: 'BTC', target_coin: '' }, 400, 'VALIDATION_FAILED', 'No target coin selected'],
      [{ target_coin: 'LTC' }, 400, 'VALIDATION_FAILED', 'No coin to convert selected'],
      [{ base_coin: 'BTC', target_coin: 'btc' }, 400, 'VALIDATION_FAILED', 'Choose a different coin to convert to'],
      [{ base_coin: 'BTC', target_coin: 'NOPE' }, 400, 'VALIDATION_FAILED', 'Unknown coin: NOPE'],
      [
        { base_coin: 'LTC', target_coin: 'BTC' },
        400,
        'NOTHING_TO_CONVERT',
        'Nothing to convert: your LTC balance is 0',
      ],
    ];
    for (const [fields, status, code, error] of cases) {
      const res = await convert(user, fields);
      expect(res.statusCode, error).toBe(status);
      expect(res.json(), error).toEqual({ error, code });
    }
    expect(await balances(id)).toEqual({ BTC: 5000n });
  });

  it('refuses a balance worth less than one unit of the target rather than taking it', async () => {
    await setPrices({ DOGE: '0.16', BTC: '90000' });
    const { user, id } = await newMiner();
    await credit(id, 'DOGE', 1n);
    const res = await convert(user, { base_coin: 'DOGE', target_coin: 'BTC' });
    expect(res.json()).toEqual({
      error: 'Your DOGE balance is too small to convert into BTC',
      code: 'AMOUNT_TOO_SMALL',
    });
    expect(await balances(id)).toEqual({ DOGE: 1n });
  });

  it('refuses at a stale or missing price and leaves every balance untouched', async () => {
    const { user, id } = await newMiner();
    await credit(id, 'DASH', 700_000n);
    await setPrices({ BTC: '90000' });
    // DASH's newest price is two hours old: stale at PRICE_MAX_AGE_SECONDS = 1800.
    await setPrices({ DASH: '45' }, clock - 2 * HOUR);
    const poolBefore = await poolConversions();
    const stale = await convert(user, { base_coin: 'DASH', target_coin: 'BTC' });
    expect(stale.statusCode).toBe(503);
    expect(stale.json()).toEqual({
      error: 'Prices are unavailable right now, so nothing was converted. Try again later.',
      code: 'PRICES_UNAVAILABLE',
    });
    // BELLS has no price at all.
    await setPrices({ DASH: '45' });
    const missing = await convert(user, { base_coin: 'DASH', target_coin: 'BELLS' });
    expect(missing.json().code).toBe('PRICES_UNAVAILABLE');
    // The clock moves on and the fresh price of a moment ago is stale too.
    clock += 2 * HOUR;
    try {
      expect((await convert(user, { base_coin: 'DASH', target_coin: 'BTC' })).json().code).toBe('PRICES_UNAVAILABLE');
    } finally {
      clock -= 2 * HOUR;
    }
    expect(await balances(id)).toEqual({ DASH: 700_000n });
    expect(await poolConversions()).toEqual(poolBefore);
    const logged = (await userLogOfAccount(t.database.db, id)).filter((e) => e.log_name === 'balance_converted');
    expect(logged).toEqual([]);
  });

  it('converts a balance once when two conversions of it race: no double credit, nothing negative', async () => {
    await setPrices({ BTC: '90000', LTC: '90', KAS: '0.05' });
    const { user, id } = await newMiner();
    await credit(id, 'BTC', 2_000_000n);
    const [a, b] = await Promise.all([
      convert(user, { base_coin: 'BTC', target_coin: 'LTC' }),
      convert(user, { base_coin: 'BTC', target_coin: 'KAS' }),
    ]);
    const answers = [a, b].map((r) => r.statusCode).sort();
    expect(answers, `${a.body} ${b.body}`).toEqual([200, 400]);
    const won = a.statusCode === 200 ? a : b;
    const lost = a.statusCode === 200 ? b : a;
    expect(lost.json().code).toBe('NOTHING_TO_CONVERT');
    const target = won.json().target_coin as string;
    // 0.02 BTC = 1800 USD = 20 LTC or 36000 KAS
    const expected = target === 'LTC' ? 2_000_000_000n : 3_600_000_000_000n;
    expect(await balances(id)).toEqual({ BTC: 0n, [target]: expected });
    const conversions = await t.database.db
      .selectFrom('ledger_transactions')
      .select('id')
      .where('idempotency_key', 'like', `convert:${id}:%`)
      .execute();
    expect(conversions).toHaveLength(1);
  });

  it('lets two opposite conversions of one account run together without deadlock', async () => {
    await setPrices({ BTC: '90000', LTC: '90' });
    const { user, id } = await newMiner();
    await credit(id, 'BTC', 1_000_000n);
    await credit(id, 'LTC', 1_000_000_000n);
    const results = await Promise.all([
      convert(user, { base_coin: 'BTC', target_coin: 'LTC' }),
      convert(user, { base_coin: 'LTC', target_coin: 'BTC' }),
    ]);
    for (const r of results) expect([200, 400], r.body).toContain(r.statusCode);
    // Whatever the order, value is conserved at these prices: 0.01 BTC + 10 LTC = 1800 USD.
    const after = await balances(id);
    const usd = (after.BTC ?? 0n) * 90000n * 100n + (after.LTC ?? 0n) * 90n * 100n;
    expect(usd).toBe(1_000_000n * 90000n * 100n + 1_000_000_000n * 90n * 100n);
  });
});
