import {
  chartResponse,
  miningRemoveResponse,
  miningSummaryResponse,
  miningWorker,
  workerRejectsResponse,
} from '@lodestone/contract';
import { savePoolStats, savePrices, userLogOfAccount } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import type { WorkerShareCounts } from '@lodestone/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get, post, registerUser, SESSION, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { applyShareBatch } from '../../jobs/accounting.js';
import { shareBatch, shareCounts } from '../../jobs/testing.js';
import { runWorkerRollup } from '../../jobs/workerRollup.js';

/**
 * Now is 12:05:30 UTC. With STATS_WINDOW_MINUTES=10 the window is 11:55:00 – 12:05:30 (630 s); the
 * 24-hour period is 2024-05-05 12:00 – now (86,730 s). SCRYPT: 65,536 hashes per difficulty 1.
 */
const NOW = Date.parse('2024-05-06T12:05:30Z');

describe.each(testEngines())('mining API on %s', (engine) => {
  let t: TestApp;
  let clock = NOW;
  beforeAll(async () => {
    t = await createTestApp({ STATS_WINDOW_MINUTES: '10', FEE_PERCENT: '1' }, undefined, engine, {
      now: () => new Date(clock),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const apply = (end: string, workers: WorkerShareCounts[], algorithm: 'scrypt' | 'sha256' = 'scrypt') =>
    applyShareBatch(t.database.db, shareBatch(end, workers, { algorithm }));

  /**
   * rig1 and rig2 mine in the window, rig3 earlier today, rig4 only before the 24 hours; bob and the
   * account's SHA256 rig must not show up.
   */
  async function seed(user: TestUser, bob: TestUser) {
    const me = user.username;
    await apply('2024-05-06T12:01:00Z', [shareCounts(me, 'rig1', { acceptedDifficulty: 3000, valid: 30 })]); // minute 12:00
    await apply('2024-05-06T12:05:10Z', [
      shareCounts(me, 'rig1', {
        acceptedDifficulty: 1000,
        valid: 10,
        invalid: 2,
        rejectReasons: { duplicate: 1, 'low-difficulty': 1 },
      }),
    ]); // 12:05
    await apply('2024-05-06T11:58:00Z', [
      shareCounts(me, 'rig2', { acceptedDifficulty: 2000, valid: 20, stale: 1, rejectReasons: { stale: 1 } }),
    ]); // 11:57
    await apply('2024-05-06T09:00:05Z', [shareCounts(me, 'rig3', { acceptedDifficulty: 6000, valid: 60 })]); // 09:00
    await apply('2024-05-05T11:30:00Z', [shareCounts(me, 'rig4', { acceptedDifficulty: 9999, valid: 99 })]); // yesterday
    await apply('2024-05-06T12:02:00Z', [shareCounts(bob.username, 'rig1', { acceptedDifficulty: 5000, valid: 50 })]);
    await apply('2024-05-06T12:02:00Z', [shareCounts(me, 'asic', { acceptedDifficulty: 77, valid: 7 })], 'sha256');
  }

  async function rates() {
    // The PPS rate of docs/money.md's example (BTC per H/s per day) and a BTC price.
    await savePoolStats(t.database.db, {
      algorithm: 'scrypt',
      taken_at: new Date(NOW - 20_000),
      hashrate: '0',
      miners: 0,
      workers: 0,
      profit: '0.000000006591796875',
      profit_avg_24h: '0.000000006591796875',
    });
    await savePrices(t.database.db, {
      source: 'test',
      takenAt: new Date(NOW - 60_000),
      quotes: [{ ticker: 'BTC', usd: '100000' }],
    });
  }

  /** A state-changing GET as the site's own pages fetch it: the browser says `Sec-Fetch-Site: same-origin`. */
  const siteGet = (url: string, options: { cookie: string; query: Record<string, string> }) =>
    t.app.inject({
      url,
      query: options.query,
      cookies: { [SESSION]: options.cookie },
      headers: { 'sec-fetch-site': 'same-origin' },
    });

  const q = (user: TestUser, extra: Record<string, string> = {}) => ({
    account_name: user.username,
    algorithm: 'scrypt',
    ...extra,
  });
  const summary = async (user: TestUser, algorithm = 'scrypt') => {
    const res = await get(t.app, '/v1/user/mining', { cookie: user.cookie, query: q(user, { algorithm }) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return miningSummaryResponse.parse(res.json());
  };
  const workers = async (user: TestUser) => {
    const res = await get(t.app, '/v1/user/mining/workers', { cookie: user.cookie, query: q(user) });
    expect(res.statusCode, res.body).toBe(200);
    // The route sends the list unparsed (its length makes parsing costly): the contract is proven
    // here, fields included — the strict schema refuses any field the contract does not name.
    return z.array(miningWorker.strict()).parse(res.json());
  };
  const chart = async (user: TestUser, timezone?: string, period?: string) => {
    const res = await get(t.app, '/v1/user/mining/chart', {
      cookie: user.cookie,
      query: q(user, { ...(timezone && { timezone }), ...(period && { period }) }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return chartResponse.parse(res.json());
  };

  it('answers 401 logged out, 404 for another user’s account, 400 for a bad algorithm or time zone', async () => {
    const user = await registerUser(t.app);
    const other = await registerUser(t.app);
    const reads = ['/v1/user/mining', '/v1/user/mining/chart', '/v1/user/mining/workers'];
    const removals = ['/v1/user/mining/workers/remove/1', '/v1/user/mining/workers/removeall'];
    for (const url of [...reads, ...removals]) {
      expect((await get(t.app, url, { query: q(user) })).statusCode, url).toBe(401);
      const foreign = await siteGet(url, { cookie: user.cookie, query: q(other) });
      expect(foreign.statusCode, url).toBe(404);
      expect(foreign.json()).toEqual({ error: 'Account not found', code: 'NOT_FOUND' });
    }
    for (const url of reads) {
      const bad = await get(t.app, url, { cookie: user.cookie, query: q(user, { algorithm: 'ethash' }) });
      expect(bad.statusCode, url).toBe(400);
      expect(bad.json().error).toBe('Unknown algorithm: ethash');
      const missing = await get(t.app, url, { cookie: user.cookie, query: { account_name: user.username } });
      expect(missing.statusCode, url).toBe(400);
    }
    const zone = await get(t.app, '/v1/user/mining/chart', {
      cookie: user.cookie,
      query: q(user, { timezone: 'Mars/Olympus_Mons' }),
    });
    expect(zone.statusCode).toBe(400);
    expect(zone.json().code).toBe('VALIDATION_FAILED');
    const period = await get(t.app, '/v1/user/mining/chart', { cookie: user.cookie, query: q(user, { period: '1y' }) });
    expect(period.statusCode).toBe(400);
  });

  it('shows an account without workers as zeros', async () => {
    const user = await registerUser(t.app);
    expect(await summary(user)).toEqual({
      hashrate: 0,
      hashrate_units: 'H/s',
      hashrate_avg: 0,
      hashrate_avg_units: 'H/s',
      window_minutes: 10,
      active_workers: 0,
      total_workers: 0,
      estimated_revenue: 0,
    });
    expect(await workers(user)).toEqual([]);
    // Nothing mined yet: no points, rather than 24 hours of zeros.
    expect(await chart(user)).toEqual({ x_axis: [], y_axis: [], label: 'Hashrate (H/s)' });
  });

  it('starts the chart at the half hour of the account’s first shares; half hours after it without shares read 0', async () => {
    const user = await registerUser(t.app);
    const me = user.username;
    await apply('2024-05-06T10:40:00Z', [shareCounts(me, 'rig1', { acceptedDifficulty: 1800, valid: 18 })]); // 10:39
    await apply('2024-05-06T12:01:00Z', [shareCounts(me, 'rig1', { acceptedDifficulty: 3300, valid: 33 })]); // 12:00
    // Another algorithm's shares and another account's older ones do not start this chart earlier.
    await apply('2024-05-06T01:00:00Z', [shareCounts(me, 'asic', { acceptedDifficulty: 5, valid: 1 })], 'sha256');
    const other = await registerUser(t.app);
    await apply('2024-05-06T01:00:00Z', [shareCounts(other.username, 'rig1', { acceptedDifficulty: 5, valid: 1 })]);

    // 10:30: 1,800 × 65,536 ÷ 1,800 s = 65,536 H/s; 11:00 and 11:30 mined nothing (real zeros); the current 12:00:
    // 3,300 × 65,536 ÷ the 330 s so far = 655,360 H/s.
    const expected = {
      x_axis: ['10:30', '11:00', '11:30', '12:00'],
      y_axis: [65.536, 0, 0, 655.36],
      label: 'Hashrate (Kh/s)',
    };
    expect(await chart(user)).toEqual(expected);
    expect((await chart(user, 'Asia/Kolkata')).x_axis).toEqual(['16:00', '16:30', '17:00', '17:30']);
    // Over 7 days: 4-hour points from the one of the first shares; 08:00–12:00 holds 1,800 over 14,400 s
    // = 8,192 H/s, the current 12:00 point the same 655,360 H/s. Over 30 days: the day, 5,100 over its 43,530 s.
    expect(await chart(user, undefined, '7d')).toEqual({
      x_axis: ['05-06 08:00', '05-06 12:00'],
      y_axis: [8.192, 655.36],
      label: 'Hashrate (Kh/s)',
    });
    const month = await chart(user, undefined, '30d');
    expect(month.x_axis).toEqual(['2024-05-06']);
    expect(month.y_axis[0]).toBeCloseTo((5100 * 65_536) / 43_530 / 1000, 3);
    await runWorkerRollup(t.database.db, new Date(clock));
    expect(await chart(user)).toEqual(expected);
    // A removed worker's history stays, and so does where the chart starts.
    const removed = await siteGet('/v1/user/mining/workers/removeall', { cookie: user.cookie, query: q(user) });
    expect(removed.json()).toEqual({ result: true, removed: 0 });
    const [rig1] = await workers(user);
    await siteGet(`/v1/user/mining/workers/remove/${rig1?.id}`, { cookie: user.cookie, query: q(user) });
    expect(await workers(user)).toEqual([]);
    expect(await chart(user)).toEqual(expected);
  });

  it('computes the summary, workers and chart from the account’s shares, the same after rolling up', async () => {
    const user = await registerUser(t.app);
    const bob = await registerUser(t.app);
    await seed(user, bob);
    await rates();

    // Window: 3000 + 1000 + 2000 = 6000 × 65,536 ÷ 630 s = 624,152.38 H/s. 24 hours: + rig3's 6000
    // = 12,000 × 65,536 ÷ 86,730 s = 9,067.59 H/s. Revenue: 6000 × 65,536 × 6.591796875e-9 = 2.592
    // BTC·s/day ÷ 630 s = 0.00411428… BTC a day × (1 − 1%) × $100,000 = $407.3142… → 407.31.
    const expectedSummary = {
      hashrate: 624.15,
      hashrate_units: 'Kh/s',
      hashrate_avg: 9.07,
      hashrate_avg_units: 'Kh/s',
      window_minutes: 10,
      active_workers: 2,
      total_workers: 4,
      estimated_revenue: 407.31,
    };
    expect(await summary(user)).toEqual(expectedSummary);
    // The algorithm as a name, any case, reads the same.
    expect(await summary(user, 'SCRYPT')).toEqual(expectedSummary);
    expect((await summary(user, 'sha256')).total_workers).toBe(1);

    const list = await workers(user);
    // A worker first seen inside a period is measured over its own age (its first batch's start), not
    // the whole period: rig1 and rig2 are younger than the window, rig3 than the 24 hours.
    expect(list.map(({ id, ...rest }) => ({ id: /^\d+$/.test(id), ...rest }))).toEqual([
      // First seen 12:00:55, 275 s before now: 4000 × 65,536 ÷ 275 = 953,250.91 for both
      // (÷ the window's 630 s it read 416.1 Kh/s, and ÷ 86,730 s 3.02 Kh/s).
      {
        id: true,
        name: 'rig1',
        label: null,
        group: null,
        solo: false,
        hashrate: 953.25,
        hashrate_units: 'Kh/s',
        hashrate_avg: 953.25,
        hashrate_avg_units: 'Kh/s',
        online: true,
        state: 'online',
        last_share_at: '2024-05-06T12:05:09.000Z',
        valid_shares: 40,
        invalid_shares: 2,
        stale_shares: 0,
      },
      // First seen 11:57:55, 455 s: 2000 × 65,536 ÷ 455 = 288,070.33
      {
        id: true,
        name: 'rig2',
        label: null,
        group: null,
        solo: false,
        hashrate: 288.07,
        hashrate_units: 'Kh/s',
        hashrate_avg: 288.07,
        hashrate_avg_units: 'Kh/s',
        online: true,
        state: 'online',
        last_share_at: '2024-05-06T11:57:59.000Z',
        valid_shares: 20,
        invalid_shares: 0,
        stale_shares: 1,
      },
      // Nothing in the window; first seen 09:00:00, 11,130 s: 6000 × 65,536 ÷ 11,130 = 35,329.74
      {
        id: true,
        name: 'rig3',
        label: null,
        group: null,
        solo: false,
        hashrate: 0,
        hashrate_units: 'H/s',
        hashrate_avg: 35.33,
        hashrate_avg_units: 'Kh/s',
        online: false,
        state: 'offline',
        last_share_at: '2024-05-06T09:00:04.000Z',
        valid_shares: 60,
        invalid_shares: 0,
        stale_shares: 0,
      },
      {
        id: true,
        name: 'rig4',
        label: null,
        group: null,
        solo: false,
        hashrate: 0,
        hashrate_units: 'H/s',
        hashrate_avg: 0,
        hashrate_avg_units: 'H/s',
        online: false,
        state: 'offline',
        last_share_at: '2024-05-05T11:29:59.000Z',
        valid_shares: 0,
        invalid_shares: 0,
        stale_shares: 0,
      },
    ]);

    // 48 half hours from 12:30 UTC yesterday; the points with shares: 09:00 (6000 ÷ 1,800 s),
    // 11:30 (2000 ÷ 1,800 s) and the current 12:00 (4000 ÷ the 330 s so far), in the unit of the largest.
    const utc = await chart(user);
    expect(utc.x_axis).toHaveLength(48);
    expect(utc.x_axis[0]).toBe('12:30');
    expect(utc.x_axis.at(-1)).toBe('12:00');
    expect(utc.label).toBe('Hashrate (Kh/s)');
    const points = Object.fromEntries(utc.x_axis.map((x, i) => [x, utc.y_axis[i]]).filter(([, y]) => y !== 0));
    expect(points).toEqual({ '09:00': 218.453, '11:30': 72.818, '12:00': 794.376 });
    // The miner's time zone writes the labels (India is 5:30 ahead, New York 4 behind in May).
    const india = await chart(user, 'Asia/Kolkata');
    expect([india.x_axis[0], india.x_axis.at(-1)]).toEqual(['18:00', '17:30']);
    expect(india.y_axis).toEqual(utc.y_axis);
    const newYork = await chart(user, 'America/New_York');
    expect([newYork.x_axis[0], newYork.x_axis.at(-1)]).toEqual(['08:30', '08:00']);

    const before = { summary: await summary(user), list, utc };
    const run = await runWorkerRollup(t.database.db, new Date(clock));
    expect(run.batches).toBeGreaterThan(0);
    expect({ summary: await summary(user), list: await workers(user), utc: await chart(user) }).toEqual(before);
  });

  it('removes one worker, then the offline ones, keeping the account’s history', async () => {
    const user = await registerUser(t.app);
    const bob = await registerUser(t.app);
    await seed(user, bob);
    const byName = Object.fromEntries((await workers(user)).map((w) => [w.name, w.id]));
    const bobsWorker = await t.database.db
      .selectFrom('workers')
      .select('id')
      .where('account', '=', bob.username)
      .executeTakeFirstOrThrow();
    const remove = (id: string, method: 'GET' | 'POST' = 'GET') =>
      method === 'GET'
        ? siteGet(`/v1/user/mining/workers/remove/${id}`, { cookie: user.cookie, query: q(user) })
        : post(t.app, `/v1/user/mining/workers/remove/${id}`, {}, { cookie: user.cookie, query: q(user) });

    for (const id of [bobsWorker.id.toString(), 'abc', '0', '99999999']) {
      const res = await remove(id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ error: 'Worker not found', code: 'NOT_FOUND' });
    }
    // A removal is a state change: another site cannot trigger it through the browser.
    const crossSite = await t.app.inject({
      url: `/v1/user/mining/workers/remove/${byName.rig4}`,
      query: q(user),
      cookies: { [SESSION]: user.cookie },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);
    // Nor can a request that carries the cookie but none of Origin, Referer and Sec-Fetch-Site.
    for (const url of [`/v1/user/mining/workers/remove/${byName.rig4}`, '/v1/user/mining/workers/removeall']) {
      const bare = await get(t.app, url, { cookie: user.cookie, query: q(user) });
      expect(bare.statusCode, url).toBe(403);
      expect(bare.json()).toEqual({ error: 'Cross-site request refused', code: 'FORBIDDEN' });
    }
    expect((await workers(user)).map((w) => w.name)).toEqual(['rig1', 'rig2', 'rig3', 'rig4']);

    const avgBefore = (await summary(user)).hashrate_avg;
    const chartBefore = await chart(user);
    const one = await remove(byName.rig4 ?? '');
    expect(one.statusCode, one.body).toBe(200);
    expect(miningRemoveResponse.parse(one.json())).toEqual({ result: true, removed: 1 });
    expect((await remove(byName.rig4 ?? '')).statusCode).toBe(404);
    expect((await workers(user)).map((w) => w.name)).toEqual(['rig1', 'rig2', 'rig3']);

    // rig3 has no accepted share in the window: offline. POST is accepted as well as the documented GET.
    const all = await post(t.app, '/v1/user/mining/workers/removeall', {}, { cookie: user.cookie, query: q(user) });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toEqual({ result: true, removed: 1 });
    const again = await siteGet('/v1/user/mining/workers/removeall', { cookie: user.cookie, query: q(user) });
    expect(again.json()).toEqual({ result: true, removed: 0 });

    const after = await summary(user);
    expect(after).toMatchObject({ active_workers: 2, total_workers: 2, hashrate: 624.15, hashrate_avg: avgBefore });
    expect(await chart(user)).toEqual(chartBefore);
    // Bob's worker and the account's SHA256 worker are untouched.
    expect((await summary(bob)).total_workers).toBe(1);
    expect((await summary(user, 'sha256')).total_workers).toBe(1);

    const account = await t.database.db
      .selectFrom('accounts')
      .select('id')
      .where('username', '=', user.username)
      .executeTakeFirstOrThrow();
    const log = await userLogOfAccount(t.database.db, account.id);
    expect(log.slice(0, 2).map((e) => [e.log_name, e.log_value])).toEqual([
      ['offline_workers_removed', { algorithm: 'scrypt', removed: 1, workers: ['rig3'] }],
      ['worker_removed', { algorithm: 'scrypt', removed: 1, workers: ['rig4'] }],
    ]);

    // A removed worker that connects again is simply a new worker.
    await apply('2024-05-06T12:05:20Z', [shareCounts(user.username, 'rig3', { acceptedDifficulty: 10, valid: 1 })]);
    const back = (await workers(user)).find((w) => w.name === 'rig3');
    expect(back?.id).not.toBe(byName.rig3);
    expect(back?.valid_shares).toBe(1);
  });

  it('answers one worker’s refusals of the last 24 hours by reason, to its owner and its watchers', async () => {
    const user = await registerUser(t.app);
    const bob = await registerUser(t.app);
    await seed(user, bob);
    const byName = Object.fromEntries((await workers(user)).map((w) => [w.name, w.id]));
    const rejects = (worker_id: string, who = user) =>
      get(t.app, '/v1/user/mining/workers/rejects', { cookie: who.cookie, query: q(who, { worker_id }) });
    const rig1 = await rejects(byName.rig1 ?? '');
    expect(rig1.statusCode, rig1.body).toBe(200);
    expect(workerRejectsResponse.parse(rig1.json())).toEqual({
      id: byName.rig1,
      name: 'rig1',
      rejects: { duplicate: 1, 'low-difficulty': 1 },
    });
    expect((await rejects(byName.rig2 ?? '')).json()).toMatchObject({ rejects: { stale: 1 } });
    expect((await rejects(byName.rig3 ?? '')).json()).toMatchObject({ rejects: {} });
    // Another account's worker, or none at all: 404.
    expect((await rejects(byName.rig1 ?? '', bob)).statusCode).toBe(404);
    expect((await rejects('x')).statusCode).toBe(400);
    const account = await t.database.db
      .selectFrom('accounts')
      .select('observer_key')
      .where('username', '=', user.username)
      .executeTakeFirstOrThrow();
    const observed = await get(t.app, '/v1/observer/mining/workers/rejects', {
      query: { observer_key: account.observer_key ?? '', algorithm: 'scrypt', worker_id: byName.rig1 ?? '' },
    });
    expect(observed.json()).toEqual(rig1.json());
  });

  it('removes the workers a miner selected (a group), only the account’s, keeping its history', async () => {
    const user = await registerUser(t.app);
    const bob = await registerUser(t.app);
    await seed(user, bob);
    const byName = Object.fromEntries((await workers(user)).map((w) => [w.name, w.id]));
    const bobsWorker = await t.database.db
      .selectFrom('workers')
      .select('id')
      .where('account', '=', bob.username)
      .executeTakeFirstOrThrow();
    const removeSelected = (ids: string) =>
      post(t.app, '/v1/user/mining/workers/remove_selected', { ids }, { cookie: user.cookie, query: q(user) });
    const chartBefore = await chart(user);

    for (const [ids, status] of [
      ['', 400],
      ['1,x', 400],
      [bobsWorker.id.toString(), 404],
    ] as const) {
      expect((await removeSelected(ids)).statusCode, ids).toBe(status);
    }
    // rig1 and rig3, one of them named twice, and Bob's worker, which stays his.
    const res = await removeSelected(`${byName.rig1}, ${byName.rig3},${byName.rig1},${bobsWorker.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(miningRemoveResponse.parse(res.json())).toEqual({ result: true, removed: 2 });
    expect((await workers(user)).map((w) => w.name)).toEqual(['rig2', 'rig4']);
    expect((await summary(bob)).total_workers).toBe(1);
    expect(await chart(user)).toEqual(chartBefore);
    const account = await t.database.db
      .selectFrom('accounts')
      .select('id')
      .where('username', '=', user.username)
      .executeTakeFirstOrThrow();
    const [entry] = await userLogOfAccount(t.database.db, account.id);
    expect([entry?.log_name, entry?.log_value]).toEqual([
      'selected_workers_removed',
      { algorithm: 'scrypt', removed: 2, workers: ['rig1', 'rig3'] },
    ]);
  });

  it('measures a worker younger than the window over its own age, not the whole window', async () => {
    clock = NOW;
    const user = await registerUser(t.app);
    // A rig first seen 75 s ago (its first batch starts 12:04:15; now is 12:05:30).
    await apply('2024-05-06T12:04:20Z', [shareCounts(user.username, 'rig1', { acceptedDifficulty: 500, valid: 5 })]);
    await apply('2024-05-06T12:05:20Z', [shareCounts(user.username, 'rig1', { acceptedDifficulty: 250, valid: 2 })]);
    // 750 × 65,536 ÷ 75 s = 655,360 H/s; over the 630-s window it read 78.02 Kh/s, over 24 hours 0.57 Kh/s.
    const [rig] = await workers(user);
    expect(rig).toMatchObject({ hashrate: 655.36, hashrate_units: 'Kh/s', hashrate_avg: 655.36, online: true });
    expect(await summary(user)).toMatchObject({ hashrate: 655.36, hashrate_avg: 655.36, active_workers: 1 });
    // Younger than a minute, it is measured over a minute: one share must not read as a spike.
    clock = Date.parse('2024-05-06T12:04:50Z');
    const [young] = await workers(user);
    expect(young).toMatchObject({ hashrate: 546.13, hashrate_units: 'Kh/s' }); // 500 × 65,536 ÷ 60 s
    clock = NOW;
  });

  it('values the estimated revenue at the account’s discounted fee', async () => {
    clock = NOW;
    const user = await registerUser(t.app);
    await t.database.db
      .updateTable('accounts')
      .set({ fee_discount: '0.5' })
      .where('username', '=', user.username)
      .execute();
    // Mining since 11:00 (a refused share then): older than the window, measured over all of it.
    await apply('2024-05-06T11:00:00Z', [shareCounts(user.username, 'rig1', { invalid: 1 })]);
    await apply('2024-05-06T12:01:00Z', [shareCounts(user.username, 'rig1', { acceptedDifficulty: 6000, valid: 60 })]);
    await rates();
    // Fee 1% × (1 − 0.5) = 0.5%: 0.00411428… BTC × 0.995 × $100,000 = $409.3714… → 409.37.
    expect((await summary(user)).estimated_revenue).toBe(409.37);
  });
});
