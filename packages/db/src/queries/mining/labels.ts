import type { AlgorithmKey } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor } from '../../schema.js';

/**
 * Gives some of an account's workers on an algorithm a label (their group, docs/dashboard.md "Worker
 * groups"), or takes it off (null). Ids of other accounts' workers change nothing. The rows are
 * locked in the order accounting's upsert locks them (name, then id), so a labelling beside a share
 * batch never deadlocks it. Answers how many workers it labelled.
 */
export async function setWorkerLabels(
  db: Executor,
  account: string,
  algorithm: AlgorithmKey,
  ids: readonly bigint[],
  label: string | null,
): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await sql`
    with chosen as materialized (
      select w.id from workers w
       where w.account = ${account} and w.algorithm = ${algorithm} and w.id in (${sql.join(ids)})
       order by w.name collate "C", w.solo, w.id
         for update
    )
    update workers set label = ${label} where id in (select id from chosen)
  `.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
