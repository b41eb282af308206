import type { Executor, UserLogEntry } from '../schema.js';

export interface NewUserLogEntry {
  userId: bigint;
  accountId?: bigint | null;
  /** snake_case event name, e.g. `login`, `failed_login`, `2fa_enabled`. */
  name: string;
  value?: Record<string, unknown>;
  time: Date;
}

/** Appends one entry to the user log (the table refuses updates and deletes). */
export async function appendUserLog(db: Executor, entry: NewUserLogEntry): Promise<void> {
  await db
    .insertInto('user_log')
    .values({
      user_id: entry.userId,
      account_id: entry.accountId ?? null,
      time: entry.time,
      log_name: entry.name,
      log_value: JSON.stringify(entry.value ?? {}),
    })
    .execute();
}

/** A user's log, newest first. */
export function userLogOfUser(db: Executor, userId: bigint, limit = 100, offset = 0): Promise<UserLogEntry[]> {
  return userLogWhere(db, 'user_id', userId, limit, offset);
}

/** An account's log entries, newest first. */
export function userLogOfAccount(db: Executor, accountId: bigint, limit = 100, offset = 0): Promise<UserLogEntry[]> {
  return userLogWhere(db, 'account_id', accountId, limit, offset);
}

/** A page of the log entries of one user or one account, newest first. */
function userLogWhere(
  db: Executor,
  column: 'user_id' | 'account_id',
  id: bigint,
  limit: number,
  offset: number,
): Promise<UserLogEntry[]> {
  return db
    .selectFrom('user_log')
    .selectAll()
    .where(column, '=', id)
    .orderBy('time', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}
