import type { AlgorithmKey } from '@lodestone/domain';
import type { Executor } from '../schema.js';

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
