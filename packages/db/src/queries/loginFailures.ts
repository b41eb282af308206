import { sql } from 'kysely';
import type { Executor } from '../schema.js';

export interface LoginFailureState {
  failures: number;
  lockedUntil: Date | null;
}

export async function loginFailureState(db: Executor, email: string): Promise<LoginFailureState | undefined> {
  const row = await db
    .selectFrom('login_failures')
    .select(['failures', 'locked_until'])
    .where('email', '=', email)
    .executeTakeFirst();
  return row && { failures: row.failures, lockedUntil: row.locked_until };
}

export type LoginAttempt =
  | { taken: true; failures: number; lockedUntil: Date | null }
  | { taken: false; lockedUntil: Date };

/**
 * Takes one login attempt for the address, counted as a failure in advance so that concurrent
 * attempts cannot all pass the lock check before the first failure is recorded. While the address is
 * locked nothing is counted and the lock is returned (`taken: false`). Otherwise the count rises by one
 * (failures older than `forgetBefore` start it again) and the lock becomes `lockFor(failures)`
 * milliseconds from now, or none when it returns 0. The row stays locked while this runs, so attempts
 * on one address are counted one after the other. A successful login clears the count; an attempt that
 * is neither a success nor a failure gives its count back with `releaseLoginAttempt`.
 */
export async function takeLoginAttempt(
  db: Executor,
  email: string,
  now: Date,
  forgetBefore: Date,
  lockFor: (failures: number) => number,
): Promise<LoginAttempt> {
  const lockAfter = (failures: number) => {
    const ms = lockFor(failures);
    return ms > 0 ? new Date(now.getTime() + ms) : null;
  };
  const take = async (trx: Executor): Promise<LoginAttempt> => {
    for (;;) {
      const inserted = await trx
        .insertInto('login_failures')
        .values({ email, failures: 1, last_failure_at: now, locked_until: lockAfter(1) })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning(['failures', 'locked_until'])
        .executeTakeFirst();
      if (inserted) return { taken: true, failures: inserted.failures, lockedUntil: inserted.locked_until };
      const row = await trx
        .selectFrom('login_failures')
        .select(['failures', 'last_failure_at', 'locked_until'])
        .where('email', '=', email)
        .forUpdate()
        .executeTakeFirst();
      if (!row) continue; // cleared in between: insert again
      if (row.locked_until && row.locked_until > now) return { taken: false, lockedUntil: row.locked_until };
      const failures = row.last_failure_at < forgetBefore ? 1 : row.failures + 1;
      const lockedUntil = lockAfter(failures);
      await trx
        .updateTable('login_failures')
        .set({ failures, last_failure_at: now, locked_until: lockedUntil })
        .where('email', '=', email)
        .execute();
      return { taken: true, failures, lockedUntil };
    }
  };
  return db.isTransaction ? take(db) : db.transaction().execute(take);
}

/**
 * Gives back an attempt taken with `takeLoginAttempt` that turned out not to be a failure: the count
 * drops by one (the row goes when none is left), and the lock that attempt set (`lockedUntil`), if
 * still in force, is lifted.
 */
export async function releaseLoginAttempt(db: Executor, email: string, lockedUntil: Date | null): Promise<void> {
  const lowered = await db
    .updateTable('login_failures')
    .set((eb) => ({
      failures: eb('failures', '-', 1),
      ...(lockedUntil
        ? {
            locked_until: sql<Date | null>`case when ${eb.ref('locked_until')} = ${lockedUntil} then null else ${eb.ref('locked_until')} end`,
          }
        : {}),
    }))
    .where('email', '=', email)
    .where('failures', '>', 1)
    .executeTakeFirst();
  if (lowered.numUpdatedRows === 0n) {
    await db.deleteFrom('login_failures').where('email', '=', email).where('failures', '=', 1).execute();
  }
}

export async function clearLoginFailures(db: Executor, email: string): Promise<void> {
  await db.deleteFrom('login_failures').where('email', '=', email).execute();
}
