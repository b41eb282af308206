import type { Executor } from '../schema.js';

export interface NewPasswordReset {
  keyHash: string;
  userId: bigint;
  now: Date;
  expiresAt: Date;
}

export async function insertPasswordReset(db: Executor, reset: NewPasswordReset): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({
      key_hash: reset.keyHash,
      user_id: reset.userId,
      created_at: reset.now,
      expires_at: reset.expiresAt,
      used_at: null,
    })
    .execute();
}

/**
 * Uses a recovery key once: marks it used and returns its user, if the key exists, belongs to
 * `userId`, is unused and has not expired. Two concurrent uses cannot both succeed.
 */
export async function consumePasswordReset(db: Executor, keyHash: string, userId: bigint, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('key_hash', '=', keyHash)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('key_hash')
    .executeTakeFirst();
  return row !== undefined;
}

/** Ends every other unused key of the user (after a reset, older e-mails stop working). */
export async function expireUserPasswordResets(db: Executor, userId: bigint, now: Date): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** Forgets keys that expired before `before`. */
export async function purgePasswordResets(db: Executor, before: Date): Promise<void> {
  await db.deleteFrom('password_resets').where('expires_at', '<', before).execute();
}

/** How many recovery keys the user was sent since `since` (a cap on e-mails per address). */
export async function countPasswordResetsSince(db: Executor, userId: bigint, since: Date): Promise<number> {
  const row = await db
    .selectFrom('password_resets')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('user_id', '=', userId)
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
