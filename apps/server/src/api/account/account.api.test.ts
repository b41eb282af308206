import { accountListResponse, regenerateKeyResponse, userConfigResponse } from '@lodestone/contract';
import { userLogOfUser } from '@lodestone/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, registerUser, type TestUser } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe('settings, accounts and keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, (app) => {
      // Routes of later issues use these guards; the tests prove them on stand-in routes.
      app.get('/v1/test/admin-only', { preHandler: [app.auth.requireAdmin] }, async () => ({ ok: true }));
      app.route({
        method: ['GET', 'POST'],
        url: '/v1/test/observer',
        handler: async (request) => {
          const { observer_key } = request.query as { observer_key: string };
          const account = await app.auth.observerAccount(request, observer_key, 'payouts');
          return { username: account.username };
        },
      });
      app.get('/v1/test/api-user', async (request) => {
        const { apiKey } = request.query as { apiKey: string };
        return { username: (await app.auth.apiKeyAccount(request, apiKey)).account.username };
      });
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function config(user: TestUser) {
    const res = await get(t.app, '/v1/user/config', { cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(200);
    return userConfigResponse.parse(res.json());
  }

  async function userId(user: TestUser) {
    const row = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('reads and updates the preferences; absent fields stay as they are', async () => {
    const user = await registerUser(t.app);
    const before = await config(user);
    expect(before).toMatchObject({
      anonymous: true,
      send_monthly_reports: false,
      offline_worker_notification: false,
      telegram_notifications: false,
      offline_worker_telegram_only: false,
      two_factor_enabled: false,
    });
    expect(before.account_specific).toHaveLength(1);
    const account = before.account_specific[0];
    expect(account).toMatchObject({ username: user.username, referral_show: true, fee_discount: 0 });
    expect(account?.api_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(account?.observer_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(account?.referral_code).toMatch(/^[A-Z2-9]{8}$/);
    expect(account?.api_key).not.toBe(account?.observer_key);

    const res = await post(
      t.app,
      '/v1/user/config/update',
      { anonymous: 'false', offline_worker_notification: 'true', offline_worker_telegram_only: 'true' },
      { cookie: user.cookie },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: true });
    expect(await config(user)).toMatchObject({
      anonymous: false,
      send_monthly_reports: false,
      offline_worker_notification: true,
      telegram_notifications: false,
      offline_worker_telegram_only: true,
    });
    for (const refused of [{ anonymous: 'maybe' }, { offline_worker_telegram_only: 'yes' }] as Record<
      string,
      string
    >[]) {
      const bad = await post(t.app, '/v1/user/config/update', refused, { cookie: user.cookie });
      expect(bad.statusCode, JSON.stringify(refused)).toBe(400);
    }
    expect((await config(user)).offline_worker_telegram_only).toBe(true);
    const log = await userLogOfUser(t.database.db, await userId(user));
    expect(log[0]).toMatchObject({
      log_name: 'settings_changed',
      log_value: { anonymous: false, offline_worker_notification: true, offline_worker_telegram_only: true },
    });
  });

  it('needs a session for every account call', async () => {
    for (const url of ['/v1/user/config', '/v1/user/accounts', '/v1/user/config/generate2FA']) {
      expect((await get(t.app, url)).statusCode, url).toBe(401);
    }
    for (const url of ['/v1/user/config/update', '/v1/user/new_account', '/v1/user/remove_account']) {
      expect((await post(t.app, url, { username: 'whatever' })).statusCode, url).toBe(401);
    }
    expect((await get(t.app, '/v1/user/redirect_config', { query: { account_name: 'abc' } })).statusCode).toBe(401);
  });

  it('creates, lists and removes accounts; a removed name stays reserved', async () => {
    const user = await registerUser(t.app);
    const created = await post(
      t.app,
      '/v1/user/new_account',
      { username: `${user.username}_b` },
      { cookie: user.cookie },
    );
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toEqual({ result: true });

    const list = accountListResponse.parse((await get(t.app, '/v1/user/accounts', { cookie: user.cookie })).json());
    expect(list.accounts.map((a) => a.username)).toEqual([user.username, `${user.username}_b`]);

    const taken = await post(
      t.app,
      '/v1/user/new_account',
      { username: user.username.toUpperCase() },
      { cookie: user.cookie },
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe('Username already taken');

    const keysBefore = (await config(user)).account_specific.find((a) => a.username === `${user.username}_b`);
    const removed = await post(
      t.app,
      '/v1/user/remove_account',
      { account_name: `${user.username}_b` },
      { cookie: user.cookie },
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const after = accountListResponse.parse((await get(t.app, '/v1/user/accounts', { cookie: user.cookie })).json());
    expect(after.accounts.map((a) => a.username)).toEqual([user.username]);
    // Its keys no longer open anything; its name can never be registered again.
    const observer = await get(t.app, '/v1/test/observer', { query: { observer_key: keysBefore?.observer_key ?? '' } });
    expect(observer.statusCode).toBe(404);
    const again = await post(
      t.app,
      '/v1/user/new_account',
      { username: `${user.username}_B` },
      { cookie: user.cookie },
    );
    expect(again.json().error).toBe('Username already taken');
    const log = await userLogOfUser(t.database.db, await userId(user));
    expect(log.map((e) => e.log_name)).toEqual(expect.arrayContaining(['account_created', 'account_removed']));
  });

  it('removing the last account deletes the user’s personal data and ends the session', async () => {
    const user = await registerUser(t.app);
    const res = await post(t.app, '/v1/user/remove_account', { account_name: user.username }, { cookie: user.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(t.app, '/v1/user/info', { cookie: user.cookie })).json()).toEqual({ result: false });
    const row = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', await userIdOfDeleted(user))
      .executeTakeFirstOrThrow();
    expect(row.email).toMatch(/^deleted-\d+@deleted\.invalid$/);
    expect(row).toMatchObject({ password_hash: null, totp_secret: null });
    expect(row.deleted_at).toBeInstanceOf(Date);
    // The address may register again.
    const again = await registerUser(t.app, { email: user.email });
    expect(again.email).toBe(user.email);
  });

  it('concurrent removals of the last accounts erase the user exactly once', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => registerUser(t.app)));
    for (const user of users) {
      const res = await post(
        t.app,
        '/v1/user/new_account',
        { username: `${user.username}_z` },
        { cookie: user.cookie },
      );
      expect(res.statusCode, res.body).toBe(200);
    }
    const removed = await Promise.all(
      users.flatMap((user) =>
        [user.username, `${user.username}_z`].map((name) =>
          post(t.app, '/v1/user/remove_account', { account_name: name }, { cookie: user.cookie }),
        ),
      ),
    );
    expect(removed.map((res) => res.statusCode)).toEqual(removed.map(() => 200));
    for (const user of users) {
      const id = await userIdOfDeleted(user);
      const row = await t.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.email).toMatch(/^deleted-\d+@deleted\.invalid$/);
      const log = await userLogOfUser(t.database.db, id);
      expect(log.filter((e) => e.log_name === 'user_deleted')).toHaveLength(1);
      expect(log.filter((e) => e.log_name === 'account_removed')).toHaveLength(2);
    }
  });

  async function userIdOfDeleted(user: TestUser) {
    const row = await t.database.db
      .selectFrom('accounts')
      .select('user_id')
      .where('username', '=', user.username)
      .executeTakeFirstOrThrow();
    return row.user_id;
  }

  it('never lets one user read or change another user’s account', async () => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const theirs = { account_name: bob.username };
    const notFound = { error: 'Account not found', code: 'NOT_FOUND' };
    for (const url of ['/v1/user/redirect_config', '/v1/user/referrals', '/v1/user/mostUsedAlgo']) {
      const res = await get(t.app, url, { cookie: alice.cookie, query: theirs });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    const writes: [string, Record<string, string>, Record<string, string> | undefined][] = [
      ['/v1/user/remove_account', theirs, undefined],
      ['/v1/user/keys/regenerate', { key: 'api_key' }, theirs],
      ['/v1/user/redirect_config/update', { redirect_settings: '{}' }, theirs],
      ['/v1/user/coupon', { coupon: 'WHATEVER' }, theirs],
    ];
    for (const [url, fields, query] of writes) {
      const res = await post(t.app, url, fields, { cookie: alice.cookie, ...(query ? { query } : {}) });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    // An account that does not exist at all answers exactly the same.
    const none = await get(t.app, '/v1/user/redirect_config', {
      cookie: alice.cookie,
      query: { account_name: 'no_such_acct' },
    });
    expect(none.json()).toEqual(notFound);
    // Bob's account is untouched.
    const bobs = accountListResponse.parse((await get(t.app, '/v1/user/accounts', { cookie: bob.cookie })).json());
    expect(bobs.accounts.map((a) => a.username)).toEqual([bob.username]);
    expect((await config(alice)).account_specific.map((a) => a.username)).toEqual([alice.username]);
  });

  it('regenerates the API key or the observer key; the old one stops working', async () => {
    const user = await registerUser(t.app);
    const before = (await config(user)).account_specific[0];
    const res = await post(
      t.app,
      '/v1/user/keys/regenerate',
      { key: 'observer_key' },
      {
        cookie: user.cookie,
        query: { account_name: user.username },
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const { value } = regenerateKeyResponse.parse(res.json());
    expect(value).not.toBe(before?.observer_key);
    const after = (await config(user)).account_specific[0];
    expect(after?.observer_key).toBe(value);
    expect(after?.api_key).toBe(before?.api_key);
    expect(
      (await get(t.app, '/v1/test/observer', { query: { observer_key: before?.observer_key ?? '' } })).statusCode,
    ).toBe(404);
    expect((await get(t.app, '/v1/test/observer', { query: { observer_key: value } })).json()).toEqual({
      username: user.username,
    });

    const api = await post(
      t.app,
      '/v1/user/keys/regenerate',
      { key: 'api_key' },
      {
        cookie: user.cookie,
        query: { account_name: user.username },
      },
    );
    const newApiKey = regenerateKeyResponse.parse(api.json()).value;
    expect((await get(t.app, '/v1/test/api-user', { query: { apiKey: before?.api_key ?? '' } })).statusCode).toBe(404);
    expect((await get(t.app, '/v1/test/api-user', { query: { apiKey: newApiKey } })).json()).toEqual({
      username: user.username,
    });
    const bad = await post(
      t.app,
      '/v1/user/keys/regenerate',
      { key: 'password' },
      {
        cookie: user.cookie,
        query: { account_name: user.username },
      },
    );
    expect(bad.statusCode).toBe(400);
    const log = await userLogOfUser(t.database.db, await userId(user));
    expect(log.slice(0, 2).map((e) => e.log_name)).toEqual(['api_key_regenerated', 'observer_key_regenerated']);
  });

  it('gives an observer key read-only access to one account: any write is refused', async () => {
    const user = await registerUser(t.app);
    const key = (await config(user)).account_specific[0]?.observer_key ?? '';
    const read = await get(t.app, '/v1/test/observer', { query: { observer_key: key } });
    expect(read.json()).toEqual({ username: user.username });
    const write = await post(t.app, '/v1/test/observer', {}, { query: { observer_key: key }, json: true });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({ error: 'This key gives read-only access', code: 'FORBIDDEN' });
    // An observer key is not a session: the account calls refuse it.
    const regen = await post(
      t.app,
      '/v1/user/keys/regenerate',
      { key: 'api_key' },
      {
        query: { account_name: user.username, observer_key: key },
      },
    );
    expect(regen.statusCode).toBe(401);
  });

  it('hides admin routes from everyone but admins (404)', async () => {
    const user = await registerUser(t.app);
    expect((await get(t.app, '/v1/test/admin-only')).statusCode).toBe(401);
    const res = await get(t.app, '/v1/test/admin-only', { cookie: user.cookie });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND' });
    await t.database.db.updateTable('users').set({ is_admin: true }).where('email', '=', user.email).execute();
    const admin = await get(t.app, '/v1/test/admin-only', { cookie: user.cookie });
    expect(admin.statusCode).toBe(200);
    const info = await get(t.app, '/v1/user/info', { cookie: user.cookie });
    expect(info.json()).toMatchObject({ is_admin: true });
  });

  it('limits the number of accounts of one user', async () => {
    const user = await registerUser(t.app);
    for (let i = 2; i <= 20; i++) {
      const res = await post(
        t.app,
        '/v1/user/new_account',
        { username: `${user.username}_${i}`.slice(-32) },
        { cookie: user.cookie },
      );
      expect(res.statusCode, res.body).toBe(200);
    }
    const over = await post(t.app, '/v1/user/new_account', { username: 'one_too_many' }, { cookie: user.cookie });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ error: 'You can have at most 20 accounts', code: 'TOO_MANY_ACCOUNTS' });
  });

  it('parallel new accounts never exceed the limit', async () => {
    const user = await registerUser(t.app);
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        post(t.app, '/v1/user/new_account', { username: `${user.username}_p${i}`.slice(-32) }, { cookie: user.cookie }),
      ),
    );
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(19);
    const refused = answers.filter((res) => res.statusCode !== 200);
    expect(refused).toHaveLength(6);
    for (const res of refused) expect(res.json()).toMatchObject({ code: 'TOO_MANY_ACCOUNTS' });
    const list = accountListResponse.parse((await get(t.app, '/v1/user/accounts', { cookie: user.cookie })).json());
    expect(list.accounts).toHaveLength(20);
  });
});
