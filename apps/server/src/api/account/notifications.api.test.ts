import { userConfigResponse } from '@lodestone/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { unsubscribeKey, unsubscribeToken } from '../../services/notifications/unsubscribe.js';

describe('notification settings and unsubscribe links', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function config(user: TestUser) {
    const res = await get(t.app, '/v1/user/config', { cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(200);
    return userConfigResponse.parse(res.json());
  }

  const userId = async (user: TestUser) =>
    (await t.database.db.selectFrom('users').select('id').where('email', '=', user.email).executeTakeFirstOrThrow()).id;

  it('sets the offline window in minutes, back to automatic with an empty value, and refuses others', async () => {
    const user = await registerUser(t.app);
    expect((await config(user)).offline_worker_window_minutes).toBeNull();
    const update = (value: string) =>
      post(t.app, '/v1/user/config/update', { offline_worker_window_minutes: value }, { cookie: user.cookie });
    expect((await update('45')).statusCode).toBe(200);
    expect((await config(user)).offline_worker_window_minutes).toBe(45);
    for (const bad of ['4', '10081', '1.5', 'soon']) {
      const res = await update(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toContain('Enter whole minutes from 5 to 10080, or leave empty for automatic');
    }
    expect((await config(user)).offline_worker_window_minutes).toBe(45);
    expect((await update('')).statusCode).toBe(200);
    expect((await config(user)).offline_worker_window_minutes).toBeNull();
  });

  it('an unsubscribe token turns the alerts off without a session; a forged one is refused', async () => {
    const user = await registerUser(t.app);
    await post(t.app, '/v1/user/config/update', { offline_worker_notification: 'true' }, { cookie: user.cookie });
    const token = unsubscribeToken(await unsubscribeKey(t.database.db), await userId(user), 'offline-workers');
    const forged = await post(t.app, '/v1/notifications/unsubscribe', { token: `${token.slice(0, -2)}AA` });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ error: 'This unsubscribe link is not valid.', code: 'UNSUBSCRIBE_TOKEN_INVALID' });
    expect((await config(user)).offline_worker_notification).toBe(true);
    const res = await post(t.app, '/v1/notifications/unsubscribe', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: true, topic: 'offline-workers' });
    expect((await config(user)).offline_worker_notification).toBe(false);
  });
});
