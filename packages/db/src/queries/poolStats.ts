import { type AlgorithmKey, Exact } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor, NewPoolStats, PoolStats } from '../schema.js';

/**
 * Stores one sample: how tests, benchmarks and browser tests seed a history. The rollup stores through
 * savePoolStats below, which replaces; here a second sample for the same algorithm and instant is an
 * error, since a seed that repeats an instant is a mistake.
 */
export function insertPoolStats(db: Executor, row: NewPoolStats): Promise<PoolStats> {
  return db.insertInto('pool_stats').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Stores the snapshot of an algorithm at an instant, replacing one already stored for that instant:
 * the rollup stamps snapshots with the minute they describe, so a repeated run rewrites its own row.
 */
export function savePoolStats(db: Executor, row: NewPoolStats): Promise<PoolStats> {
  return db
    .insertInto('pool_stats')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['algorithm', 'taken_at']).doUpdateSet((eb) => ({
        hashrate: eb.ref('excluded.hashrate'),
        miners: eb.ref('excluded.miners'),
        workers: eb.ref('excluded.workers'),
        profit: eb.ref('excluded.profit'),
        profit_avg_24h: eb.ref('excluded.profit_avg_24h'),
        users: eb.ref('excluded.users'),
        blocks: eb.ref('excluded.blocks'),
        total_hashes: eb.ref('excluded.total_hashes'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
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

/**
 * When the pool's record of an algorithm begins: its oldest snapshot (the rollup writes one a minute from the
 * pool's first start, hashrate 0 included), or with `withRate` its oldest snapshot that knew a PPS rate
 * (profit > 0). Charts start there (docs/decisions.md, Charts start at the first record); null: no record yet.
 */
export async function firstPoolSnapshotAt(
  db: Executor,
  algorithm: AlgorithmKey,
  { withRate = false }: { withRate?: boolean } = {},
): Promise<Date | null> {
  let query = db
    .selectFrom('pool_stats')
    .select('taken_at')
    .where('algorithm', '=', algorithm)
    .orderBy('taken_at')
    .limit(1);
  if (withRate) query = query.where('profit', '>', '0');
  const row = await query.executeTakeFirst();
  return row?.taken_at ?? null;
}

export interface HashrateBucket {
  /** Start of the bucket: `from`'s epoch alignment, a multiple of `bucketSeconds` since 1970-01-01 UTC. */
  start: Date;
  /** Mean of the bucket's hashrate samples in H/s, a NUMERIC string rounded to 3 decimals. */
  hashrate: string;
}

/**
 * The hashrate series of one algorithm for a chart: samples with `from` ≤ taken_at < `to`, averaged
 * per bucket of `bucketSeconds` aligned on the Unix epoch. Buckets without samples are absent.
 */
export function hashrateBuckets(
  db: Executor,
  algorithm: AlgorithmKey,
  from: Date,
  to: Date,
  bucketSeconds: number,
): Promise<HashrateBucket[]> {
  const start = sql<Date>`date_bin(make_interval(secs => ${bucketSeconds}::integer), taken_at, timestamptz '1970-01-01 00:00:00+00')`;
  return db
    .selectFrom('pool_stats')
    .select([start.as('start'), sql<string>`round(avg(hashrate), 3)`.as('hashrate')])
    .where('algorithm', '=', algorithm)
    .where('taken_at', '>=', from)
    .where('taken_at', '<', to)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
}

/**
 * Mean profit of an algorithm's snapshots in [since, before) together with `current` (the snapshot
 * being written), as exact decimal text. Snapshots of profit 0 — written while the algorithm's network
 * or a price was not yet known — are left out: they are no rate, and averaging them in showed a pool
 * that had just started at half its rate for a day. '0' when no snapshot knew a rate.
 */
export async function averageProfitSince(
  db: Executor,
  algorithm: AlgorithmKey,
  since: Date,
  before: Date,
  current: string,
): Promise<string> {
  const row = await db
    .selectFrom('pool_stats')
    .select((eb) => [sql<string>`coalesce(sum(profit), 0)::text`.as('total'), eb.fn.countAll<string>().as('n')])
    .where('algorithm', '=', algorithm)
    .where('taken_at', '>=', since)
    .where('taken_at', '<', before)
    .where('profit', '>', '0')
    .executeTakeFirstOrThrow();
  const known = Exact.of(current).compare(0) > 0;
  const n = BigInt(row.n) + (known ? 1n : 0n);
  if (n === 0n) return '0';
  const total = Exact.of(row.total).plus(known ? current : '0');
  return total.dividedBy(n, 30).toString();
}
