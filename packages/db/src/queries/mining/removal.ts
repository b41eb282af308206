import type { AlgorithmKey } from '@lodestone/domain';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../schema.js';
import { ADD_TO_ACCOUNT_HALF_HOUR, bin, DIRTY, SUMMED_DELTAS, UNROLLED_DELTAS } from './sql.js';

/**
 * Worker removal (the dashboard's Remove and Remove offline): workers go with their minute and hour
 * rows, their account's history stays. Takes turns with the rollup job (lockWorkerRollups).
 */

export interface RemovedWorker {
  id: bigint;
  name: string;
}

/** Which workers of an account and algorithm to remove: one by id, or all without an accepted share since a time. */
export type WorkerSelection = { id: bigint } | { ids: readonly bigint[] } | { offlineSince: Date };

/**
 * Deletes workers of one account and algorithm with their minute and hour rows (the foreign keys
 * cascade), in the caller's transaction, which must hold lockWorkerRollups. The account's own
 * history is kept: the workers' deltas not rolled up yet are added to account_stats_half_hour first,
 * so the account's chart and averages do not change. Workers are locked in the order accounting
 * locks them. Returns what was removed, by name.
 */
export async function removeWorkers(
  trx: Transaction<DB>,
  account: string,
  algorithm: AlgorithmKey,
  selection: WorkerSelection,
): Promise<RemovedWorker[]> {
  if ('ids' in selection && selection.ids.length === 0) return [];
  const which =
    'id' in selection
      ? sql`w.id = ${selection.id}`
      : 'ids' in selection
        ? sql`w.id in (${sql.join(selection.ids)})`
        : sql`not exists (select 1 from worker_stats_minute s
                         where s.worker_id = w.id and s.minute >= ${selection.offlineSince} and s.valid > 0)`;
  const { rows } = await sql<RemovedWorker>`
    with gone as materialized (
      select w.id from workers w
       where w.account = ${account} and w.algorithm = ${algorithm} and ${which}
       order by w.name collate "C", w.solo, w.id
         for update
    ),
    dirty as materialized (
      select s.minute,
             ${UNROLLED_DELTAS}
        from worker_stats_minute s
       where s.worker_id in (select id from gone) and ${DIRTY}
         for update
    ),
    folded as (
      insert into account_stats_half_hour as a
             (account, algorithm, half_hour, accepted_difficulty, valid, invalid, stale, worker_minutes)
      select ${account}, ${algorithm}, ${bin(sql`minute`, 1800)}, ${SUMMED_DELTAS} from dirty group by 3
      ${ADD_TO_ACCOUNT_HALF_HOUR}
    )
    delete from workers where id in (select id from gone) returning id, name
  `.execute(trx);
  return rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : Number(a.id - b.id)));
}
