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

  it('stops only the e-mails of offline alerts that a linked Telegram chat also receives', async () => {
    const user = await registerUser(t.app);
    await post(t.app, '/v1/user/config/update', { offline_worker_notification: 'true' }, { cookie: user.cookie });
    const id = await userId(user);
    await t.database.db
      .insertInto('telegram_links')
      .values({ user_id: id, chat_id: 7_000_000_000n + id, telegram_username: null, linked_at: new Date() })
      .execute();
    await t.database.db.updateTable('users').set({ telegram_notifications: true }).where('id', '=', id).execute();
    const token = unsubscribeToken(await unsubscribeKey(t.database.db), id, 'offline-workers');
    expect((await post(t.app, '/v1/notifications/unsubscribe', { token })).statusCode).toBe(200);
    expect(await config(user)).toMatchObject({ offline_worker_notification: true, offline_worker_telegram_only: true });
  });

  it("takes a mail provider's one-click unsubscribe (RFC 8058) at the link itself, from any origin", async () => {
    const user = await registerUser(t.app);
    await post(t.app, '/v1/user/config/update', { offline_worker_notification: 'true' }, { cookie: user.cookie });
    const token = unsubscribeToken(await unsubscribeKey(t.database.db), await userId(user), 'offline-workers');
    const oneClick = (
      payload: string,
      query: Record<string, string>,
      contentType = 'application/x-www-form-urlencoded',
    ) =>
      t.app.inject({
        method: 'POST',
        url: '/unsubscribe',
        query,
        payload,
        // The provider's server: another origin, no cookie.
        headers: { 'content-type': contentType, origin: 'https://mail.example.net', 'sec-fetch-site': 'cross-site' },
      });
    // Without the RFC's form field it is not a one-click request, and nothing changes.
    const bare = await oneClick('', { token });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().error).toBe('Expected the form field List-Unsubscribe=One-Click (RFC 8058).');
    const forged = await oneClick('List-Unsubscribe=One-Click', {
      token: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('UNSUBSCRIBE_TOKEN_INVALID');
    expect((await oneClick('List-Unsubscribe=One-Click', {})).statusCode).toBe(400);
    // The RFC's body is form-encoded: JSON or plain text is not a one-click request (415), and changes nothing.
    for (const [payload, type] of [
      ['{"List-Unsubscribe":"One-Click"}', 'application/json'],
      ['List-Unsubscribe=One-Click', 'text/plain'],
    ]) {
      const refused = await oneClick(payload as string, { token }, type);
      expect(refused.statusCode, type).toBe(415);
      expect(refused.json(), type).toEqual({ error: 'Unsupported content type', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    expect((await config(user)).offline_worker_notification).toBe(true);

    const res = await oneClick('List-Unsubscribe=One-Click', { token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: true, topic: 'offline-workers' });
    expect((await config(user)).offline_worker_notification).toBe(false);
    // The page at the same address is still the page.
    const page = await t.app.inject({ method: 'GET', url: '/unsubscribe', query: { token } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});
