import { adminUsers, type DB, type Executor, setUserAdmin, userByEmail } from '@lodestone/db';
import type { Kysely } from 'kysely';
import { logEvent } from '../userLog.js';

/**
 * The admin role is given and taken by the operator on the server (`lodestone admin grant|revoke
 * EMAIL`), never through the website: a stolen admin session cannot make more admins. The change
 * is recorded in the user's log. Returns false when no user (who is not deleted) has the address.
 */
export async function setAdminRole(
  db: Kysely<DB>,
  email: string,
  isAdmin: boolean,
  now: Date,
): Promise<{ found: false } | { found: true; changed: boolean; has2fa: boolean }> {
  const user = await userByEmail(db, email.trim().toLowerCase());
  if (!user) return { found: false };
  const changed = user.is_admin !== isAdmin;
  if (changed) {
    await db.transaction().execute(async (trx) => {
      await setUserAdmin(trx, user.id, isAdmin);
      await logEvent(trx, now, {
        userId: user.id,
        name: isAdmin ? 'admin_role_granted' : 'admin_role_revoked',
        value: { by: 'operator command' },
      });
    });
  }
  return { found: true, changed, has2fa: user.totp_secret !== null };
}

/** The admins, by e-mail, and whether each has 2FA on. */
export async function listAdmins(db: Executor): Promise<{ email: string; has2fa: boolean }[]> {
  return (await adminUsers(db)).map((u) => ({ email: u.email, has2fa: u.totp_secret !== null }));
}
