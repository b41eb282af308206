import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, nextAddress, post, registerUser, solveCaptcha } from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe('abuse limits', () => {
  let t: TestApp;
  let offsetMs = 0;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, undefined, { now: () => new Date(Date.now() + offsetMs) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('limits logins per address: the 11th within a minute is 429 with standard rate-limit headers', async () => {
    const address = nextAddress();
    for (let i = 0; i < 10; i++) {
      const res = await post(
        t.app,
        '/v1/user/login',
        { email: 'a@example.com', password: 'x' },
        { remoteAddress: address },
      );
      expect(res.statusCode).toBe(400); // no robot check: refused, but counted
      expect(res.headers['ratelimit-limit']).toBe('10');
      expect(res.headers['ratelimit-remaining']).toBe(String(9 - i));
    }
    const limited = await post(
      t.app,
      '/v1/user/login',
      { email: 'a@example.com', password: 'x' },
      { remoteAddress: address },
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.json().error).toMatch(/^Too many requests\. Try again in /);
    expect(limited.headers['ratelimit-limit']).toBe('10');
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(Number(limited.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    const other = await post(
      t.app,
      '/v1/user/login',
      { email: 'a@example.com', password: 'x' },
      { remoteAddress: nextAddress() },
    );
    expect(other.statusCode).toBe(400);
  });

  it('limits registrations and recovery requests per address', async () => {
    const cases: [string, number][] = [
      ['/v1/user/register', 10],
      ['/v1/password/reset', 5],
      ['/v1/password/reset_send', 10],
    ];
    for (const [url, max] of cases) {
      const address = nextAddress();
      for (let i = 0; i < max; i++) {
        expect((await post(t.app, url, {}, { remoteAddress: address })).statusCode, `${url} #${i}`).toBe(400);
      }
      expect((await post(t.app, url, {}, { remoteAddress: address })).statusCode, url).toBe(429);
    }
  });

  it('locks an address out after repeated failed logins, with back-off, whether or not it is registered', async () => {
    const user = await registerUser(t.app);
    const attempt = (email: string, password: string) => loginAs(t.app, { email, password });
    for (const email of [user.email, 'unregistered@example.com']) {
      for (let i = 1; i <= 5; i++) {
        const res = await attempt(email, 'wrong password!');
        expect(res.statusCode, `${email} #${i}`).toBe(401);
        expect(res.json().error).toBe('Invalid email or password');
      }
      // Locked for 30 s: even the right password is not checked, and the answer is the same for both addresses.
      const locked = await attempt(email, user.password);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({
        error: 'Too many failed logins. Try again in 30 seconds.',
        code: 'LOGIN_LOCKED',
      });
      expect(locked.headers['retry-after']).toBe('30');
    }

    offsetMs += 31_000;
    // The next failure doubles the lock.
    const sixth = await attempt(user.email, 'wrong password!');
    expect(sixth.statusCode).toBe(401);
    const longer = await attempt(user.email, user.password);
    expect(longer.json().error).toBe('Too many failed logins. Try again in 60 seconds.');

    offsetMs += 61_000;
    const ok = await attempt(user.email, user.password);
    expect(ok.statusCode, ok.body).toBe(200);
    // Success clears the count: one more failure does not lock.
    expect((await attempt(user.email, 'wrong password!')).statusCode).toBe(401);
    expect((await attempt(user.email, user.password)).statusCode).toBe(200);
  });

  it('locks out concurrent failed logins: only the attempts up to the lock are checked', async () => {
    const user = await registerUser(t.app);
    // Each from its own address, so only the lockout (not the per-address limit) can refuse them.
    const requests = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const remoteAddress = nextAddress();
        return { remoteAddress, captchaToken: await solveCaptcha(t.app, remoteAddress) };
      }),
    );
    const answers = await Promise.all(
      requests.map(({ remoteAddress, captchaToken }) =>
        post(
          t.app,
          '/v1/user/login',
          { email: user.email, password: 'wrong password!', code: '', captchaToken },
          { remoteAddress },
        ),
      ),
    );
    const statuses = answers.map((res) => res.statusCode);
    // The four free failures and the fifth, which sets the lock; every other attempt is refused unchecked.
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    const locked = answers.filter((res) => res.statusCode === 429);
    expect(locked).toHaveLength(15);
    for (const res of locked) {
      expect(res.json()).toMatchObject({ code: 'LOGIN_LOCKED' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await loginAs(t.app, { email: user.email, password: user.password })).statusCode).toBe(429);
    const row = await t.database.db
      .selectFrom('login_failures')
      .select('failures')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    expect(row.failures).toBe(5);
  });

  it('limits coupon attempts per user, across addresses', async () => {
    const user = await registerUser(t.app);
    for (let i = 0; i < 10; i++) {
      const res = await post(
        t.app,
        '/v1/user/coupon',
        { coupon: `NOPE${i}` },
        {
          cookie: user.cookie,
          query: { account_name: user.username },
          remoteAddress: nextAddress(),
        },
      );
      expect(res.json().code).toBe('UNKNOWN_COUPON');
    }
    const limited = await post(
      t.app,
      '/v1/user/coupon',
      { coupon: 'NOPE' },
      {
        cookie: user.cookie,
        query: { account_name: user.username },
        remoteAddress: nextAddress(),
      },
    );
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits 2FA attempts per address', async () => {
    const user = await registerUser(t.app);
    const address = nextAddress();
    for (let i = 0; i < 10; i++) {
      const res = await post(
        t.app,
        '/v1/user/config/enable2FA',
        { code: '000000' },
        { cookie: user.cookie, remoteAddress: address },
      );
      expect(res.statusCode).toBe(400);
    }
    const limited = await post(
      t.app,
      '/v1/user/config/enable2FA',
      { code: '000000' },
      { cookie: user.cookie, remoteAddress: address },
    );
    expect(limited.statusCode).toBe(429);
  });
});
