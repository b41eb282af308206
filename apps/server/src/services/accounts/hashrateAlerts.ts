import { type HashrateAlert, MAX_HASHRATE_ALERTS } from '@lodestone/contract';
import {
  type Account,
  deleteHashrateAlert,
  type HashrateAlertRow,
  hashrateAlertsOf,
  insertHashrateAlert,
  lockAccount,
  type NewHashrateAlert,
  type User,
} from '@lodestone/db';
import { type AlgorithmKey, AUTOMATIC_THRESHOLD, plainDecimal } from '@lodestone/domain';
import { errors } from '../errors.js';
import { logEvent } from '../userLog.js';
import type { AccountsContext } from './context.js';

/*
 * The hashrate alert rules of an account (docs/notifications.md, "Hashrate alerts"), managed by its
 * owner; the jobs role judges them (jobs/hashrateAlerts.ts). Each change is written to the user log.
 */

function presentAlert(row: HashrateAlertRow): HashrateAlert {
  return {
    id: row.id.toString(),
    algorithm: row.algorithm,
    kind: row.kind,
    threshold_hashrate: row.threshold_hashrate === null ? null : Number(row.threshold_hashrate),
    threshold_percent: row.threshold_percent,
    min_workers: row.min_workers,
    group: row.worker_group,
    low: row.low,
    changed_at: row.changed_at?.toISOString() ?? null,
  };
}

/** GET /v1/user/hashrate_alerts */
export async function readHashrateAlerts(ctx: AccountsContext, account: Account): Promise<{ alerts: HashrateAlert[] }> {
  return { alerts: (await hashrateAlertsOf(ctx.db, account.id)).map(presentAlert) };
}

export type HashrateAlertInput = {
  algorithm: AlgorithmKey;
  /** A worker group (checked by the contract); null: the whole account. */
  group: string | null;
} & (
  | { kind: 'hashrate'; thresholdHashrate?: number | undefined; thresholdPercent?: number | undefined }
  | { kind: 'workers'; minWorkers: number }
);

/** POST /v1/user/hashrate_alerts/create: at most MAX_HASHRATE_ALERTS rules an account. */
export async function createHashrateAlert(
  ctx: AccountsContext,
  user: User,
  account: Account,
  input: HashrateAlertInput,
): Promise<HashrateAlert> {
  const now = ctx.now();
  const rule: NewHashrateAlert =
    input.kind === 'workers'
      ? { kind: 'workers', minWorkers: input.minWorkers }
      : input.thresholdHashrate !== undefined
        ? { kind: 'hashrate', thresholdHashrate: plainDecimal(input.thresholdHashrate) }
        : { kind: 'hashrate', thresholdPercent: input.thresholdPercent ?? AUTOMATIC_THRESHOLD * 100 };
  return ctx.db.transaction().execute(async (trx) => {
    await lockAccount(trx, account.id);
    if ((await hashrateAlertsOf(trx, account.id)).length >= MAX_HASHRATE_ALERTS) {
      throw errors.taken('HASHRATE_ALERT_LIMIT', `An account can have at most ${MAX_HASHRATE_ALERTS} hashrate alerts.`);
    }
    const row = await insertHashrateAlert(trx, account.id, input.algorithm, rule, now, input.group);
    await logEvent(trx, now, {
      userId: user.id,
      accountId: account.id,
      name: 'hashrate_alert_created',
      value: { alert: row.id.toString(), algorithm: row.algorithm, kind: row.kind, group: row.worker_group },
    });
    return presentAlert(row);
  });
}

/** POST /v1/user/hashrate_alerts/delete */
export async function removeHashrateAlert(
  ctx: AccountsContext,
  user: User,
  account: Account,
  id: string,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await deleteHashrateAlert(trx, account.id, BigInt(id)))) throw errors.notFound('Alert not found');
    await logEvent(trx, ctx.now(), {
      userId: user.id,
      accountId: account.id,
      name: 'hashrate_alert_deleted',
      value: { alert: id },
    });
  });
}
