import { liveAccountByUsername } from '@lodestone/db';
import { Sessions } from '../src/services/auth/sessions.js';
import { nextAddress, post, registerUser, type TestUser } from './accounts.js';
import type { TestApp } from './helpers.js';

/**
 * Shared by the admin API tests: users registered through the real call, made admins the way the
 * operator command does (the users row), with 2FA switched on by giving the user a TOTP secret and
 * a session marked as a login that checked a code — what the guard asks for; logging in with real
 * codes is tested by the 2FA tests and twoFactorStepUp.api.test.ts.
 */
export const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export interface TestAdmin extends TestUser {
  userId: bigint;
}

export async function userIdOf(t: TestApp, email: string): Promise<bigint> {
  const row = await t.database.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return row.id;
}

export async function accountIdOf(t: TestApp, username: string): Promise<bigint> {
  const account = await liveAccountByUsername(t.database.db, username);
  if (!account) throw new Error(`no account ${username}`);
  return account.id;
}

/**
 * A registered user who is an admin, with 2FA on unless `twoFactor` is false. With 2FA, `cookie` is
 * a session whose login checked a code (as logging in with the code gives); without, the session of
 * the registration.
 */
export async function registerAdmin(t: TestApp, options: { twoFactor?: boolean } = {}): Promise<TestAdmin> {
  const user = await registerUser(t.app);
  const twoFactor = options.twoFactor !== false;
  await t.database.db
    .updateTable('users')
    .set({ is_admin: true, totp_secret: twoFactor ? TOTP_SECRET : null })
    .where('email', '=', user.email)
    .execute();
  const userId = await userIdOf(t, user.email);
  return { ...user, userId, cookie: twoFactor ? await newSession(t, userId) : user.cookie };
}

/**
 * Another live session of a user (what logging in again gives), as its cookie value: marked as
 * having passed 2FA when the user has 2FA on, as a login with the code is.
 */
export async function newSession(t: TestApp, userId: bigint): Promise<string> {
  const user = await t.database.db
    .selectFrom('users')
    .select('totp_secret')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return new Sessions(t.database.db, 24 * 3600_000).create(userId, { twoFactorVerified: user.totp_secret !== null });
}

/** POST an admin call as the website does (multipart), from a fresh address unless given. */
export function adminPost(
  t: TestApp,
  path: string,
  fields: Record<string, string>,
  cookie: string | undefined,
  options: { json?: boolean; remoteAddress?: string } = {},
) {
  return post(t.app, `/v1/admin/${path}`, fields, {
    cookie,
    remoteAddress: options.remoteAddress ?? nextAddress(),
    ...(options.json ? { json: true } : {}),
  });
}
