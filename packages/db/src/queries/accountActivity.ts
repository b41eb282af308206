import type { AlgorithmKey } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor } from '../schema.js';

/**
 * The algorithm an account mined in the most worker-minutes (minutes with an accepted share) since
 * `since`; undefined when it mined nothing. Minutes, not hashes: hashes of different algorithms are
 * not comparable. Ties go to the algorithm with the most recent share.
 */
export async function mostActiveAlgorithm(
  db: Executor,
  account: string,
  since: Date,
): Promise<AlgorithmKey | undefined> {
  const row = await db
    .selectFrom('worker_stats_minute as s')
    .innerJoin('workers as w', 'w.id', 's.worker_id')
    .select(['s.algorithm', sql<bigint>`count(*)`.as('minutes'), sql<Date>`max(s.minute)`.as('last')])
    .where('w.account', '=', account)
    .where('s.minute', '>=', since)
    .where('s.valid', '>', 0)
    .groupBy('s.algorithm')
    .orderBy('minutes', 'desc')
    .orderBy('last', 'desc')
    .executeTakeFirst();
  return row?.algorithm;
}

export interface AccountAlgorithmDifficulty {
  account: string;
  algorithm: AlgorithmKey;
  /** Σ accepted difficulty, a NUMERIC string. */
  acceptedDifficulty: string;
}

/** Accepted difficulty per account and algorithm in the minutes `from` ≤ minute < `to`. */
export async function accountsDifficulty(
  db: Executor,
  accounts: readonly string[],
  from: Date,
  to: Date,
): Promise<AccountAlgorithmDifficulty[]> {
  if (accounts.length === 0) return [];
  return db
    .selectFrom('worker_stats_minute as s')
    .innerJoin('workers as w', 'w.id', 's.worker_id')
    .select([
      'w.account as account',
      's.algorithm as algorithm',
      (eb) => eb.fn.sum<string>('s.accepted_difficulty').as('acceptedDifficulty'),
    ])
    .where('w.account', 'in', accounts)
    .where('s.minute', '>=', from)
    .where('s.minute', '<', to)
    .where('s.valid', '>', 0)
    .groupBy(['w.account', 's.algorithm'])
    .execute();
}
