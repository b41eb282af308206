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

/**
 * Counts one failed login for the address and sets its lock: `lockFor(failures)` milliseconds from
 * now, or none when it returns 0. Failures older than `forgetBefore` start the count again.
 */
export async function recordLoginFailure(
  db: Executor,
  email: string,
  now: Date,
  forgetBefore: Date,
  lockFor: (failures: number) => number,
): Promise<LoginFailureState> {
  const row = await db
    .insertInto('login_failures')
    .values({ email, failures: 1, last_failure_at: now, locked_until: null })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet((eb) => ({
        failures: eb
          .case()
          .when('login_failures.last_failure_at', '<', forgetBefore)
          .then(1)
          .else(eb('login_failures.failures', '+', 1))
          .end(),
        last_failure_at: now,
      })),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  const ms = lockFor(row.failures);
  const lockedUntil = ms > 0 ? new Date(now.getTime() + ms) : null;
  await db.updateTable('login_failures').set({ locked_until: lockedUntil }).where('email', '=', email).execute();
  return { failures: row.failures, lockedUntil };
}

export async function clearLoginFailures(db: Executor, email: string): Promise<void> {
  await db.deleteFrom('login_failures').where('email', '=', email).execute();
}

/** Forgets addresses whose last failure is older than `before`. */
export async function purgeLoginFailures(db: Executor, before: Date): Promise<void> {
  await db.deleteFrom('login_failures').where('last_failure_at', '<', before).execute();
}
