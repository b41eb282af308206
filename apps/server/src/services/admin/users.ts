import type { AdminUsersResponse } from '@lodestone/contract';
import { adminUserList, type User } from '@lodestone/db';
import type { AccountsContext } from '../accounts/context.js';
import { logEvent } from '../userLog.js';

/**
 * GET admin/users: every user who is not deleted, with their live accounts, whether 2FA is on and
 * their last own login. The whole list goes to the page, which searches and pages it (docs/admin.md, "The screens").
 * Looking at the list is recorded in the admin's own log.
 */
export async function listUsersForAdmin(ctx: AccountsContext, admin: User, ip: string): Promise<AdminUsersResponse> {
  const rows = await adminUserList(ctx.db);
  await logEvent(ctx.db, ctx.now(), {
    userId: admin.id,
    name: 'admin_users_listed',
    value: { count: rows.length, ip },
  });
  return rows.map((row) => ({
    email: row.email,
    usernames: row.usernames,
    has_2fa: row.has_2fa,
    last_login: row.last_login_at ? row.last_login_at.toISOString() : null,
  }));
}
