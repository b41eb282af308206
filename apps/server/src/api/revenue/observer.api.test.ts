import { balancesOfAccount } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post } from '../../../test/accounts.js';
import { type RevenueWorld, seedRevenueWorld } from '../../../test/revenueWorld.js';

/** Each observer call and the user call it mirrors, with the same parameters. */
const TWINS = [
  ['balance', {}],
  ['payouts', { timezone: 'Europe/Madrid' }],
  ['earnings', { algorithm: 'scrypt', timezone: 'Europe/Madrid' }],
  ['earnings', { algorithm: 'X11' }],
  ['lifetimeearnings', { algorithm: 'scrypt' }],
  ['chart', { algorithm: 'scrypt', timezone: 'Europe/Madrid' }],
] as const;

describe.each(testEngines())('observer revenue calls on %s', (engine) => {
  let w: RevenueWorld;
  beforeAll(async () => {
    w = await seedRevenueWorld(engine);
  });
  afterAll(async () => {
    await w?.t.close();
  });

  it.each(TWINS)('/observer/revenue/%s answers what the owner sees, without a login', async (name, query) => {
    const owner = await get(w.t.app, `/v1/user/revenue/${name}`, {
      cookie: w.alice.user.cookie,
      query: { account_name: w.alice.name, ...query },
    });
    const observer = await get(w.t.app, `/v1/observer/revenue/${name}`, {
      query: { observer_key: w.alice.observerKey, ...query },
    });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(observer.statusCode, observer.body).toBe(200);
    expect(observer.json()).toEqual(owner.json());
    expect(observer.headers['cache-control']).toBe('no-store');
  });

  it('reads the account of the key, whoever is logged in', async () => {
    const res = await get(w.t.app, '/v1/observer/revenue/balance', {
      cookie: w.alice.user.cookie,
      query: { observer_key: w.bob.observerKey },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([expect.objectContaining({ coin_ticker: 'LTC', coin_balance: '500000' })]);
  });

  it('refuses unknown and missing keys, and bad parameters', async () => {
    const unknown = await get(w.t.app, '/v1/observer/revenue/balance', { query: { observer_key: 'not-a-key' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Account not found', code: 'NOT_FOUND' });
    expect((await get(w.t.app, '/v1/observer/revenue/balance')).statusCode).toBe(400);
    // An account name is not an observer key.
    const byName = await get(w.t.app, '/v1/observer/revenue/balance', { query: { observer_key: w.alice.name } });
    expect(byName.statusCode).toBe(404);
    const badZone = await get(w.t.app, '/v1/observer/revenue/payouts', {
      query: { observer_key: w.alice.observerKey, timezone: 'Mars/Olympus' },
    });
    expect(badZone.statusCode).toBe(400);
    const badAlgorithm = await get(w.t.app, '/v1/observer/revenue/chart', {
      query: { observer_key: w.alice.observerKey, algorithm: 'nope' },
    });
    expect(badAlgorithm.statusCode).toBe(400);
  });

  it('cannot write: observer paths take no POST, and the key opens no user call', async () => {
    const before = await balancesOfAccount(w.t.database.db, w.alice.id);
    for (const name of ['balance', 'payouts', 'earnings', 'lifetimeearnings', 'chart']) {
      const res = await post(
        w.t.app,
        `/v1/observer/revenue/${name}`,
        {},
        { query: { observer_key: w.alice.observerKey } },
      );
      expect(res.statusCode, name).toBe(404);
    }
    // A write call with the observer key instead of a session: refused before anything is read.
    const convert = await post(
      w.t.app,
      '/v1/user/convert',
      { base_coin: 'LTC', target_coin: 'BTC' },
      { query: { account_name: w.alice.name, observer_key: w.alice.observerKey } },
    );
    expect(convert.statusCode).toBe(401);
    const payment = await post(
      w.t.app,
      '/v1/user/payment_config/update',
      { payment_settings: '{}' },
      { query: { account_name: w.alice.name, observer_key: w.alice.observerKey } },
    );
    expect(payment.statusCode).toBe(401);
    // The user calls need the session too; the key alone does not open them.
    const read = await get(w.t.app, '/v1/user/revenue/balance', {
      query: { account_name: w.alice.name, observer_key: w.alice.observerKey },
    });
    expect(read.statusCode).toBe(401);
    expect(await balancesOfAccount(w.t.database.db, w.alice.id)).toEqual(before);
  });

  it('offers no downloads to observers (not among the observer calls)', async () => {
    for (const path of ['earnings/download', 'earnings/csv', 'payouts/csv']) {
      const res = await get(w.t.app, `/v1/observer/revenue/${path}`, {
        query: { observer_key: w.alice.observerKey, date: '2025-06', algorithm: 'scrypt' },
      });
      expect(res.statusCode, path).toBe(404);
    }
  });
});
