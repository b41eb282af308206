import {
  errorResponse,
  hashrateAlertCreateResponse,
  hashrateAlertsResponse,
  MAX_HASHRATE_ALERTS,
} from '@lodestone/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe('hashrate alert rules of an account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const query = (user: TestUser) => ({ account_name: user.username });
  const list = async (user: TestUser) => {
    const res = await get(t.app, '/v1/user/hashrate_alerts', { cookie: user.cookie, query: query(user) });
    expect(res.statusCode, res.body).toBe(200);
    return hashrateAlertsResponse.parse(res.json()).alerts;
  };
  const create = (user: TestUser, fields: Record<string, string>) =>
    post(t.app, '/v1/user/hashrate_alerts/create', fields, { cookie: user.cookie, query: query(user) });

  it('creates automatic, fixed and workers rules, lists them and deletes one', async () => {
    const user = await registerUser(t.app);
    for (const fields of [
      { algorithm: 'SCRYPT', kind: 'hashrate', threshold_percent: '70' },
      { algorithm: 'sha256', kind: 'hashrate', threshold_hashrate: '100000000000000' },
      { algorithm: 'scrypt', kind: 'workers', min_workers: '12' },
    ] as Record<string, string>[]) {
      const res = await create(user, fields);
      expect(res.statusCode, res.body).toBe(200);
      hashrateAlertCreateResponse.parse(res.json());
    }
    const alerts = await list(user);
    expect(
      alerts.map((a) => [a.algorithm, a.kind, a.threshold_percent, a.threshold_hashrate, a.min_workers, a.low]),
    ).toEqual([
      ['scrypt', 'hashrate', 70, null, null, false],
      ['sha256', 'hashrate', null, 1e14, null, false],
      ['scrypt', 'workers', null, null, 12, false],
    ]);
    const gone = await post(
      t.app,
      '/v1/user/hashrate_alerts/delete',
      { id: alerts[1]?.id ?? '' },
      {
        cookie: user.cookie,
        query: query(user),
      },
    );
    expect(gone.statusCode).toBe(200);
    expect((await list(user)).map((a) => a.algorithm)).toEqual(['scrypt', 'scrypt']);
    const again = await post(
      t.app,
      '/v1/user/hashrate_alerts/delete',
      { id: alerts[1]?.id ?? '' },
      {
        cookie: user.cookie,
        query: query(user),
      },
    );
    expect(again.statusCode).toBe(404);
  });

  it('refuses a rule that says too little or too much, and more than the limit', async () => {
    const user = await registerUser(t.app);
    for (const [fields, message] of [
      [{ algorithm: 'scrypt', kind: 'hashrate' }, 'Give a hashrate or a percentage of the 24-hour average, not both'],
      [
        { algorithm: 'scrypt', kind: 'hashrate', threshold_percent: '70', threshold_hashrate: '5' },
        'Give a hashrate or a percentage of the 24-hour average, not both',
      ],
      [
        { algorithm: 'scrypt', kind: 'hashrate', threshold_percent: '99' },
        'The percentage must be a whole number from 10 to 95',
      ],
      [
        { algorithm: 'scrypt', kind: 'hashrate', threshold_hashrate: 'fast' },
        'The threshold must be a hashrate in H/s',
      ],
      [
        { algorithm: 'scrypt', kind: 'workers', min_workers: '0' },
        'The fewest workers must be a whole number from 1 to 1,000,000',
      ],
      [{ algorithm: 'md5', kind: 'workers', min_workers: '1' }, 'Unknown algorithm: md5'],
    ] as const) {
      const res = await create(user, fields);
      expect(res.statusCode, message).toBe(400);
      expect(errorResponse.parse(res.json()).error).toBe(message);
    }
    for (let i = 0; i < MAX_HASHRATE_ALERTS; i += 1) {
      expect((await create(user, { algorithm: 'scrypt', kind: 'workers', min_workers: `${i + 1}` })).statusCode).toBe(
        200,
      );
    }
    const over = await create(user, { algorithm: 'scrypt', kind: 'workers', min_workers: '1' });
    expect(over.statusCode).toBe(409);
    expect(errorResponse.parse(over.json()).code).toBe('HASHRATE_ALERT_LIMIT');
  });

  it("keeps a rule's worker group, trimmed, and refuses one longer than 40 characters", async () => {
    const user = await registerUser(t.app);
    for (const fields of [
      { algorithm: 'scrypt', kind: 'hashrate', threshold_hashrate: '5000000', group: '  rack1-  ' },
      { algorithm: 'scrypt', kind: 'workers', min_workers: '3', group: 'Room B' },
      { algorithm: 'scrypt', kind: 'workers', min_workers: '4', group: '' },
      { algorithm: 'scrypt', kind: 'hashrate', threshold_percent: '70', group: 'x'.repeat(40) },
    ] as Record<string, string>[]) {
      const res = await create(user, fields);
      expect(res.statusCode, res.body).toBe(200);
      expect(hashrateAlertCreateResponse.parse(res.json()).alert.group).toBe(fields.group?.trim() || null);
    }
    expect((await list(user)).map((a) => [a.kind, a.group])).toEqual([
      ['hashrate', 'rack1-'],
      ['workers', 'Room B'],
      ['workers', null],
      ['hashrate', 'x'.repeat(40)],
    ]);
    const long = await create(user, { algorithm: 'scrypt', kind: 'workers', min_workers: '1', group: 'x'.repeat(41) });
    expect(long.statusCode).toBe(400);
    expect(errorResponse.parse(long.json()).error).toBe('A group is at most 40 characters');
    expect(await list(user)).toHaveLength(4);
  });

  it('keeps rules to their account', async () => {
    const user = await registerUser(t.app);
    const stranger = await registerUser(t.app);
    expect(
      (await get(t.app, '/v1/user/hashrate_alerts', { cookie: stranger.cookie, query: query(user) })).statusCode,
    ).toBe(404);
    expect((await get(t.app, '/v1/user/hashrate_alerts', { query: query(user) })).statusCode).toBe(401);
  });
});
