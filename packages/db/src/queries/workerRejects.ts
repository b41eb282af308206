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

/** The refusals of an account's workers on an algorithm since `from`: worker id → reason → shares. */
export async function accountWorkerRejects(
  db: Executor,
  account: string,
  algorithm: AlgorithmKey,
  from: Date,
): Promise<Map<bigint, Record<string, number>>> {
  const rows = await db
    .selectFrom('worker_rejects_hour as r')
    .innerJoin('workers as w', 'w.id', 'r.worker_id')
    .select(['r.worker_id', 'r.reason', (eb) => eb.fn.sum<string>('r.shares').as('shares')])
    .where('w.account', '=', account)
    .where('w.algorithm', '=', algorithm)
    .where('r.hour', '>=', from)
    .groupBy(['r.worker_id', 'r.reason'])
    .execute();
  const out = new Map<bigint, Record<string, number>>();
  for (const r of rows) {
    const reasons = out.get(r.worker_id) ?? {};
    reasons[r.reason] = Number(r.shares);
    out.set(r.worker_id, reasons);
  }
  return out;
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
