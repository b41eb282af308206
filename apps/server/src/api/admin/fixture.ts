import { liveAccountByUsername } from '@lodestone/db';
import { nextAddress, post, registerUser, type TestUser } from '../../../test/accounts.js';
import type { TestApp } from '../../../test/helpers.js';
import { Sessions } from '../../services/auth/sessions.js';

/**
 * Shared by the admin API tests: users registered through the real call, made admins the way the
 * operator command does (the users row), with 2FA switched on by giving the user a TOTP secret — the
 * guard only asks whether 2FA is on; logging in with codes is tested by the 2FA tests.
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

/** A registered user who is an admin, with 2FA on unless `twoFactor` is false. */
export async function registerAdmin(t: TestApp, options: { twoFactor?: boolean } = {}): Promise<TestAdmin> {
  const user = await registerUser(t.app);
  await t.database.db
    .updateTable('users')
    .set({ is_admin: true, totp_secret: options.twoFactor === false ? null : TOTP_SECRET })
    .where('email', '=', user.email)
    .execute();
  return { ...user, userId: await userIdOf(t, user.email) };
}

/** Another live session of a user (what logging in again gives), as its cookie value. */
export function newSession(t: TestApp, userId: bigint): Promise<string> {
  return new Sessions(t.database.db, 24 * 3600_000).create(userId);
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
