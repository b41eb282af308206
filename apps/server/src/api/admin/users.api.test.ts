import { adminUsersResponse } from '@lodestone/contract';
import { userLogOfUser } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, loginAs, post, registerUser } from '../../../test/accounts.js';
import { registerAdmin } from '../../../test/admins.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe.each(testEngines())('GET /v1/admin/users on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists every user with their live accounts, 2FA and last own login, newest first', async () => {
    const admin = await registerAdmin(t);
    const alice = await registerUser(t.app, { username: 'AliceMiner', email: 'Alice@Example.org' });
    // A second and a third account; the third is removed and so not listed.
    for (const username of ['alice-two', 'alice-gone']) {
      const res = await post(t.app, '/v1/user/new_account', { username }, { cookie: alice.cookie });
      expect(res.statusCode, res.body).toBe(200);
    }
    const removed = await post(
      t.app,
      '/v1/user/remove_account',
      { account_name: 'alice-gone' },
      { cookie: alice.cookie },
    );
    expect(removed.statusCode, removed.body).toBe(200);
    const login = await loginAs(t.app, { email: alice.email, password: alice.password });
    expect(login.statusCode, login.body).toBe(200);

    // A user who deleted their last account is gone from the list.
    const bob = await registerUser(t.app);
    const deleted = await post(
      t.app,
      '/v1/user/remove_account',
      { account_name: bob.username },
      { cookie: bob.cookie },
    );
    expect(deleted.statusCode, deleted.body).toBe(200);

    const res = await get(t.app, '/v1/admin/users', { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    const users = adminUsersResponse.parse(res.json());
    expect(users.map((u) => u.email)).toEqual([alice.email, admin.email]);
    const [first, second] = users;
    expect(first).toEqual({
      email: 'alice@example.org',
      usernames: ['AliceMiner', 'alice-two'],
      has_2fa: false,
      last_login: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Date.now() - Date.parse(first?.last_login ?? '')).toBeLessThan(60_000);
    // Registering is not a login: the admin never logged in with a password here.
    expect(second).toEqual({ email: admin.email, usernames: [admin.username], has_2fa: true, last_login: null });
    expect(JSON.stringify(res.json())).not.toMatch(/password|totp|secret|api_key/);
  });

  it("records the listing in the admin's own log", async () => {
    const admin = await registerAdmin(t);
    await get(t.app, '/v1/admin/users', { cookie: admin.cookie, remoteAddress: '10.9.8.7' });
    const [entry] = await userLogOfUser(t.database.db, admin.userId, 1);
    expect(entry).toMatchObject({
      log_name: 'admin_users_listed',
      log_value: { ip: '10.9.8.7', count: expect.any(Number) },
    });
  });
});
