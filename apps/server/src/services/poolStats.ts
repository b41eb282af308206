import type { PoolAlgorithmStats, PoolStatsResponse } from '@lodestone/contract';
import { type Executor, latestPoolStats, type PoolStats } from '@lodestone/db';
import { ALGORITHMS, type Algorithm, scaleHashrate, scaleProfit } from '@lodestone/domain';

/**
 * A snapshot older than this no longer describes the pool: if the rollup stopped, the site must not
 * keep showing the last hashrate as if miners were still there.
 */
export const STALE_AFTER_MS = 10 * 60 * 1000;

function present(algorithm: Algorithm, row: PoolStats | undefined, now: Date): PoolAlgorithmStats {
  const fresh = row !== undefined && now.getTime() - row.taken_at.getTime() <= STALE_AFTER_MS;
  const hashrate = scaleHashrate(fresh ? row.hashrate : '0');
  const profit = scaleProfit(row?.profit ?? '0', algorithm.profitUnitExponent);
  const profitAvg = scaleProfit(row?.profit_avg_24h ?? '0', algorithm.profitUnitExponent);
  return {
    hashrate: hashrate.value,
    hashrate_units: hashrate.units,
    miners: fresh ? row.miners : 0,
    profit: profit.value,
    profit_avg: profitAvg.value,
    profit_units: profit.units,
  };
}

/** The home page's pool table: the newest snapshot per algorithm, zeros where there is none. */
export async function readPoolStats(db: Executor, now = new Date()): Promise<PoolStatsResponse> {
  const rows = await latestPoolStats(db);
  const byAlgorithm = new Map(rows.map((r) => [r.algorithm, r]));
  return Object.fromEntries(
    ALGORITHMS.map((a) => [a.key, present(a, byAlgorithm.get(a.key), now)]),
  ) as PoolStatsResponse;
}
