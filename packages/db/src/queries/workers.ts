import type { AlgorithmKey } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor } from '../schema.js';

/** What one share batch says about one worker, ready for the workers table. */
export interface WorkerActivity {
  account: string;
  algorithm: AlgorithmKey;
  name: string;
  /** Earliest time the batch saw the worker (the batch's interval start). */
  seenAt: Date;
  lastShareAt: Date;
  /** The batch's last accepted share of the worker; absent or null: none (or a node that does not say). */
  lastAcceptedAt?: Date | null;
  /** Accepted difficulty to add to the worker's all-time total, a decimal string. */
  acceptedDifficulty: string;
  /** A solo port's worker (docs/solo.md): a row of its own beside a pool port's worker of the same name. */
  solo?: boolean;
  /** A solo worker's best share of the batch (the difficulty its hash met, decimal text), and when. */
  best?: { difficulty: string; at: Date };
  /**
   * The batch's share counts, which go to the worker's minute row in the same transaction (recordWorkerShares): they
   * and `acceptedDifficulty` are added to the worker's unrolled figures (migration 0034). Absent: no minute row is
   * written, nothing is added.
   */
  counts?: { valid: number; invalid: number; stale: number };
}

export interface WorkerKey {
  id: bigint;
  account: string;
  algorithm: AlgorithmKey;
  name: string;
  solo: boolean;
}

/**
 * A worker's identity as one text: account, name, then the pool port's before the solo port's of the same name. Sorted
 * in code units, it is the order accounting locks workers in, and the rollup job and removals follow it.
 */
export function workerKey(account: string, name: string, solo: boolean): string {
  return `${account}\u0000${name}\u0000${solo ? 1 : 0}`;
}

/** Rows per statement: far below PostgreSQL's 65,535 bind parameters at 14 per row. */
const CHUNK = 1000;

/**
 * Creates the workers that are new and updates the others: first_seen_at = least, last_share_at and
 * last_accepted_at = greatest (batches can arrive out of order), all-time accepted difficulty += the batch's, and the
 * unrolled figures += the batch's counts when it has them (only recordWorkerShares passes them, with the minute rows
 * they go to). Returns every worker's id, in no particular order.
 *
 * Rows must be unique by (account, algorithm, name, solo) — one statement cannot update a row twice — and
 * callers applying batches concurrently should pass them sorted, so that transactions lock workers in
 * the same order and cannot deadlock.
 */
export async function upsertWorkers(db: Executor, rows: readonly WorkerActivity[]): Promise<WorkerKey[]> {
  const keys: WorkerKey[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const written = await db
      .insertInto('workers')
      .values(
        chunk.map((r) => ({
          account: r.account,
          algorithm: r.algorithm,
          name: r.name,
          first_seen_at: r.seenAt,
          last_share_at: r.lastShareAt,
          last_accepted_at: r.lastAcceptedAt ?? null,
          total_accepted_difficulty: r.acceptedDifficulty,
          solo: r.solo ?? false,
          best_difficulty: r.best?.difficulty ?? null,
          best_difficulty_at: r.best?.at ?? null,
          unrolled_difficulty: r.counts ? r.acceptedDifficulty : '0',
          unrolled_valid: r.counts?.valid ?? 0,
          unrolled_invalid: r.counts?.invalid ?? 0,
          unrolled_stale: r.counts?.stale ?? 0,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['account', 'algorithm', 'name', 'solo']).doUpdateSet((eb) => ({
          first_seen_at: eb.fn('least', [eb.ref('workers.first_seen_at'), eb.ref('excluded.first_seen_at')]),
          last_share_at: eb.fn('greatest', [eb.ref('workers.last_share_at'), eb.ref('excluded.last_share_at')]),
          // greatest() skips nulls: a batch without an accepted share keeps the time there is.
          last_accepted_at: eb.fn('greatest', [
            eb.ref('workers.last_accepted_at'),
            eb.ref('excluded.last_accepted_at'),
          ]),
          total_accepted_difficulty: eb(
            'workers.total_accepted_difficulty',
            '+',
            eb.ref('excluded.total_accepted_difficulty'),
          ),
          // The higher best share keeps its own time (a null never wins: greater-than with null is null).
          best_difficulty: sql`case when excluded.best_difficulty > coalesce(workers.best_difficulty, 0)
            then excluded.best_difficulty else workers.best_difficulty end`,
          best_difficulty_at: sql`case when excluded.best_difficulty > coalesce(workers.best_difficulty, 0)
            then excluded.best_difficulty_at else workers.best_difficulty_at end`,
          unrolled_difficulty: eb('workers.unrolled_difficulty', '+', eb.ref('excluded.unrolled_difficulty')),
          unrolled_valid: eb('workers.unrolled_valid', '+', eb.ref('excluded.unrolled_valid')),
          unrolled_invalid: eb('workers.unrolled_invalid', '+', eb.ref('excluded.unrolled_invalid')),
          unrolled_stale: eb('workers.unrolled_stale', '+', eb.ref('excluded.unrolled_stale')),
        })),
      )
      .returning(['id', 'account', 'algorithm', 'name', 'solo'])
      .execute();
    keys.push(...written);
  }
  return keys;
}

/** Σ all-time accepted difficulty per algorithm, for algorithms that have workers. */
export async function allTimeDifficultyByAlgorithm(db: Executor): Promise<Map<AlgorithmKey, string>> {
  const rows = await db
    .selectFrom('workers')
    .select(['algorithm', (eb) => eb.fn.sum<string>('total_accepted_difficulty').as('difficulty')])
    .groupBy('algorithm')
    .execute();
  return new Map(rows.map((r) => [r.algorithm, r.difficulty]));
}

export interface AccountDifficulty {
  account: string;
  /** Σ accepted difficulty, a NUMERIC string. */
  acceptedDifficulty: string;
}

/** The accounts with the most all-time accepted difficulty on one algorithm, largest first. */
export function topAllTimeAccounts(db: Executor, algorithm: AlgorithmKey, limit: number): Promise<AccountDifficulty[]> {
  return db
    .selectFrom('workers')
    .select(['account', (eb) => eb.fn.sum<string>('total_accepted_difficulty').as('acceptedDifficulty')])
    .where('algorithm', '=', algorithm)
    .where('total_accepted_difficulty', '>', '0')
    .groupBy('account')
    .orderBy('acceptedDifficulty', 'desc')
    .orderBy('account')
    .limit(limit)
    .execute();
}
