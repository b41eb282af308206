import type { Executor } from '../schema.js';

export interface RedirectRow {
  targetAccountId: bigint;
  targetUsername: string;
  /** Percent, a decimal string. */
  percentage: string;
}

/** An account's redirect settings with the target names, by name. */
export function redirectsOfAccount(db: Executor, accountId: bigint): Promise<RedirectRow[]> {
  return db
    .selectFrom('redirect_settings as r')
    .innerJoin('accounts as t', 't.id', 'r.target_account_id')
    .select(['r.target_account_id as targetAccountId', 't.username as targetUsername', 'r.percentage'])
    .where('r.account_id', '=', accountId)
    .orderBy('t.username')
    .execute();
}

/**
 * Replaces an account's redirect settings. Run it in a transaction: the database checks at commit
 * that the percentages add up to at most 100.
 */
export async function replaceRedirects(
  db: Executor,
  accountId: bigint,
  rows: readonly { targetAccountId: bigint; percentage: string }[],
): Promise<void> {
  await db.deleteFrom('redirect_settings').where('account_id', '=', accountId).execute();
  if (rows.length === 0) return;
  await db
    .insertInto('redirect_settings')
    .values(
      rows.map((r) => ({ account_id: accountId, target_account_id: r.targetAccountId, percentage: r.percentage })),
    )
    .execute();
}

/** Removes every redirect from or to an account (when it is removed). */
export async function deleteRedirectsOfAccount(db: Executor, accountId: bigint): Promise<void> {
  await db
    .deleteFrom('redirect_settings')
    .where((eb) => eb.or([eb('account_id', '=', accountId), eb('target_account_id', '=', accountId)]))
    .execute();
}
