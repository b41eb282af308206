import { revokeSession, type User, userByEmail } from '@lodestone/db';
import type { AccountsContext } from '../accounts/context.js';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import { ADMIN_MESSAGES } from './messages.js';

/**
 * POST admin/login: the admin becomes the user with this e-mail. A new session of that user is
 * created, marked with the admin as its impersonator, and the admin's own session ends — so the
 * browser holds only the user's session, logging out ends the impersonation, and nothing of the
 * admin's session comes back (the admin logs in again, with 2FA). Both users' logs record it before
 * the session exists, so there is never an impersonation without its audit entries.
 *
 * The user's `last_login_at` is left alone: the users list shows when the person last logged in.
 * Another admin cannot be impersonated: that would step around their password and 2FA.
 * Returns the new session's cookie token.
 */
export async function loginAsUser(
  ctx: AccountsContext,
  admin: User,
  adminSessionId: string,
  email: string,
  ip: string,
): Promise<string> {
  const target = await userByEmail(ctx.db, email);
  if (!target) throw errors.notFound(ADMIN_MESSAGES.userNotFound, 'USER_NOT_FOUND');
  if (target.is_admin) throw errors.forbidden('TARGET_IS_ADMIN', ADMIN_MESSAGES.targetIsAdmin);
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    await logEvent(trx, now, {
      userId: admin.id,
      name: 'admin_login_as',
      value: { email: target.email, user_id: target.id.toString(), ip },
    });
    await logEvent(trx, now, {
      userId: target.id,
      name: 'admin_logged_in_as_user',
      value: { admin_email: admin.email, admin_user_id: admin.id.toString(), ip },
    });
  });
  // Never marked as having passed 2FA: the admin's code proves nothing about the user.
  const token = await ctx.sessions.create(target.id, {
    impersonatorUserId: admin.id,
    client: { userAgent: undefined, ip },
  });
  await revokeSession(ctx.db, adminSessionId, now);
  return token;
}
