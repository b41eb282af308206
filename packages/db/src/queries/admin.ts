import { sql } from 'kysely';
import type { Account, Executor, User, UserLogEntry } from '../schema.js';

/**
 * Reads and writes of the admin tools (docs/admin.md). Unlike the account queries, the log lookups
 * also find deleted users and removed accounts: their logs are kept as security records and staff
 * must be able to read them.
 */

export interface AdminUserRow {
  id: bigint;
  email: string;
  has_2fa: boolean;
  last_login_at: Date | null;
  /** Live accounts, oldest first. */
  usernames: string[];
}

/** Every user who is not deleted with their live account names, newest registration first. */
export async function adminUserList(db: Executor): Promise<AdminUserRow[]> {
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('accounts as a', (join) => join.onRef('a.user_id', '=', 'u.id').on('a.deleted_at', 'is', null))
    .select([
      'u.id',
      'u.email',
      'u.last_login_at',
      sql<boolean>`u.totp_secret is not null`.as('has_2fa'),
      // json_agg rather than array_agg: both drivers parse json the same way.
      sql<
        string[]
      >`coalesce(json_agg(a.username order by a.created_at, a.id) filter (where a.id is not null), '[]'::json)`.as(
        'usernames',
      ),
    ])
    .where('u.deleted_at', 'is', null)
    .groupBy(['u.id', 'u.email', 'u.last_login_at', 'u.totp_secret'])
    .orderBy('u.id', 'desc')
    .execute();
  return rows;
}

/** A user by e-mail (lower case), deleted ones too (their tombstone address finds them). */
export function anyUserByEmail(db: Executor, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** An account by name whatever the letter case, removed ones too (names are never reused). */
export function anyAccountByUsername(db: Executor, username: string): Promise<Account | undefined> {
  return db
    .selectFrom('accounts')
    .selectAll()
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

/** Which entries of the user log: one user's (optionally only one of their accounts), or one account's. */
export type UserLogFilter = { userId: bigint; accountId?: bigint } | { accountId: bigint };

export interface UserLogPageRow extends UserLogEntry {
  /** The name of the entry's account, or null for user-level entries. */
  account: string | null;
}

/** One page of the user log, newest first, and how many entries match in all. */
export async function userLogPage(
  db: Executor,
  filter: UserLogFilter,
  limit: number,
  offset: number,
): Promise<{ rows: UserLogPageRow[]; total: number }> {
  let count = db.selectFrom('user_log as l').select((eb) => eb.fn.countAll<string>().as('total'));
  let page = db
    .selectFrom('user_log as l')
    .leftJoin('accounts as a', 'a.id', 'l.account_id')
    .selectAll('l')
    .select('a.username as account')
    .orderBy('l.time', 'desc')
    .orderBy('l.id', 'desc')
    .limit(limit)
    .offset(offset);
  if ('userId' in filter) {
    count = count.where('l.user_id', '=', filter.userId);
    page = page.where('l.user_id', '=', filter.userId);
  }
  if (filter.accountId !== undefined) {
    count = count.where('l.account_id', '=', filter.accountId);
    page = page.where('l.account_id', '=', filter.accountId);
  }
  const { total } = await count.executeTakeFirstOrThrow();
  return { rows: await page.execute(), total: Number(total) };
}

/** Gives or takes the admin role; false when no user who is not deleted has this id. */
export async function setUserAdmin(db: Executor, userId: bigint, isAdmin: boolean): Promise<boolean> {
  const row = await db
    .updateTable('users')
    .set({ is_admin: isAdmin })
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The admins, by e-mail (the operator's `lodestone admin list`). */
export function adminUsers(db: Executor): Promise<Pick<User, 'id' | 'email' | 'totp_secret'>[]> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'totp_secret'])
    .where('is_admin', '=', true)
    .where('deleted_at', 'is', null)
    .orderBy('email')
    .execute();
}
