import type { AlgorithmKey } from '@lodestone/domain';
import type { Executor, NewPoolStats, PoolStats } from '../schema.js';

/** Stores one sample; a second sample for the same algorithm and instant is a unique violation (23505). */
export function insertPoolStats(db: Executor, row: NewPoolStats): Promise<PoolStats> {
  return db.insertInto('pool_stats').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The newest sample of each algorithm that has any, ordered by algorithm key. */
export function latestPoolStats(db: Executor): Promise<PoolStats[]> {
  return db
    .selectFrom('pool_stats')
    .distinctOn('algorithm')
    .selectAll()
    .orderBy('algorithm')
    .orderBy('taken_at', 'desc')
    .execute();
}

/** Samples of one algorithm taken at or after `since`, oldest first. */
export function poolStatsSince(db: Executor, algorithm: AlgorithmKey, since: Date): Promise<PoolStats[]> {
  return db
    .selectFrom('pool_stats')
    .selectAll()
    .where('algorithm', '=', algorithm)
    .where('taken_at', '>=', since)
    .orderBy('taken_at')
    .execute();
}
