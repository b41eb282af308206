import type { AlgorithmKey } from '@lodestone/domain';
import type { Executor, HashrateAlertRow } from '../schema.js';

/*
 * Hashrate alert rules (migration 0024; docs/notifications.md, "Hashrate alerts"): per account and
 * algorithm, "hashrate below X" (fixed or a share of the 24-hour average) and "online workers below
 * N", each with its state; of the whole account or of one worker group (migration 0028: `worker_group`,
 * the group's text as packages/domain/src/workerGroups.ts computes it).
 */

export type NewHashrateAlert =
  | { kind: 'hashrate'; thresholdHashrate: string; thresholdPercent?: undefined }
  | { kind: 'hashrate'; thresholdPercent: number; thresholdHashrate?: undefined }
  | { kind: 'workers'; minWorkers: number };

export async function insertHashrateAlert(
  db: Executor,
  accountId: bigint,
  algorithm: AlgorithmKey,
  rule: NewHashrateAlert,
  now: Date,
  /** The worker group it watches; null: the whole account. */
  group: string | null = null,
): Promise<HashrateAlertRow> {
  return db
    .insertInto('hashrate_alerts')
    .values({
      account_id: accountId,
      algorithm,
      kind: rule.kind,
      threshold_hashrate: rule.kind === 'hashrate' ? (rule.thresholdHashrate ?? null) : null,
      threshold_percent: rule.kind === 'hashrate' ? (rule.thresholdPercent ?? null) : null,
      min_workers: rule.kind === 'workers' ? rule.minWorkers : null,
      worker_group: group,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An account's rules, oldest first. */
export function hashrateAlertsOf(db: Executor, accountId: bigint): Promise<HashrateAlertRow[]> {
  return db.selectFrom('hashrate_alerts').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

/** Deletes one of the account's rules; false when it has none with this id. */
export async function deleteHashrateAlert(db: Executor, accountId: bigint, id: bigint): Promise<boolean> {
  const row = await db
    .deleteFrom('hashrate_alerts')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A rule to check with who it alerts and on which channels (as the offline alert's). */
export interface HashrateAlertCheck extends HashrateAlertRow {
  account: string;
  userId: bigint;
  telegram: boolean;
  email: boolean;
}

/** Every rule of a live account of a live user. */
export async function hashrateAlertsToCheck(db: Executor): Promise<HashrateAlertCheck[]> {
  const rows = await db
    .selectFrom('hashrate_alerts as r')
    .innerJoin('accounts as a', 'a.id', 'r.account_id')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .selectAll('r')
    .select((eb) => [
      'a.username as account',
      'u.id as user_id',
      'u.offline_worker_telegram_only as telegram_only',
      eb
        .and([
          eb.ref('u.telegram_notifications'),
          eb.exists(eb.selectFrom('telegram_links as l').select('l.user_id').whereRef('l.user_id', '=', 'u.id')),
        ])
        .as('telegram'),
    ])
    .where('a.deleted_at', 'is', null)
    .where('u.deleted_at', 'is', null)
    .orderBy('r.id')
    .execute();
  return rows.map(({ account, user_id, telegram_only, telegram, ...rule }) => ({
    ...rule,
    account,
    userId: user_id,
    telegram: Boolean(telegram),
    email: !(telegram && telegram_only),
  }));
}

/** Records a rule's new state; false when it already had it (another check got there first). */
export async function setHashrateAlertState(db: Executor, id: bigint, low: boolean, at: Date): Promise<boolean> {
  const row = await db
    .updateTable('hashrate_alerts')
    .set({ low, changed_at: at })
    .where('id', '=', id)
    .where('low', '=', !low)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The account's workers on the algorithm with what their group is computed from (workerGroup(name,
 * label)), for a group rule to pick its group's from.
 */
export function accountWorkerLabels(
  db: Executor,
  account: string,
  algorithm: AlgorithmKey,
): Promise<{ id: bigint; name: string; label: string | null }[]> {
  return db
    .selectFrom('workers')
    .select(['id', 'name', 'label'])
    .where('account', '=', account)
    .where('algorithm', '=', algorithm)
    .orderBy('id')
    .execute();
}
