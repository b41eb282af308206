import { chartResponse, miningSummaryResponse, miningWorkersResponse } from '@lodestone/contract';
import { testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { applyShareBatch } from '../../jobs/accounting.js';
import { shareBatch, shareCounts } from '../../jobs/testing.js';

const NOW = Date.parse('2024-05-06T12:05:30Z');

describe.each(testEngines())('observer mining API on %s', (engine) => {
  let t: TestApp;
  let user: TestUser;
  let observerKey: string;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, engine, { now: () => new Date(NOW) });
    user = await registerUser(t.app);
    const account = await t.database.db
      .selectFrom('accounts')
      .select('observer_key')
      .where('username', '=', user.username)
      .executeTakeFirstOrThrow();
    observerKey = account.observer_key ?? '';
    const me = user.username;
    await applyShareBatch(
      t.database.db,
      shareBatch('2024-05-06T12:01:00Z', [
        shareCounts(me, 'rig1', { acceptedDifficulty: 3000, valid: 30, stale: 1 }),
        shareCounts(me, 'rig2', { acceptedDifficulty: 500, valid: 5, invalid: 1 }),
      ]),
    );
    await applyShareBatch(
      t.database.db,
      shareBatch('2024-05-06T08:00:00Z', [shareCounts(me, 'old', { acceptedDifficulty: 10, valid: 1 })]),
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The same call as the user (session, account_name) and as an observer (key only, no cookie). */
  async function both(path: string, extra: Record<string, string> = {}) {
    const mine = await get(t.app, `/v1/user${path}`, {
      cookie: user.cookie,
      query: { account_name: user.username, algorithm: 'scrypt', ...extra },
    });
    const observed = await get(t.app, `/v1/observer${path}`, {
      query: { observer_key: observerKey, algorithm: 'scrypt', ...extra },
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(observed.statusCode, observed.body).toBe(200);
    expect(observed.headers['cache-control']).toBe('no-store');
    return { mine: mine.json(), observed: observed.json() };
  }

  it('reads the same summary, chart and workers with the observer key, logged out', async () => {
    const s = await both('/mining');
    expect(miningSummaryResponse.parse(s.observed)).toEqual(s.mine);
    expect(s.observed).toMatchObject({ active_workers: 2, total_workers: 3 });
    const c = await both('/mining/chart', { timezone: 'Europe/Madrid' });
    expect(chartResponse.parse(c.observed)).toEqual(c.mine);
    expect(c.observed.x_axis.at(-1)).toBe('14:00');
    const w = await both('/mining/workers');
    expect(miningWorkersResponse.parse(w.observed)).toEqual(w.mine);
    expect(w.observed.map((x: { name: string }) => x.name)).toEqual(['old', 'rig1', 'rig2']);
  });

  it('refuses unknown keys, bad parameters, and every write', async () => {
    for (const path of ['/v1/observer/mining', '/v1/observer/mining/chart', '/v1/observer/mining/workers']) {
      const unknown = await get(t.app, path, { query: { observer_key: 'not-a-key', algorithm: 'scrypt' } });
      expect(unknown.statusCode, path).toBe(404);
      expect((await get(t.app, path, { query: { algorithm: 'scrypt' } })).statusCode, path).toBe(400);
      expect((await get(t.app, path, { query: { observer_key: observerKey, algorithm: 'md5' } })).statusCode).toBe(400);
      // A write with the key is refused by the key's read-only rule.
      const write = await post(t.app, path, {}, { query: { observer_key: observerKey, algorithm: 'scrypt' } });
      expect(write.statusCode, path).toBe(403);
      expect(write.json()).toEqual({ error: 'This key gives read-only access', code: 'FORBIDDEN' });
    }
    const zone = await get(t.app, '/v1/observer/mining/chart', {
      query: { observer_key: observerKey, algorithm: 'scrypt', timezone: 'Nowhere/Else' },
    });
    expect(zone.statusCode).toBe(400);

    const [worker] = await t.database.db.selectFrom('workers').select('id').where('name', '=', 'rig1').execute();
    const id = worker?.id.toString() ?? '';
    const keyOnly = { observer_key: observerKey, algorithm: 'scrypt' };
    // Observers have no removal calls at all …
    for (const path of [`/v1/observer/mining/workers/remove/${id}`, '/v1/observer/mining/workers/removeall']) {
      expect((await get(t.app, path, { query: keyOnly })).statusCode, path).toBe(404);
      expect((await post(t.app, path, {}, { query: keyOnly })).statusCode, path).toBe(404);
    }
    // … and the user's removal calls want the session, not a key.
    const withKey = { ...keyOnly, account_name: user.username };
    for (const path of [`/v1/user/mining/workers/remove/${id}`, '/v1/user/mining/workers/removeall']) {
      expect((await get(t.app, path, { query: withKey })).statusCode, path).toBe(401);
      expect((await post(t.app, path, {}, { query: withKey })).statusCode, path).toBe(401);
    }
    expect(await t.database.db.selectFrom('workers').select('name').orderBy('name').execute()).toEqual([
      { name: 'old' },
      { name: 'rig1' },
      { name: 'rig2' },
    ]);
  });
});
