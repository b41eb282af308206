import type { AlgorithmKey } from '@lodestone/domain';
import { sql } from 'kysely';
import type { Executor } from '../schema.js';

/**
 * The Profitability page's comparison (docs/public-api.md): other pools' published figures, which the
 * operator enters into `pool_comparisons`, and our own profitability over time from `pool_stats`.
 */

export interface PoolComparison {
  algorithm: AlgorithmKey;
  poolName: string;
  poolUrl: string;
  /** 'TH/s' etc.: the figures are BTC per day per this hashrate. */
  hashrateUnit: string;
  /** Exact decimal text, or null when the other pool publishes none for the period. */
  profit24h: string | null;
  profit7d: string | null;
  profit30d: string | null;
  updatedAt: Date;
}

/** The comparison rows of one algorithm, or of every algorithm; by algorithm, then pool name. */
export async function poolComparisons(db: Executor, algorithm?: AlgorithmKey): Promise<PoolComparison[]> {
  let query = db.selectFrom('pool_comparisons').selectAll().orderBy('algorithm').orderBy('pool_name');
  if (algorithm) query = query.where('algorithm', '=', algorithm);
  const rows = await query.execute();
  return rows.map((r) => ({
    algorithm: r.algorithm,
    poolName: r.pool_name,
    poolUrl: r.pool_url,
    hashrateUnit: r.hashrate_unit,
    profit24h: r.profit_24h,
    profit7d: r.profit_7d,
    profit30d: r.profit_30d,
    updatedAt: r.updated_at,
  }));
}

/**
 * Adds or replaces the figures of one pool on one algorithm (the pool's name is matched whatever its
 * case), stamping `updated_at`. What an admin screen or script calls; operators may use plain SQL.
 */
export async function savePoolComparison(
  db: Executor,
  row: Omit<PoolComparison, 'updatedAt'>,
  now: Date,
): Promise<void> {
  await db
    .insertInto('pool_comparisons')
    .values({
      algorithm: row.algorithm,
      pool_name: row.poolName,
      pool_url: row.poolUrl,
      hashrate_unit: row.hashrateUnit,
      profit_24h: row.profit24h,
      profit_7d: row.profit7d,
      profit_30d: row.profit30d,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.expression(sql`algorithm, lower(pool_name)`).doUpdateSet((eb) => ({
        pool_name: eb.ref('excluded.pool_name'),
        pool_url: eb.ref('excluded.pool_url'),
        hashrate_unit: eb.ref('excluded.hashrate_unit'),
        profit_24h: eb.ref('excluded.profit_24h'),
        profit_7d: eb.ref('excluded.profit_7d'),
        profit_30d: eb.ref('excluded.profit_30d'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

export interface ProfitHour {
  /** Start of the UTC hour. */
  hour: Date;
  /** Σ profit of the hour's snapshots (BTC per H/s per day), exact decimal text. */
  sum: string;
  /** How many snapshots that is. */
  count: number;
}

/**
 * Our profitability per UTC hour for `from` ≤ taken_at < `to`: the sum and number of the rollup's
 * snapshots with a known rate (profit > 0; the rollup writes 0 while the rate is unknown, which is no
 * rate at all, not a rate of zero). Hours without such snapshots are absent. One range scan of the
 * (algorithm, taken_at) index: 30 days are about 130,000 snapshots of one algorithm, 720 rows out.
 */
export async function profitHours(db: Executor, algorithm: AlgorithmKey, from: Date, to: Date): Promise<ProfitHour[]> {
  const hour = sql<Date>`date_bin(interval '1 hour', taken_at, timestamptz '1970-01-01 00:00:00+00')`;
  const rows = await db
    .selectFrom('pool_stats')
    .select([hour.as('hour'), sql<string>`sum(profit)::text`.as('sum'), sql<string>`count(*)`.as('count')])
    .where('algorithm', '=', algorithm)
    .where('taken_at', '>=', from)
    .where('taken_at', '<', to)
    .where('profit', '>', '0')
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
  return rows.map((r) => ({ hour: r.hour, sum: r.sum, count: Number(r.count) }));
}
