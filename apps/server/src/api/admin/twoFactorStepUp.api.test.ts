import { generate2faResponse } from '@lodestone/contract';
import { testEngines } from '@lodestone/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  get,
  loginAs,
  nextAddress,
  post,
  registerUser,
  SESSION,
  sessionCookie,
  totpClock,
  totpCode,
} from '../../../test/accounts.js';
import { adminPost, registerAdmin, userIdOf } from '../../../test/admins.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { Sessions } from '../../services/auth/sessions.js';

/**
 * Issue 15, finding 2: a stolen cookie of an admin without 2FA must not become a full admin session
 * by switching 2FA on. Admin tools need a session whose login checked a 2FA code; switching 2FA on
 * or off needs the password (and the current code to switch it off). Everything here goes through
 * the real calls, with real TOTP codes on the app's clock.
 */
describe.each(testEngines())('the admin 2FA step-up on %s', (engine) => {
  let t: TestApp;
  const clock = totpClock();
  const { epoch, nextStep } = clock;

  beforeAll(async () => {
    t = await createTestApp({}, undefined, engine, { now: clock.now });
  });
  afterAll(async () => {
    await t?.close();
  });

  const adminUsers = (cookie: string | undefined) => get(t.app, '/v1/admin/users', { cookie });

  async function generateSecret(cookie: string): Promise<string> {
    const res = await t.app.inject({
      url: '/v1/user/config/generate2FA',
      cookies: { [SESSION]: cookie },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return generate2faResponse.parse(res.json()).result;
  }

  const twoFactorCall = (action: 'enable2FA' | 'disable2FA', cookie: string, fields: Record<string, string>) =>
    post(t.app, `/v1/user/config/${action}`, fields, { cookie, remoteAddress: nextAddress() });

  async function loginWithCode(user: { email: string; password: string }, secret: string): Promise<string> {
    nextStep();
    const res = await loginAs(t.app, { ...user, code: await totpCode(secret, epoch()) });
    const cookie = sessionCookie(res);
    expect(res.statusCode, res.body).toBe(200);
    if (!cookie) throw new Error('no session cookie');
    return cookie;
  }

  const LOGIN_AGAIN = {
    error: 'Admin tools need a login with your 2FA code. Log out and log in again with your 2FA code, then retry.',
    code: 'ADMIN_2FA_REQUIRED',
  };

  it('a cookie of an admin without 2FA cannot turn itself into admin access', async () => {
    const admin = await registerAdmin(t, { twoFactor: false });
    // Only the cookie is stolen: the attacker generates a secret and tries to enable it with its code.
    const secret = await generateSecret(admin.cookie);
    const cookieOnly = await twoFactorCall('enable2FA', admin.cookie, { code: await totpCode(secret, epoch()) });
    expect(cookieOnly.statusCode).toBe(400);
    expect(cookieOnly.json()).toEqual({
      error: 'Enter your password to confirm this change',
      code: 'PASSWORD_REQUIRED',
    });
    const guessed = await twoFactorCall('enable2FA', admin.cookie, {
      password: 'a guessed password',
      code: await totpCode(secret, epoch()),
    });
    expect(guessed.json()).toEqual({ error: 'Wrong password', code: 'INVALID_PASSWORD' });
    expect((await adminUsers(admin.cookie)).statusCode).toBe(403);

    // Even 2FA enabled properly in this session (password and code) does not open the admin tools:
    // the session's login checked no code.
    const enabled = await twoFactorCall('enable2FA', admin.cookie, {
      password: admin.password,
      code: await totpCode(secret, epoch()),
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const stillRefused = await adminUsers(admin.cookie);
    expect(stillRefused.statusCode).toBe(403);
    expect(stillRefused.json()).toEqual(LOGIN_AGAIN);
    const balance = await adminPost(
      t,
      'balance',
      { username: admin.username, algorithm: '0', ticker: 'LTC', value: '1' },
      admin.cookie,
    );
    expect(balance.json()).toEqual(LOGIN_AGAIN);

    // A new login with the code opens them; the old session stays refused.
    const loggedIn = await loginWithCode(admin, secret);
    const ok = await adminUsers(loggedIn);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await adminUsers(admin.cookie)).statusCode).toBe(403);
  });

  it('a login without 2FA, later given 2FA by the operator, is not enough either', async () => {
    const admin = await registerAdmin(t, { twoFactor: false });
    await t.database.db
      .updateTable('users')
      .set({ totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' })
      .where('id', '=', admin.userId)
      .execute();
    expect((await adminUsers(admin.cookie)).json()).toEqual(LOGIN_AGAIN);
  });

  it('turning 2FA off ends the 2FA standing of every session: turning it on again needs a new login', async () => {
    const user = await registerUser(t.app);
    const userId = await userIdOf(t, user.email);
    const secret = await generateSecret(user.cookie);
    const on = await twoFactorCall('enable2FA', user.cookie, {
      password: user.password,
      code: await totpCode(secret, epoch()),
    });
    expect(on.statusCode, on.body).toBe(200);
    await t.database.db.updateTable('users').set({ is_admin: true }).where('id', '=', userId).execute();
    const session = await loginWithCode(user, secret);
    expect((await adminUsers(session)).statusCode).toBe(200);

    nextStep();
    const off = await twoFactorCall('disable2FA', session, {
      password: user.password,
      code: await totpCode(secret, epoch()),
    });
    expect(off.statusCode, off.body).toBe(200);
    const again = await generateSecret(session);
    nextStep(); // the step of the code that turned 2FA off is used up for this user
    const reenabled = await twoFactorCall('enable2FA', session, {
      password: user.password,
      code: await totpCode(again, epoch()),
    });
    expect(reenabled.statusCode, reenabled.body).toBe(200);
    expect((await adminUsers(session)).json()).toEqual(LOGIN_AGAIN);
    expect((await adminUsers(await loginWithCode(user, again))).statusCode).toBe(200);
  });

  it('a session in which an admin is logged in as a user never counts as having passed 2FA', async () => {
    const admin = await registerAdmin(t);
    // The user has 2FA for real and has logged in with it.
    const miner = await registerUser(t.app);
    const minerId = await userIdOf(t, miner.email);
    const secret = await generateSecret(miner.cookie);
    const enabled = await twoFactorCall('enable2FA', miner.cookie, {
      password: miner.password,
      code: await totpCode(secret, epoch()),
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    await loginWithCode(miner, secret);

    const res = await adminPost(t, 'login', { email: miner.email }, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const impersonated = sessionCookie(res);
    const row = await t.database.db
      .selectFrom('sessions')
      .select(['id', 'two_factor_verified_at'])
      .where('user_id', '=', minerId)
      .where('impersonator_user_id', '=', admin.userId)
      .executeTakeFirstOrThrow();
    expect(row.two_factor_verified_at).toBeNull();

    // Made an admin meanwhile, the user still gets no admin power through that session…
    await t.database.db.updateTable('users').set({ is_admin: true }).where('id', '=', minerId).execute();
    expect((await adminUsers(impersonated)).statusCode).toBe(404);
    // …and neither the session service nor the database lets such a session be marked as having passed 2FA.
    await expect(
      new Sessions(t.database.db, 3600_000).create(minerId, {
        impersonatorUserId: admin.userId,
        twoFactorVerified: true,
      }),
    ).rejects.toThrow(/never counts as having passed 2FA/);
    await expect(
      t.database.db
        .updateTable('sessions')
        .set({ two_factor_verified_at: new Date() })
        .where('id', '=', row.id)
        .execute(),
    ).rejects.toMatchObject({ code: '23514' });
  });
});
