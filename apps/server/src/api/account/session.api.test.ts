import { userInfo } from '@lodestone/contract';
import { userLogOfUser } from '@lodestone/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  get,
  loginAs,
  nextAddress,
  ORIGIN,
  post,
  registerUser,
  SESSION,
  sessionCookie,
  solveCaptcha,
} from '../../../test/accounts.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe('register, login, info, logout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function userIdOf(email: string): Promise<bigint> {
    const row = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('registers with a multipart form, logs the new user in and answers result: true', async () => {
    const address = nextAddress();
    const res = await post(
      t.app,
      '/v1/user/register',
      {
        username: 'FirstMiner',
        email: ' First.Miner@Example.com ',
        password: 'a long enough password',
        referral: '',
        captchaToken: await solveCaptcha(t.app, address),
      },
      { remoteAddress: address },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: true });
    const cookie = res.cookies.find((c) => c.name === SESSION);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.maxAge).toBe(30 * 24 * 3600);

    const info = await get(t.app, '/v1/user/info', { cookie: cookie?.value });
    expect(info.statusCode).toBe(200);
    const body = userInfo.parse(info.json());
    expect(body).toMatchObject({
      result: true,
      email: 'first.miner@example.com',
      two_factor_enabled: false,
      is_admin: false,
      impersonated: false,
    });
    expect(body.accounts.map((a) => a.username)).toEqual(['FirstMiner']);

    // The database keeps the SHA-256 of the token, never the token; the password as Argon2id.
    const session = await t.database.db.selectFrom('sessions').selectAll().executeTakeFirstOrThrow();
    expect(session.id).toMatch(/^[0-9a-f]{64}$/);
    expect(session.id).not.toBe(cookie?.value);
    const user = await t.database.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'first.miner@example.com')
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    const log = await userLogOfUser(t.database.db, user.id);
    expect(log.map((e) => e.log_name).sort()).toEqual(['account_created', 'registered']);
  });

  it('accepts JSON bodies from API clients', async () => {
    const address = nextAddress();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/user/register',
      remoteAddress: address,
      headers: { origin: ORIGIN },
      payload: {
        username: 'json_miner',
        email: 'json@example.com',
        password: 'a long enough password',
        captchaToken: await solveCaptcha(t.app, address),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(sessionCookie(res)).toBeDefined();
  });

  it('refuses a taken username (any letter case) and a registered e-mail with clear messages', async () => {
    const first = await registerUser(t.app);
    const again = async (username: string, email: string) => {
      const address = nextAddress();
      return post(
        t.app,
        '/v1/user/register',
        { username, email, password: 'a long enough password', captchaToken: await solveCaptcha(t.app, address) },
        { remoteAddress: address },
      );
    };
    const name = await again(first.username.toUpperCase(), 'other@example.com');
    expect(name.statusCode).toBe(409);
    expect(name.json()).toEqual({ error: 'Username already taken', code: 'USERNAME_TAKEN' });
    const mail = await again('unused_name', first.email.toUpperCase());
    expect(mail.statusCode).toBe(409);
    expect(mail.json()).toEqual({ error: 'Email already registered', code: 'EMAIL_TAKEN' });
  });

  it('validates the fields with messages people can read', async () => {
    const address = nextAddress();
    const captchaToken = await solveCaptcha(t.app, address);
    const cases: [Record<string, string>, string][] = [
      [
        { username: 'ab', email: 'x@example.com', password: 'a long enough password', captchaToken },
        'Username must be 3 to 32 letters, digits, dashes or underscores',
      ],
      [
        { username: 'okname', email: 'not-an-email', password: 'a long enough password', captchaToken },
        'Invalid email address',
      ],
      [
        { username: 'okname', email: 'x@example.com', password: 'short', captchaToken },
        'Password must be at least 10 characters',
      ],
      [{ email: 'x@example.com', password: 'a long enough password', captchaToken }, 'username is required'],
      [
        { username: 'okname', email: 'x@example.com', password: 'a long enough password' },
        'Please verify you are not a robot.',
      ],
    ];
    for (const [fields, message] of cases) {
      const res = await post(t.app, '/v1/user/register', fields, { remoteAddress: address });
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().error).toBe(message);
    }
  });

  it('answers {result: false} on info without a session, and with a made-up cookie', async () => {
    expect((await get(t.app, '/v1/user/info')).json()).toEqual({ result: false });
    const res = await get(t.app, '/v1/user/info', { cookie: 'not-a-real-session-token' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: false });
    // Other calls still answer 401 (docs/website.md, "Session": the site goes to /login).
    const config = await get(t.app, '/v1/user/config', { cookie: 'not-a-real-session-token' });
    expect(config.statusCode).toBe(401);
    expect(config.json()).toEqual({ error: 'Not logged in', code: 'UNAUTHENTICATED' });
  });

  it('logs in, rotating the session, and refuses a wrong password and an unknown e-mail alike', async () => {
    const user = await registerUser(t.app);
    const ok = await loginAs(t.app, { email: user.email, password: user.password }, { cookie: user.cookie });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ result: true });
    const fresh = sessionCookie(ok);
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(user.cookie);
    // Rotation: the session the browser had before logging in is over.
    expect((await get(t.app, '/v1/user/info', { cookie: user.cookie })).json()).toEqual({ result: false });
    expect((await get(t.app, '/v1/user/info', { cookie: fresh })).statusCode).toBe(200);

    const wrong = await loginAs(t.app, { email: user.email, password: 'not the password' });
    const unknown = await loginAs(t.app, { email: 'nobody@example.com', password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
    expect(unknown.json()).toEqual(wrong.json());
    expect(sessionCookie(wrong)).toBeUndefined();

    const log = await userLogOfUser(t.database.db, await userIdOf(user.email));
    expect(log[0]).toMatchObject({ log_name: 'failed_login', log_value: { reason: 'password' } });
    expect(log.some((e) => e.log_name === 'login')).toBe(true);
  });

  it('logs out: the session is revoked server-side and the cookie cleared', async () => {
    const user = await registerUser(t.app);
    const res = await post(t.app, '/v1/user/logout', {}, { cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ result: true });
    const cleared = res.cookies.find((c) => c.name === SESSION);
    expect(cleared?.value).toBe('');
    // Replaying the old cookie does not work: the session is gone on the server, not just in the browser.
    expect((await get(t.app, '/v1/user/info', { cookie: user.cookie })).json()).toEqual({ result: false });
    const row = await t.database.db
      .selectFrom('sessions')
      .select('revoked_at')
      .where('user_id', '=', await userIdOf(user.email))
      .where('revoked_at', 'is not', null)
      .executeTakeFirst();
    expect(row?.revoked_at).toBeInstanceOf(Date);
    const log = await userLogOfUser(t.database.db, await userIdOf(user.email));
    expect(log[0]?.log_name).toBe('logout');
  });

  it('refuses file uploads in forms', async () => {
    const form = new FormData();
    form.set('username', 'uploader');
    form.set('avatar', new Blob(['x'.repeat(100)]), 'a.png');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/user/register',
      remoteAddress: nextAddress(),
      headers: { origin: ORIGIN, 'content-type': request.headers.get('content-type') ?? '' },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(res.statusCode).toBe(413);
  });

  it('slides the expiry forward when a session is used', async () => {
    const user = await registerUser(t.app);
    const id = await userIdOf(user.email);
    await sql`update sessions set last_seen_at = now() - interval '1 hour', expires_at = now() + interval '1 day' where user_id = ${id}`.execute(
      t.database.db,
    );
    const res = await get(t.app, '/v1/user/info', { cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === SESSION)).toMatchObject({ value: user.cookie, maxAge: 30 * 24 * 3600 });
    const row = await t.database.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.expires_at.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600_000);
  });

  it('refuses expired sessions', async () => {
    const user = await registerUser(t.app);
    await sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${await userIdOf(user.email)}`.execute(
      t.database.db,
    );
    expect((await get(t.app, '/v1/user/info', { cookie: user.cookie })).json()).toEqual({ result: false });
  });
});

describe('robot check', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const register = (captchaToken: string | undefined, n: number) => {
    const fields: Record<string, string> = {
      username: `robot${n}`,
      email: `robot${n}@example.com`,
      password: 'a long enough password',
    };
    if (captchaToken !== undefined) fields.captchaToken = captchaToken;
    return post(t.app, '/v1/user/register', fields, { remoteAddress: nextAddress() });
  };

  it('serves signed, expiring challenges that are not cached', async () => {
    const res = await get(t.app, '/v1/captcha/challenge');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ algorithm: 'SHA-256', maxnumber: 1000 });
    expect(body.salt).toMatch(/\?expires=\d+&$/);
  });

  it('refuses a missing, empty, garbled or forged token', async () => {
    const missing = await register(undefined, 1);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: 'Please verify you are not a robot.', code: 'VALIDATION_FAILED' });
    for (const token of ['', 'not base64 json', Buffer.from('{"a":1}').toString('base64')]) {
      const res = await register(token, 2);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Please verify you are not a robot.');
    }
    // A solved challenge with a changed number, or signed with another key, is refused.
    const good = JSON.parse(Buffer.from(await solveCaptcha(t.app), 'base64').toString());
    const wrongNumber = Buffer.from(JSON.stringify({ ...good, number: good.number + 1 })).toString('base64');
    const wrongSignature = Buffer.from(JSON.stringify({ ...good, signature: 'ab'.repeat(32) })).toString('base64');
    for (const token of [wrongNumber, wrongSignature]) {
      const res = await register(token, 3);
      expect(res.json()).toEqual({ error: 'Please verify you are not a robot.', code: 'CAPTCHA_FAILED' });
    }
  });

  it('accepts a solved token once: a replay is refused', async () => {
    const token = await solveCaptcha(t.app);
    expect((await register(token, 4)).statusCode).toBe(200);
    const replay = await register(token, 5);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ error: 'Please verify you are not a robot.', code: 'CAPTCHA_FAILED' });
  });

  it('refuses a challenge whose expiry was rewritten (the signature covers it)', async () => {
    const token = await solveCaptcha(t.app);
    await sql`delete from captcha_solutions`.execute(t.database.db);
    const payload = JSON.parse(Buffer.from(token, 'base64').toString());
    // Rewriting the expiry breaks the signature; the check of the time itself is shown by the salt rule.
    const expired = { ...payload, salt: payload.salt.replace(/expires=\d+/, 'expires=1') };
    const res = await register(Buffer.from(JSON.stringify(expired)).toString('base64'), 6);
    expect(res.json().error).toBe('Please verify you are not a robot.');
  });

  it('keeps its generated key in the database, so another process (or a restart) accepts the same tokens', async () => {
    const key = await t.database.db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', 'captcha_hmac_key')
      .executeTakeFirst();
    expect(key?.value).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('cross-site requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a state-changing request from a foreign origin with 403', async () => {
    const user = await registerUser(t.app);
    const res = await post(t.app, '/v1/user/logout', {}, { cookie: user.cookie, origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'Cross-site request refused', code: 'FORBIDDEN' });
    // The session was not touched.
    expect((await get(t.app, '/v1/user/info', { cookie: user.cookie })).statusCode).toBe(200);
  });

  it('uses the Referer when Origin is missing, and refuses a cookie request with neither', async () => {
    const user = await registerUser(t.app);
    const body = { username: 'second_acct' };
    const evil = await t.app.inject({
      method: 'POST',
      url: '/v1/user/new_account',
      cookies: { [SESSION]: user.cookie },
      headers: { referer: 'https://evil.example/page' },
      payload: body,
    });
    expect(evil.statusCode).toBe(403);
    const bare = await t.app.inject({
      method: 'POST',
      url: '/v1/user/new_account',
      cookies: { [SESSION]: user.cookie },
      payload: body,
    });
    expect(bare.statusCode).toBe(403);
    const ours = await t.app.inject({
      method: 'POST',
      url: '/v1/user/new_account',
      cookies: { [SESSION]: user.cookie },
      headers: { referer: `${ORIGIN}/settings` },
      payload: body,
    });
    expect(ours.statusCode, ours.body).toBe(200);
  });

  it('accepts the request’s own host as origin (a site reached by another name than PUBLIC_URL)', async () => {
    const user = await registerUser(t.app);
    const res = await post(t.app, '/v1/user/logout', {}, { cookie: user.cookie, origin: 'http://pool.internal:8080' });
    expect(res.statusCode).toBe(403);
    const same = await t.app.inject({
      method: 'POST',
      url: '/v1/user/logout',
      cookies: { [SESSION]: user.cookie },
      headers: { origin: 'http://pool.internal:8080', host: 'pool.internal:8080' },
    });
    expect(same.statusCode).toBe(200);
  });

  it('refuses a cross-site navigation to a GET that changes state (generate2FA)', async () => {
    const user = await registerUser(t.app);
    const res = await t.app.inject({
      url: '/v1/user/config/generate2FA',
      cookies: { [SESSION]: user.cookie },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(403);
    const ok = await t.app.inject({
      url: '/v1/user/config/generate2FA',
      cookies: { [SESSION]: user.cookie },
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses a cookie GET that changes state when it carries none of Origin, Referer and Sec-Fetch-Site', async () => {
    const user = await registerUser(t.app);
    const generate = (headers: Record<string, string>, cookie: string | null = user.cookie) =>
      t.app.inject({
        url: '/v1/user/config/generate2FA',
        headers,
        ...(cookie ? { cookies: { [SESSION]: cookie } } : {}),
      });
    const bare = await generate({});
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toEqual({ error: 'Cross-site request refused', code: 'FORBIDDEN' });
    // Opened from another application (a link in an e-mail): nothing proves it came from our pages.
    expect((await generate({ 'sec-fetch-site': 'none' })).statusCode).toBe(403);
    expect((await generate({ referer: 'https://evil.example/page' })).statusCode).toBe(403);
    expect((await generate({ origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(403);
    // What the site's own fetch sends (GETs carry no Origin, our Referrer-Policy sends no Referer) …
    expect((await generate({ 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    // … or what an older browser sends instead.
    expect((await generate({ referer: `${ORIGIN}/settings` })).statusCode).toBe(200);
    expect((await generate({ origin: ORIGIN })).statusCode).toBe(200);
    // Without a session cookie there is nothing to forge: the route's own answer (401), not the guard's.
    expect((await generate({}, null)).statusCode).toBe(401);
    // Reads stay open to any client that holds the cookie.
    expect((await get(t.app, '/v1/user/info', { cookie: user.cookie })).statusCode).toBe(200);
  });

  it('sets Secure cookies when PUBLIC_URL is https', async () => {
    const https = await createTestApp({ PUBLIC_URL: 'https://pool.example.org' });
    try {
      const address = nextAddress();
      const res = await https.app.inject({
        method: 'POST',
        url: '/v1/user/register',
        remoteAddress: address,
        headers: { origin: 'https://pool.example.org' },
        payload: {
          username: 'secure_miner',
          email: 'secure@example.com',
          password: 'a long enough password',
          captchaToken: await solveCaptcha(https.app, address),
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.cookies.find((c) => c.name === SESSION)?.secure).toBe(true);
    } finally {
      await https.close();
    }
  });
});
