import { userLogOfUser } from '@lodestone/db';
import { testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, nextAddress, post, registerUser, sessionCookie } from '../../../test/accounts.js';
import { adminPost, newSession, registerAdmin, userIdOf } from '../../../test/admins.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe.each(testEngines())('POST /v1/admin/login on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  const info = async (cookie: string | undefined) => (await get(t.app, '/v1/user/info', { cookie })).json();

  it("gives the browser the user's session marked as impersonated, ending the admin's own", async () => {
    const admin = await registerAdmin(t);
    const miner = await registerUser(t.app);
    const res = await adminPost(t, 'login', { email: ` ${miner.email.toUpperCase()}` }, admin.cookie, {
      remoteAddress: '10.20.30.40',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: true });
    const cookie = sessionCookie(res);
    expect(cookie).toBeDefined();
    const set = res.cookies.find((c) => c.name === 'lodestone_session');
    expect(set).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    expect(await info(cookie)).toMatchObject({
      result: true,
      email: miner.email,
      is_admin: false,
      impersonated: true,
      accounts: [{ username: miner.username }],
    });
    // The user's pages work in the impersonated session.
    const accounts = await get(t.app, '/v1/user/accounts', { cookie });
    expect(accounts.statusCode).toBe(200);
    // The admin's session is over: that cookie is nobody's now.
    expect(await info(admin.cookie)).toEqual({ result: false });
    expect((await get(t.app, '/v1/admin/users', { cookie: admin.cookie })).statusCode).toBe(401);

    const session = await t.database.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', await userIdOf(t, miner.email))
      .where('impersonator_user_id', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(session.impersonator_user_id).toBe(admin.userId);

    // Both logs record it.
    const [adminEntry] = await userLogOfUser(t.database.db, admin.userId, 1);
    expect(adminEntry).toMatchObject({
      log_name: 'admin_login_as',
      log_value: { email: miner.email, ip: '10.20.30.40' },
    });
    const [minerEntry] = await userLogOfUser(t.database.db, await userIdOf(t, miner.email), 1);
    expect(minerEntry).toMatchObject({
      log_name: 'admin_logged_in_as_user',
      log_value: { admin_email: admin.email, admin_user_id: admin.userId.toString(), ip: '10.20.30.40' },
    });
    // The user's own last login is not the admin's visit.
    const user = await t.database.db
      .selectFrom('users')
      .select('last_login_at')
      .where('email', '=', miner.email)
      .executeTakeFirstOrThrow();
    expect(user.last_login_at).toBeNull();
  });

  it('logout ends the impersonation and leaves the admin logged out', async () => {
    const admin = await registerAdmin(t);
    const miner = await registerUser(t.app);
    const res = await adminPost(t, 'login', { email: miner.email }, admin.cookie);
    const cookie = sessionCookie(res);
    const logout = await post(t.app, '/v1/user/logout', {}, { cookie });
    expect(logout.json()).toEqual({ result: true });
    expect(logout.cookies.find((c) => c.name === 'lodestone_session')?.value).toBe('');

    // Neither cookie the browser ever held works any more, as the user or as the admin.
    for (const c of [cookie, admin.cookie]) {
      expect(await info(c)).toEqual({ result: false });
      expect((await get(t.app, '/v1/admin/users', { cookie: c })).statusCode).toBe(401);
      expect((await get(t.app, '/v1/user/accounts', { cookie: c })).statusCode).toBe(401);
    }
    // The user's own session was never touched.
    expect(await info(miner.cookie)).toMatchObject({ email: miner.email, impersonated: false });
  });

  it('refuses unknown and deleted users (404) and other admins (403), writing nothing', async () => {
    const admin = await registerAdmin(t);
    const before = (await userLogOfUser(t.database.db, admin.userId, 1000)).length;
    const unknown = await adminPost(t, 'login', { email: 'nobody@example.org' }, admin.cookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'No user has this e-mail address', code: 'USER_NOT_FOUND' });

    const gone = await registerUser(t.app);
    const goneId = await userIdOf(t, gone.email);
    await post(t.app, '/v1/user/remove_account', { account_name: gone.username }, { cookie: gone.cookie });
    const deleted = await adminPost(t, 'login', { email: `deleted-${goneId}@deleted.invalid` }, admin.cookie);
    expect(deleted.statusCode).toBe(404);

    const other = await registerAdmin(t);
    const otherAdmin = await adminPost(t, 'login', { email: other.email }, admin.cookie);
    expect(otherAdmin.statusCode).toBe(403);
    expect(otherAdmin.json()).toEqual({ error: 'Admins cannot log in as another admin', code: 'TARGET_IS_ADMIN' });
    const self = await adminPost(t, 'login', { email: admin.email }, admin.cookie);
    expect(self.statusCode).toBe(403);

    expect(sessionCookie(otherAdmin)).toBeUndefined();
    expect((await userLogOfUser(t.database.db, admin.userId, 1000)).length).toBe(before);
    // Refusals leave the admin logged in.
    expect(await info(admin.cookie)).toMatchObject({ email: admin.email, is_admin: true });
  });

  it('is rate-limited per admin (429 with Retry-After), whatever the address', async () => {
    const admin = await registerAdmin(t);
    const miner = await registerUser(t.app);
    for (let i = 0; i < 10; i++) {
      const res = await adminPost(t, 'login', { email: miner.email }, await newSession(t, admin.userId), {
        remoteAddress: nextAddress(),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const limited = await adminPost(t, 'login', { email: miner.email }, await newSession(t, admin.userId));
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The limit is on logging in as users, not on the other admin calls.
    expect((await get(t.app, '/v1/admin/users', { cookie: await newSession(t, admin.userId) })).statusCode).toBe(200);
    // Another admin is not held back by it.
    const other = await registerAdmin(t);
    expect((await adminPost(t, 'login', { email: miner.email }, other.cookie)).statusCode).toBe(200);
  });
});
