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
  return db
    .selectFrom('user_log')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('time', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** An account's log entries, newest first. */
export function userLogOfAccount(db: Executor, accountId: bigint, limit = 100, offset = 0): Promise<UserLogEntry[]> {
  return db
    .selectFrom('user_log')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('time', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}
