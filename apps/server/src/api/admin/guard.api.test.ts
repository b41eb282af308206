import { testEngines } from '@lodestone/db/testing';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, nextAddress, registerUser } from '../../../test/accounts.js';
import { adminPost, newSession, registerAdmin } from '../../../test/admins.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

/** Every admin call with a body that would be accepted, so only the guard can refuse it. */
const CALLS: {
  name: string;
  call: (t: TestApp, cookie: string | undefined) => Promise<LightMyRequestResponse>;
}[] = [
  { name: 'GET admin/users', call: (t, cookie) => get(t.app, '/v1/admin/users', { cookie }) },
  { name: 'GET admin/treasury', call: (t, cookie) => get(t.app, '/v1/admin/treasury', { cookie }) },
  { name: 'POST admin/logs/user', call: (t, cookie) => adminPost(t, 'logs/user', { email: 'x@example.com' }, cookie) },
  {
    name: 'POST admin/logs/account',
    call: (t, cookie) => adminPost(t, 'logs/account', { username: 'nobody' }, cookie),
  },
  { name: 'POST admin/login', call: (t, cookie) => adminPost(t, 'login', { email: 'x@example.com' }, cookie) },
  {
    name: 'POST admin/balance',
    call: (t, cookie) =>
      adminPost(t, 'balance', { username: 'nobody', algorithm: '0', ticker: 'LTC', value: '1' }, cookie),
  },
];

describe.each(testEngines())('the admin guard on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, undefined, engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 401 to visitors on every admin call', async () => {
    for (const { name, call } of CALLS) {
      const res = await call(t, undefined);
      expect(res.statusCode, name).toBe(401);
      expect(res.json(), name).toEqual({ error: 'Not logged in', code: 'UNAUTHENTICATED' });
    }
  });

  it('answers a logged-in non-admin exactly as for a path that does not exist (404, no hint)', async () => {
    const miner = await registerUser(t.app);
    const unknown = await get(t.app, '/v1/admin/nothing-here', { cookie: miner.cookie });
    expect(unknown.statusCode).toBe(404);
    for (const { name, call } of CALLS) {
      const res = await call(t, miner.cookie);
      expect(res.statusCode, name).toBe(404);
      expect(res.json(), name).toEqual(unknown.json());
    }
    // A non-admin with 2FA on is still a non-admin.
    await t.database.db
      .updateTable('users')
      .set({ totp_secret: 'JBSWY3DPEHPK3PXP' })
      .where('email', '=', miner.email)
      .execute();
    expect((await CALLS[0]?.call(t, miner.cookie))?.statusCode).toBe(404);
  });

  it('refuses an admin without 2FA with a clear 403 on every call', async () => {
    const admin = await registerAdmin(t, { twoFactor: false });
    for (const { name, call } of CALLS) {
      const res = await call(t, admin.cookie);
      expect(res.statusCode, name).toBe(403);
      expect(res.json(), name).toEqual({
        error:
          'Admin tools need two-factor authentication on your user. Enable 2FA in Settings, then log out and log in again with your 2FA code.',
        code: 'ADMIN_2FA_REQUIRED',
      });
    }
    // The refusals changed nothing: the admin is still logged in.
    expect((await get(t.app, '/v1/user/info', { cookie: admin.cookie })).json()).toMatchObject({ is_admin: true });
  });

  it('lets an admin with 2FA through', async () => {
    const admin = await registerAdmin(t);
    const res = await get(t.app, '/v1/admin/users', { cookie: admin.cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('takes effect at once when the role is taken away (no cached role in the session)', async () => {
    const admin = await registerAdmin(t);
    expect((await get(t.app, '/v1/admin/users', { cookie: admin.cookie })).statusCode).toBe(200);
    await t.database.db.updateTable('users').set({ is_admin: false }).where('id', '=', admin.userId).execute();
    expect((await get(t.app, '/v1/admin/users', { cookie: admin.cookie })).statusCode).toBe(404);
  });

  it('refuses admin calls from a session in which an admin is logged in as someone (404)', async () => {
    const admin = await registerAdmin(t);
    const miner = await registerUser(t.app);
    const res = await adminPost(t, 'login', { email: miner.email }, admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const impersonated = res.cookies.find((c) => c.name === 'lodestone_session')?.value;
    // Even if the impersonated user were given the admin role meanwhile, the session carries no admin power.
    await t.database.db
      .updateTable('users')
      .set({ is_admin: true, totp_secret: 'JBSWY3DPEHPK3PXP' })
      .where('email', '=', miner.email)
      .execute();
    for (const { name, call } of CALLS) {
      expect((await call(t, impersonated)).statusCode, name).toBe(404);
    }
    // The same user's own session is an admin's.
    const own = await newSession(
      t,
      (await t.database.db.selectFrom('users').select('id').where('email', '=', miner.email).executeTakeFirstOrThrow())
        .id,
    );
    expect((await get(t.app, '/v1/admin/users', { cookie: own })).statusCode).toBe(200);
  });

  it('refuses cross-site admin calls like every other form call', async () => {
    const admin = await registerAdmin(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/logs/user',
      payload: { email: admin.email },
      headers: { origin: 'https://evil.example' },
      cookies: { lodestone_session: admin.cookie },
      remoteAddress: nextAddress(),
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('the admin guard with ADMIN_REQUIRE_2FA=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_REQUIRE_2FA: 'false' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets an admin without 2FA use every call; non-admins still get 404', async () => {
    const admin = await registerAdmin(t, { twoFactor: false });
    const miner = await registerUser(t.app);
    expect((await get(t.app, '/v1/admin/users', { cookie: admin.cookie })).statusCode).toBe(200);
    const logs = await adminPost(t, 'logs/user', { email: miner.email }, admin.cookie);
    expect(logs.statusCode, logs.body).toBe(200);
    const logsByAccount = await adminPost(t, 'logs/account', { username: miner.username }, admin.cookie);
    expect(logsByAccount.statusCode, logsByAccount.body).toBe(200);
    const balance = await adminPost(
      t,
      'balance',
      { username: miner.username, algorithm: '0', ticker: 'LTC', value: '0.5' },
      admin.cookie,
    );
    expect(balance.statusCode, balance.body).toBe(200);
    const login = await adminPost(t, 'login', { email: miner.email }, admin.cookie);
    expect(login.statusCode, login.body).toBe(200);
    expect((await get(t.app, '/v1/admin/users', { cookie: miner.cookie })).statusCode).toBe(404);
  });
});
