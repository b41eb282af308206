import { ALGORITHM_KEYS, type AlgorithmKey } from '@lodestone/domain';
import { z } from 'zod';

/** GET /v1/pool/stats — one entry per algorithm (spec 3 "Pool stats per algorithm"). */
export const poolAlgorithmStats = z.object({
  /** Pool hashrate in `hashrate_units`. */
  hashrate: z.number().nonnegative(),
  hashrate_units: z.string(),
  /** Accounts with accepted shares in the statistics window. */
  miners: z.number().int().nonnegative(),
  /** Current profitability in `profit_units` per day. */
  profit: z.number().nonnegative(),
  /** Average profitability of the last 24 hours in `profit_units` per day. */
  profit_avg: z.number().nonnegative(),
  profit_units: z.string(),
});
export type PoolAlgorithmStats = z.infer<typeof poolAlgorithmStats>;

export const poolStatsResponse = z.object(
  Object.fromEntries(ALGORITHM_KEYS.map((k) => [k, poolAlgorithmStats])) as Record<
    AlgorithmKey,
    typeof poolAlgorithmStats
  >,
);
export type PoolStatsResponse = z.infer<typeof poolStatsResponse>;
