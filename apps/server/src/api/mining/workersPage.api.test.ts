import {
  miningWorker,
  miningWorkerResponse,
  miningWorkersMatchingResponse,
  miningWorkersPageResponse,
} from '@lodestone/contract';
import { testEngines } from '@lodestone/db/testing';
import { type WorkerShareCounts, type WorkersPageAsk, workersPageOf } from '@lodestone/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { applyShareBatch } from '../../jobs/accounting.js';
import { shareBatch, shareCounts } from '../../jobs/testing.js';

/** Now is 12:05:30 UTC; the statistics window is the last 10 minutes. */
const NOW = Date.parse('2024-05-06T12:05:30Z');

describe.each(testEngines())('workers page API on %s', (engine) => {
  let t: TestApp;
  let user: TestUser;
  let observerKey: string;
  beforeAll(async () => {
    t = await createTestApp({ STATS_WINDOW_MINUTES: '10' }, undefined, engine, { now: () => new Date(NOW) });
    user = await registerUser(t.app);
    const other = await registerUser(t.app);
    const me = user.username;
    // rack1-1 … rack1-12 mine now (rack1-3 twice as hard); rack2-1 … rack2-9 stopped at 09:00 (offline: 800 shares
    // then, one every few seconds, and none for three hours);
    // `spare` and `lab7` (labelled "Basement") mine now without a prefix group. Another account's rig must
    // never show.
    const now: WorkerShareCounts[] = [
      ...Array.from({ length: 12 }, (_, i) =>
        shareCounts(me, `rack1-${i + 1}`, { acceptedDifficulty: i === 2 ? 2000 : 1000 + i, valid: 10 + i }),
      ),
      shareCounts(me, 'spare', { acceptedDifficulty: 500, valid: 5, invalid: 5 }),
      shareCounts(me, 'lab7', { acceptedDifficulty: 700, valid: 7 }),
      shareCounts(other.username, 'rack1-1', { acceptedDifficulty: 9000, valid: 90 }),
    ];
    const earlier = Array.from({ length: 9 }, (_, i) =>
      shareCounts(me, `rack2-${i + 1}`, { acceptedDifficulty: 8000, valid: 800 }),
    );
    await applyShareBatch(t.database.db, shareBatch('2024-05-06T09:00:05Z', earlier));
    await applyShareBatch(t.database.db, shareBatch('2024-05-06T12:04:00Z', now));
    await t.database.db.updateTable('workers').set({ label: 'Basement' }).where('name', '=', 'lab7').execute();
    const account = await t.database.db
      .selectFrom('accounts')
      .select('observer_key')
      .where('username', '=', me)
      .executeTakeFirstOrThrow();
    observerKey = account.observer_key ?? '';
  });
  afterAll(async () => {
    await t?.close();
  });

  /** One of the owner's reads of the table, answered 200 and never stored. */
  const ownerRead = async (path: string, query: Record<string, string>) => {
    const res = await get(t.app, path, {
      cookie: user.cookie,
      query: { account_name: user.username, algorithm: 'scrypt', ...query },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json();
  };
  const page = async (query: Record<string, string> = {}) =>
    miningWorkersPageResponse.strict().parse(await ownerRead('/v1/user/mining/workers/page', query));
  const wholeList = async () => {
    const res = await get(t.app, '/v1/user/mining/workers', {
      cookie: user.cookie,
      query: { account_name: user.username, algorithm: 'scrypt' },
    });
    return z.array(miningWorker).parse(res.json());
  };
  const names = (rows: readonly { name: string }[]) => rows.map((w) => w.name);

  it('answers the first ten workers by name, naturally, with the counts the filters show', async () => {
    const first = await page();
    expect(names(first.workers)).toEqual([
      'lab7',
      'rack1-1',
      'rack1-2',
      'rack1-3',
      'rack1-4',
      'rack1-5',
      'rack1-6',
      'rack1-7',
      'rack1-8',
      'rack1-9',
    ]);
    expect(first).toMatchObject({ page: 1, pages: 3, matching: 23, total: 23, read_at: '2024-05-06T12:05:30.000Z' });
    expect(first.states).toEqual({ all: 23, online: 14, low: 0, offline: 9 });
    expect(first.groups).toEqual([
      { value: 'all', label: 'All groups', count: 23 },
      { value: 'group:Basement', label: 'Basement', count: 1 },
      { value: 'group:rack1-', label: 'rack1-', count: 12 },
      { value: 'group:rack2-', label: 'rack2-', count: 9 },
      { value: 'ungrouped', label: 'Ungrouped', count: 1 },
    ]);
    // A page past the last is the last.
    const last = await page({ page: '7' });
    expect(last.page).toBe(3);
    expect(names(last.workers)).toEqual(['rack2-8', 'rack2-9', 'spare']);
  });

  it('filters, searches and sorts as the table does: by hand, and equal to the whole list paged in the browser', async () => {
    const offline = await page({ state: 'offline', group: 'group:rack2-' });
    expect(offline).toMatchObject({ matching: 9, pages: 1, states: { all: 9, online: 0, low: 0, offline: 9 } });
    // rack1-3 mines twice as hard as the others; the search "rack1-1" finds rack1-1, -10, -11 and -12.
    const fastest = await page({ sort: 'hashrate', direction: 'desc', group: 'group:rack1-' });
    expect(fastest.workers[0]?.name).toBe('rack1-3');
    expect(names((await page({ search: 'RACK1-1' })).workers)).toEqual(['rack1-1', 'rack1-10', 'rack1-11', 'rack1-12']);
    // 5 invalid of 10 shares: the Rejected column reads 50.00%, and the search finds it as shown.
    expect(names((await page({ search: '50.00%' })).workers)).toEqual(['spare']);

    const all = await wholeList();
    const asked: WorkersPageAsk[] = [
      { state: 'all', group: 'all', search: '', sort: null, page: 2 },
      { state: 'online', group: 'all', search: '', sort: { column: 'accepted', direction: 'desc' }, page: 1 },
      { state: 'all', group: 'ungrouped', search: '', sort: null, page: 1 },
      {
        state: 'all',
        group: 'group:rack1-',
        search: 'h/s',
        sort: { column: 'hashrate_avg', direction: 'asc' },
        page: 2,
      },
      { state: 'offline', group: 'all', search: 'nothing like it', sort: null, page: 1 },
    ];
    for (const ask of asked) {
      const answer = await page({
        state: ask.state,
        group: ask.group,
        search: ask.search,
        page: String(ask.page),
        ...(ask.sort && { sort: ask.sort.column, direction: ask.sort.direction }),
      });
      expect(answer, JSON.stringify(ask)).toEqual(workersPageOf(all, ask, answer.read_at));
    }
  });

  it('names every worker the filters and search keep for "select all matching", to the owner only', async () => {
    const matching = async (query: Record<string, string>) =>
      miningWorkersMatchingResponse.strict().parse(await ownerRead('/v1/user/mining/workers/matching', query));
    // By hand: the offline rack2- machines, all nine, by name; the search as the page finds it.
    const offline = await matching({ state: 'offline', group: 'group:rack2-' });
    expect(names(offline.workers)).toEqual(Array.from({ length: 9 }, (_, i) => `rack2-${i + 1}`));
    expect(offline.read_at).toBe('2024-05-06T12:05:30.000Z');
    const labelled = await matching({ group: 'group:Basement' });
    expect(labelled.workers).toEqual([{ id: expect.any(String), name: 'lab7', label: 'Basement' }]);
    // The same workers the page counts as matching, in the page's first order, for any filter.
    const filters: Record<string, string>[] = [
      {},
      { search: 'RACK1-1' },
      { state: 'online', group: 'ungrouped' },
      { search: 'nothing' },
    ];
    for (const filter of filters) {
      const answer = await matching(filter);
      const pages = await page(filter);
      expect(answer.workers.length, JSON.stringify(filter)).toBe(pages.matching);
      expect(answer.workers.slice(0, 10).map((w) => w.id)).toEqual(pages.workers.map((w) => w.id));
    }
    // Only the owner acts on workers: no watcher twin, nothing to a visitor, 400 for a filter the table has not.
    const asVisitor = await get(t.app, '/v1/user/mining/workers/matching', {
      query: { account_name: user.username, algorithm: 'scrypt' },
    });
    expect(asVisitor.statusCode).toBe(401);
    const asWatcher = await get(t.app, '/v1/observer/mining/workers/matching', {
      query: { observer_key: observerKey, algorithm: 'scrypt' },
    });
    expect(asWatcher.statusCode).toBe(404);
    const refused = await get(t.app, '/v1/user/mining/workers/matching', {
      cookie: user.cookie,
      query: { account_name: user.username, algorithm: 'scrypt', state: 'sleepy' },
    });
    expect(refused.statusCode).toBe(400);
  });

  it('answers the same page to the account’s watchers, and refuses what is not a choice of the table', async () => {
    const res = await get(t.app, '/v1/observer/mining/workers/page', {
      query: { observer_key: observerKey, algorithm: 'scrypt', group: 'group:rack1-', page: '2' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(names(miningWorkersPageResponse.parse(res.json()).workers)).toEqual(['rack1-11', 'rack1-12']);
    expect(
      (await get(t.app, '/v1/observer/mining/workers/page', { query: { observer_key: 'nope', algorithm: 'scrypt' } }))
        .statusCode,
    ).toBe(404);
    const refusals: Record<string, string>[] = [
      { sort: 'name; drop' },
      { state: 'sick' },
      { page: '0' },
      { direction: 'up' },
      { search: 'x'.repeat(101) },
    ];
    for (const bad of refusals) {
      const refused = await get(t.app, '/v1/user/mining/workers/page', {
        cookie: user.cookie,
        query: { account_name: user.username, algorithm: 'scrypt', ...bad },
      });
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('answers one worker’s row as the whole list has it, to its owner and its watchers; any other id is 404', async () => {
    const all = await wholeList();
    const rig = all.find((w) => w.name === 'rack1-3');
    if (!rig) throw new Error('no rack1-3');
    const one = (query: Record<string, string>, path = '/v1/user/mining/workers/one') =>
      get(t.app, path, { cookie: user.cookie, query: { account_name: user.username, algorithm: 'scrypt', ...query } });
    const res = await one({ worker_id: rig.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(miningWorkerResponse.strict().parse(res.json())).toEqual({
      worker: rig,
      read_at: '2024-05-06T12:05:30.000Z',
    });
    const watched = await get(t.app, '/v1/observer/mining/workers/one', {
      query: { observer_key: observerKey, algorithm: 'scrypt', worker_id: rig.id },
    });
    expect(miningWorkerResponse.parse(watched.json()).worker).toEqual(rig);
    const others = await t.database.db
      .selectFrom('workers')
      .select('id')
      .where('account', '!=', user.username)
      .executeTakeFirstOrThrow();
    for (const [query, status] of [
      [{ worker_id: others.id.toString() }, 404],
      [{ worker_id: rig.id, algorithm: 'sha256' }, 404],
      [{ worker_id: '0' }, 400],
      [{ worker_id: 'x' }, 400],
    ] as const) {
      expect((await one(query)).statusCode, JSON.stringify(query)).toBe(status);
    }
  });
});
