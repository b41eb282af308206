import type { AlgorithmKey } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor } from '../schema.js';

/*
 * Refused shares per worker, hour and reason (migration 0025): written with each share batch, read by
 * the dashboard's workers table (its reject rate by reason), pruned with the worker-hour rows.
 */

export interface WorkerRejects {
  workerId: bigint;
  /** Start of a UTC hour. */
  hour: Date;
  reason: string;
  shares: number;
}

/** Adds a batch's refusals, in (worker, reason) order so concurrent batches lock rows alike. */
export async function addWorkerRejects(db: Executor, rows: readonly WorkerRejects[]): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort((a, b) =>
    a.workerId !== b.workerId
      ? a.workerId < b.workerId
        ? -1
        : 1
      : a.reason < b.reason
        ? -1
        : a.reason > b.reason
          ? 1
          : 0,
  );
  await db
    .insertInto('worker_rejects_hour')
    .values(sorted.map((r) => ({ worker_id: r.workerId, hour: r.hour, reason: r.reason, shares: r.shares })))
    .onConflict((oc) =>
      oc
        .columns(['worker_id', 'hour', 'reason'])
        .doUpdateSet({ shares: sql`worker_rejects_hour.shares + excluded.shares` }),
    )
    .execute();
}

/** One worker's refusals since `from`, by reason. */
export async function workerRejectsSince(db: Executor, workerId: bigint, from: Date): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('worker_rejects_hour')
    .select(['reason', (eb) => eb.fn.sum<string>('shares').as('shares')])
    .where('worker_id', '=', workerId)
    .where('hour', '>=', from)
    .groupBy('reason')
    .orderBy('reason')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.reason, Number(r.shares)]));
}

/** Deletes refusal rows of hours before `before`, at most `limit` a call; answers how many. */
export async function pruneWorkerRejects(db: Executor, before: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from worker_rejects_hour
     where (worker_id, hour, reason) in
           (select worker_id, hour, reason from worker_rejects_hour where hour < ${before} limit ${limit})
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** One worker of an account on an algorithm, by id (other accounts' and algorithms' are not found). */
export function workerOfAccount(db: Executor, account: string, algorithm: AlgorithmKey, id: bigint) {
  return db
    .selectFrom('workers')
    .select(['id', 'name', 'first_seen_at'])
    .where('id', '=', id)
    .where('account', '=', account)
    .where('algorithm', '=', algorithm)
    .executeTakeFirst();
}
