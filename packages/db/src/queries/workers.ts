import type { AlgorithmKey } from '@lodestone/domain';
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
}

export interface WorkerKey {
  id: bigint;
  account: string;
  algorithm: AlgorithmKey;
  name: string;
}

/** Rows per statement: far below PostgreSQL's 65,535 bind parameters at 7 per row. */
const CHUNK = 1000;

/**
 * Creates the workers that are new and updates the others: first_seen_at = least, last_share_at and
 * last_accepted_at = greatest (batches can arrive out of order), all-time accepted difficulty += the batch's. Returns
 * every worker's id, in no particular order.
 *
 * Rows must be unique by (account, algorithm, name) — one statement cannot update a row twice — and
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
        })),
      )
      .onConflict((oc) =>
        oc.columns(['account', 'algorithm', 'name']).doUpdateSet((eb) => ({
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
        })),
      )
      .returning(['id', 'account', 'algorithm', 'name'])
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
