import { ADMIN_LOG_PAGE_SIZE, type AdminLogsResponse } from '@lodestone/contract';
import { anyAccountByUsername, anyUserByEmail, type User, type UserLogFilter, userLogPage } from '@lodestone/db';
import type { AccountsContext } from '../accounts/context.js';
import { logEvent } from '../userLog.js';

/** What the admin searched for: a user by e-mail (optionally one of their accounts), or an account. */
export type LogSearch = { email: string; username?: string | undefined } | { username: string };

/**
 * The filter of a search, or null when nothing can match (an unknown e-mail or account, or an
 * account that is not the user's). Deleted users and removed accounts are found: their logs stay.
 */
async function filterOf(ctx: AccountsContext, search: LogSearch): Promise<UserLogFilter | null> {
  const account = search.username ? await anyAccountByUsername(ctx.db, search.username) : undefined;
  if (search.username && !account) return null;
  if ('email' in search) {
    const user = await anyUserByEmail(ctx.db, search.email);
    if (!user) return null;
    if (!account) return { userId: user.id };
    return account.user_id === user.id ? { userId: user.id, accountId: account.id } : null;
  }
  return account ? { accountId: account.id } : null;
}

/** A log value is a JSON object; anything else stored there is wrapped so the answer keeps its shape. */
function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { value };
}

/**
 * POST admin/logs/user and admin/logs/account: one page (20 entries) of the user log, newest first.
 * A search is recorded in the admin's own log when its first page is asked for — once per search,
 * not per page, so paging through the admin's own log does not move what it pages through.
 */
export async function readUserLog(
  ctx: AccountsContext,
  admin: User,
  search: LogSearch,
  page: number,
  ip: string,
): Promise<AdminLogsResponse> {
  if (page === 1) {
    await logEvent(ctx.db, ctx.now(), { userId: admin.id, name: 'admin_logs_viewed', value: { ...search, ip } });
  }
  const filter = await filterOf(ctx, search);
  const size = ADMIN_LOG_PAGE_SIZE;
  if (!filter) return { items: [], total: 0, page, page_size: size };
  const { rows, total } = await userLogPage(ctx.db, filter, size, (page - 1) * size);
  return {
    items: rows.map((row) => ({
      time: row.time.toISOString(),
      log_name: row.log_name,
      log_value: asObject(row.log_value),
      account: row.account,
    })),
    total,
    page,
    page_size: size,
  };
}
