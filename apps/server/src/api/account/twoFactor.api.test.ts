import { generate2faResponse } from '@lodestone/contract';
import { userLogOfUser } from '@lodestone/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  get,
  loginAs,
  nextAddress,
  post,
  registerUser,
  SESSION,
  sessionCookie,
  type TestUser,
  totpClock,
  totpCode,
} from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe('two-factor authentication (TOTP)', () => {
  let t: TestApp;
  const clock = totpClock();
  const { epoch, nextStep } = clock;

  beforeAll(async () => {
    t = await createTestApp({}, undefined, undefined, { now: clock.now });
  });
  afterAll(async () => {
    await t?.close();
  });

  const userIdOf = async (email: string) =>
    (await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  /** generate2FA as the site calls it: a state-changing GET, fetched from our own pages. */
  const generateCall = (user: TestUser) =>
    t.app.inject({
      url: '/v1/user/config/generate2FA',
      cookies: { [SESSION]: user.cookie },
      headers: { 'sec-fetch-site': 'same-origin' },
    });

  async function generate(user: TestUser) {
    const res = await generateCall(user);
    expect(res.statusCode, res.body).toBe(200);
    return generate2faResponse.parse(res.json());
  }

  async function enabledUser(): Promise<TestUser & { secret: string }> {
    const user = await registerUser(t.app);
    const { result: secret } = await generate(user);
    const res = await post(
      t.app,
      '/v1/user/config/enable2FA',
      { password: user.password, code: await totpCode(secret, epoch()) },
      { cookie: user.cookie },
    );
    expect(res.statusCode, res.body).toBe(200);
    return { ...user, secret };
  }

  it('generates a pending secret with its otpauth URL and QR image; enabling needs a valid code', async () => {
    const user = await registerUser(t.app);
    const { result: secret, otpauth_url } = await generate(user);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_url).toContain(`secret=${secret}`);
    expect(otpauth_url).toContain(encodeURIComponent(user.email));

    const qr = await get(t.app, `/v1/2fa/${secret}`, { cookie: user.cookie });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toBe('image/png');
    expect(qr.headers['cache-control']).toBe('no-store');
    expect(qr.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    const wrong = await post(
      t.app,
      '/v1/user/config/enable2FA',
      { password: user.password, code: '000000' },
      { cookie: user.cookie },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'Invalid 2FA code', code: 'INVALID_2FA_CODE' });
    const malformed = await post(
      t.app,
      '/v1/user/config/enable2FA',
      { password: user.password, code: '12ab' },
      { cookie: user.cookie },
    );
    expect(malformed.json().error).toBe('The 2FA code has 6 digits');

    const ok = await post(
      t.app,
      '/v1/user/config/enable2FA',
      { password: user.password, code: await totpCode(secret, epoch()) },
      { cookie: user.cookie },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await get(t.app, '/v1/user/info', { cookie: user.cookie })).json()).toMatchObject({
      two_factor_enabled: true,
    });
    // The secret is no longer pending: its QR code is gone, and a new one cannot be generated.
    expect((await get(t.app, `/v1/2fa/${secret}`, { cookie: user.cookie })).statusCode).toBe(404);
    const again = await generateCall(user);
    expect(again.json()).toEqual({ error: 'Two-factor authentication is already enabled', code: 'TWO_FACTOR_ENABLED' });
  });

  it('serves the QR code only of the logged-in user’s own pending secret', async () => {
    const alice = await registerUser(t.app);
    const bob = await registerUser(t.app);
    const { result: secret } = await generate(alice);
    expect((await get(t.app, `/v1/2fa/${secret}`)).statusCode).toBe(401);
    expect((await get(t.app, `/v1/2fa/${secret}`, { cookie: bob.cookie })).statusCode).toBe(404);
    expect((await get(t.app, '/v1/2fa/JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', { cookie: alice.cookie })).statusCode).toBe(
      404,
    );
    expect((await get(t.app, '/v1/2fa/not-base32', { cookie: alice.cookie })).statusCode).toBe(404);
  });

  it('requires the code at login, refuses a wrong one and a replayed one', async () => {
    const user = await enabledUser();
    const noCode = await loginAs(t.app, { email: user.email, password: user.password });
    expect(noCode.statusCode).toBe(401);
    expect(noCode.json()).toEqual({
      error: 'Enter the 6-digit code from your authenticator app',
      code: 'TOTP_REQUIRED',
    });
    expect(sessionCookie(noCode)).toBeUndefined();

    const wrong = await loginAs(t.app, { email: user.email, password: user.password, code: '123456' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Invalid 2FA code', code: 'INVALID_2FA_CODE' });

    // The code that enabled 2FA was used already (same time step): a replay is refused.
    const replayOfEnable = await loginAs(t.app, {
      email: user.email,
      password: user.password,
      code: await totpCode(user.secret, epoch()),
    });
    expect(replayOfEnable.json().error).toBe('Invalid 2FA code');

    nextStep();
    const code = await totpCode(user.secret, epoch());
    const ok = await loginAs(t.app, { email: user.email, password: user.password, code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(sessionCookie(ok)).toBeDefined();
    const replay = await loginAs(t.app, { email: user.email, password: user.password, code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('Invalid 2FA code');

    // A wrong password with a right code says nothing about the code.
    nextStep();
    const badPassword = await loginAs(t.app, {
      email: user.email,
      password: 'not the password',
      code: await totpCode(user.secret, epoch()),
    });
    expect(badPassword.json().error).toBe('Invalid email or password');
  });

  it('enables 2FA only with the password: a session cookie alone cannot switch it on', async () => {
    const user = await registerUser(t.app);
    const { result: secret } = await generate(user);
    const code = await totpCode(secret, epoch());
    const enable = (fields: Record<string, string>) =>
      post(t.app, '/v1/user/config/enable2FA', fields, { cookie: user.cookie, remoteAddress: nextAddress() });

    const noPassword = await enable({ code });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toEqual({
      error: 'Enter your password to confirm this change',
      code: 'PASSWORD_REQUIRED',
    });
    const wrongPassword = await enable({ password: 'not the password', code });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toEqual({ error: 'Wrong password', code: 'INVALID_PASSWORD' });
    // Refused twice, changed nothing: 2FA is still off and the session still works.
    expect((await get(t.app, '/v1/user/info', { cookie: user.cookie })).json()).toMatchObject({
      two_factor_enabled: false,
    });
    const ok = await enable({ password: user.password, code });
    expect(ok.statusCode, ok.body).toBe(200);

    const log = await userLogOfUser(t.database.db, await userIdOf(user.email));
    const failed = log.filter((e) => e.log_name === 'reauth_failed').map((e) => e.log_value);
    expect(failed).toEqual([expect.objectContaining({ action: '2fa_enable', reason: 'password' })]);
  });

  it('a wrong password there counts towards the login lockout of the address', async () => {
    const user = await registerUser(t.app);
    const { result: secret } = await generate(user);
    const code = await totpCode(secret, epoch());
    for (let i = 0; i < 5; i++) {
      const res = await post(
        t.app,
        '/v1/user/config/enable2FA',
        { password: `wrong password ${i}`, code },
        { cookie: user.cookie, remoteAddress: nextAddress() },
      );
      expect(res.json().code).toBe('INVALID_PASSWORD');
    }
    // The fifth failure locked the address: the right password waits too, and so does the login form.
    const locked = await post(
      t.app,
      '/v1/user/config/enable2FA',
      { password: user.password, code },
      { cookie: user.cookie, remoteAddress: nextAddress() },
    );
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('LOGIN_LOCKED');
    expect(locked.json().error).toMatch(/^Too many wrong passwords or codes\. Try again in \d+ seconds\.$/);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const login = await loginAs(t.app, { email: user.email, password: user.password });
    expect(login.json().code).toBe('LOGIN_LOCKED');
  });

  it('disables 2FA only with the password and a valid, unused code', async () => {
    const user = await enabledUser();
    const disable = (fields: Record<string, string>) =>
      post(t.app, '/v1/user/config/disable2FA', fields, { cookie: user.cookie, remoteAddress: nextAddress() });
    const reused = await disable({ password: user.password, code: await totpCode(user.secret, epoch()) });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toBe('Invalid 2FA code');
    const wrong = await disable({ password: user.password, code: '000000' });
    expect(wrong.json().error).toBe('Invalid 2FA code');
    nextStep();
    // A valid code without the password, or with a wrong one, is refused and not used up.
    const fresh = await totpCode(user.secret, epoch());
    const noPassword = await disable({ code: fresh });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toEqual({
      error: 'Enter your password to confirm this change',
      code: 'PASSWORD_REQUIRED',
    });
    const wrongPassword = await disable({ password: 'not the password', code: fresh });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toEqual({ error: 'Wrong password', code: 'INVALID_PASSWORD' });
    const noCode = await disable({ password: user.password });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().error).toBe('code is required');
    expect((await get(t.app, '/v1/user/info', { cookie: user.cookie })).json()).toMatchObject({
      two_factor_enabled: true,
    });
    const ok = await disable({ password: user.password, code: fresh });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await get(t.app, '/v1/user/info', { cookie: user.cookie })).json()).toMatchObject({
      two_factor_enabled: false,
    });
    const off = await disable({ password: user.password, code: '000000' });
    expect(off.json()).toEqual({ error: 'Two-factor authentication is not enabled', code: 'TWO_FACTOR_DISABLED' });
    // Login works without a code again.
    const login = await loginAs(t.app, { email: user.email, password: user.password });
    expect(login.statusCode).toBe(200);

    const log = await userLogOfUser(t.database.db, await userIdOf(user.email));
    expect(log.map((e) => e.log_name)).toEqual(expect.arrayContaining(['2fa_enabled', '2fa_disabled']));
    // Newest first: the wrong password, the wrong code, the reused code.
    expect(log.filter((e) => e.log_name === 'reauth_failed').map((e) => e.log_value)).toEqual([
      expect.objectContaining({ action: '2fa_disable', reason: 'password' }),
      expect.objectContaining({ action: '2fa_disable', reason: '2fa' }),
      expect.objectContaining({ action: '2fa_disable', reason: '2fa' }),
    ]);
  });

  it('refuses enabling without a generated secret', async () => {
    const user = await registerUser(t.app);
    const res = await post(
      t.app,
      '/v1/user/config/enable2FA',
      { password: user.password, code: '123456' },
      { cookie: user.cookie },
    );
    expect(res.json()).toEqual({ error: 'Generate a new 2FA secret first', code: 'NO_PENDING_2FA' });
  });
});
