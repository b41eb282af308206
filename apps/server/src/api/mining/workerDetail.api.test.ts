import { chartResponse, labelWorkersResponse, miningWorker, workerConnectionsResponse } from '@lodestone/contract';
import { userLogOfAccount } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import type { ConnectionEvent, WorkerShareCounts } from '@lodestone/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { get, post, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { applyShareBatch } from '../../jobs/accounting.js';
import { shareBatch, shareCounts } from '../../jobs/testing.js';
import { runWorkerRollup } from '../../jobs/workerRollup.js';

/**
 * One worker's view (docs/dashboard.md, "One worker", "Connection history", "Worker groups"): its own
 * hashrate chart, its connection history and labels. Now is 2024-05-06 12:05:30 UTC; SCRYPT counts
 * 65,536 hashes per difficulty 1.
 */
const NOW = Date.parse('2024-05-06T12:05:30Z');

describe.each(testEngines())('one worker’s view on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ STATS_WINDOW_MINUTES: '10' }, undefined, engine, { now: () => new Date(NOW) });
  });
  afterAll(async () => {
    await t?.close();
  });

  const apply = (end: string, workers: WorkerShareCounts[], connections?: ConnectionEvent[]) =>
    applyShareBatch(t.database.db, shareBatch(end, workers, connections ? { connections } : {}));
  const q = (user: TestUser, extra: Record<string, string> = {}) => ({
    account_name: user.username,
    algorithm: 'scrypt',
    ...extra,
  });
  const workers = async (user: TestUser) => {
    const res = await get(t.app, '/v1/user/mining/workers', { cookie: user.cookie, query: q(user) });
    expect(res.statusCode, res.body).toBe(200);
    return z.array(miningWorker.strict()).parse(res.json());
  };
  const idsOf = async (user: TestUser) => Object.fromEntries((await workers(user)).map((w) => [w.name, w.id]));
  const observerKey = async (user: TestUser) =>
    (
      await t.database.db
        .selectFrom('accounts')
        .select('observer_key')
        .where('username', '=', user.username)
        .executeTakeFirstOrThrow()
    ).observer_key ?? '';

  it('draws one worker’s hashrate by the hour over 24 hours and by 4 hours over 7 days, the same rolled up', async () => {
    const user = await registerUser(t.app);
    const me = user.username;
    await apply('2024-05-06T09:00:05Z', [shareCounts(me, 'rig3', { acceptedDifficulty: 6000, valid: 60 })]);
    await apply('2024-05-06T12:01:00Z', [shareCounts(me, 'rig3', { acceptedDifficulty: 3300, valid: 33 })]);
    await apply('2024-05-06T12:02:00Z', [shareCounts(me, 'other', { acceptedDifficulty: 99_999, valid: 9 })]);
    const id = (await idsOf(user)).rig3 ?? '';
    const chart = async (period?: string, who = user) => {
      const res = await get(t.app, '/v1/user/mining/workers/chart', {
        cookie: who.cookie,
        query: q(who, { worker_id: id, ...(period && { period }) }),
      });
      expect(res.statusCode, res.body).toBe(200);
      return chartResponse.parse(res.json());
    };
    // From 09:00, the hour of its first shares: 6000 × 65,536 ÷ 3600 s = 109,226.67 H/s; the hour
    // in progress over the 330 s that passed: 3300 × 65,536 ÷ 330 = 655,360 H/s. The other worker
    // is not in it.
    const day = await chart();
    expect(day).toEqual({
      label: 'Hashrate (Kh/s)',
      x_axis: ['09:00', '10:00', '11:00', '12:00'],
      y_axis: [109.227, 0, 0, 655.36],
    });
    // 7 days in 4-hour points: 08:00–12:00 holds the 6000 (27,306.67 H/s), 12:00–16:00 the 3300 over 330 s.
    const week = await chart('7d');
    expect([week.x_axis, week.y_axis]).toEqual([
      ['05-06 08:00', '05-06 12:00'],
      [27.307, 655.36],
    ]);
    await runWorkerRollup(t.database.db, new Date(NOW));
    expect(await chart()).toEqual(day);
    expect(await chart('7d')).toEqual(week);

    // The 30-day chart is the account's only; another account's worker, or none at all, is not found.
    const bad = await get(t.app, '/v1/user/mining/workers/chart', {
      cookie: user.cookie,
      query: q(user, { worker_id: id, period: '30d' }),
    });
    expect(bad.statusCode).toBe(400);
    const bob = await registerUser(t.app);
    const stranger = await get(t.app, '/v1/user/mining/workers/chart', {
      cookie: bob.cookie,
      query: q(bob, { worker_id: id }),
    });
    expect(stranger.statusCode).toBe(404);
    const observed = await get(t.app, '/v1/observer/mining/workers/chart', {
      query: { observer_key: await observerKey(user), algorithm: 'scrypt', worker_id: id },
    });
    expect(observed.json()).toEqual(day);
  });

  it('lists a worker’s connects and disconnects newest first, once each, for 8 days', async () => {
    const user = await registerUser(t.app);
    const me = user.username;
    const at = (iso: string) => Date.parse(iso);
    const events: ConnectionEvent[] = [
      {
        account: me,
        worker: 'rig1',
        session: 'a',
        event: 'connect',
        at: at('2024-05-06T11:00:00Z'),
        ipRange: '203.0.113.0/24',
        userAgent: 'cgminer/4.12.1',
      },
      {
        account: me,
        worker: 'rig1',
        session: 'a',
        event: 'disconnect',
        at: at('2024-05-06T11:30:00Z'),
        reason: 'no share for too long',
        ipRange: '203.0.113.0/24',
        userAgent: 'cgminer/4.12.1',
      },
      { account: me, worker: 'rig1', session: 'b', event: 'connect', at: at('2024-05-06T11:31:00Z') },
      { account: me, worker: 'rig2', session: 'c', event: 'connect', at: at('2024-05-06T11:31:00Z') },
      { account: me, worker: 'rig1', session: 'old', event: 'connect', at: at('2024-04-27T11:00:00Z') },
    ];
    await apply('2024-05-06T11:31:05Z', [shareCounts(me, 'rig1', { acceptedDifficulty: 10, valid: 1 })], events);
    // The same events again in another batch (a node that published them twice): not doubled.
    await apply('2024-05-06T11:32:05Z', [], events.slice(0, 2));
    const id = (await idsOf(user)).rig1 ?? '';
    const res = await get(t.app, '/v1/user/mining/workers/connections', {
      cookie: user.cookie,
      query: q(user, { worker_id: id }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(workerConnectionsResponse.parse(res.json())).toEqual({
      id,
      name: 'rig1',
      connections: [
        {
          at: '2024-05-06T11:31:00.000Z',
          event: 'connect',
          reason: null,
          ip_range: null,
          user_agent: null,
          node: 'node-1',
        },
        {
          at: '2024-05-06T11:30:00.000Z',
          event: 'disconnect',
          reason: 'no share for too long',
          ip_range: '203.0.113.0/24',
          user_agent: 'cgminer/4.12.1',
          node: 'node-1',
        },
        {
          at: '2024-05-06T11:00:00.000Z',
          event: 'connect',
          reason: null,
          ip_range: '203.0.113.0/24',
          user_agent: 'cgminer/4.12.1',
          node: 'node-1',
        },
      ],
    });
    const observed = await get(t.app, '/v1/observer/mining/workers/connections', {
      query: { observer_key: await observerKey(user), algorithm: 'scrypt', worker_id: id },
    });
    expect(observed.json()).toEqual(res.json());
    const bob = await registerUser(t.app);
    const stranger = await get(t.app, '/v1/user/mining/workers/connections', {
      cookie: bob.cookie,
      query: q(bob, { worker_id: id }),
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('labels the chosen workers, which then group by their label; an empty label takes it off', async () => {
    const user = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const me = user.username;
    await apply('2024-05-06T12:01:00Z', [
      shareCounts(me, 'rack1-a', { acceptedDifficulty: 10, valid: 1 }),
      shareCounts(me, 'rack1-b', { acceptedDifficulty: 10, valid: 1 }),
      shareCounts(me, 'rig7', { acceptedDifficulty: 10, valid: 1 }),
      shareCounts(bob.username, 'rig7', { acceptedDifficulty: 10, valid: 1 }),
    ]);
    const groups = async () => Object.fromEntries((await workers(user)).map((w) => [w.name, [w.label, w.group]]));
    expect(await groups()).toEqual({
      'rack1-a': [null, 'rack1-'],
      'rack1-b': [null, 'rack1-'],
      rig7: [null, null],
    });
    const ids = await idsOf(user);
    const bobs = (await idsOf(bob)).rig7 ?? '';
    const label = (body: Record<string, string>, who = user) =>
      post(t.app, '/v1/user/mining/workers/label', body, { cookie: who.cookie, query: q(who) });

    const res = await label({ ids: `${ids['rack1-b']},${ids.rig7},${bobs}`, label: '  Room   B ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(labelWorkersResponse.parse(res.json())).toEqual({ result: true, labelled: 2 });
    expect(await groups()).toEqual({
      'rack1-a': [null, 'rack1-'],
      'rack1-b': ['Room B', 'Room B'],
      rig7: ['Room B', 'Room B'],
    });
    // Bob's worker stays his, unlabelled.
    expect((await workers(bob))[0]?.label).toBeNull();

    expect((await label({ ids: ids.rig7 ?? '', label: 'x'.repeat(41) })).statusCode).toBe(400);
    expect((await label({ ids: ids.rig7 ?? '', label: 'a\u0007b' })).statusCode).toBe(400);
    expect((await label({ ids: bobs, label: 'mine now' })).statusCode).toBe(404);
    expect((await label({ ids: '', label: 'x' })).statusCode).toBe(400);

    expect((await label({ ids: ids.rig7 ?? '', label: '' })).json()).toEqual({ result: true, labelled: 1 });
    expect((await groups()).rig7).toEqual([null, null]);

    const account = await t.database.db
      .selectFrom('accounts')
      .select('id')
      .where('username', '=', me)
      .executeTakeFirstOrThrow();
    const log = await userLogOfAccount(t.database.db, account.id);
    expect(log.slice(0, 2).map((e) => [e.log_name, e.log_value])).toEqual([
      ['workers_labelled', { algorithm: 'scrypt', label: null, workers: 1 }],
      ['workers_labelled', { algorithm: 'scrypt', label: 'Room B', workers: 2 }],
    ]);
    // An observer key labels nothing.
    const observed = await post(
      t.app,
      '/v1/user/mining/workers/label',
      { ids: ids.rig7 ?? '', label: 'x' },
      { query: { observer_key: 'whatever', algorithm: 'scrypt' } },
    );
    expect(observed.statusCode).toBe(401);
  });
});
