import { ALGORITHM_KEYS, type AlgorithmKey } from '@lodestone/domain';
import { z } from 'zod';
import { networkFigures } from './blocks.js';

/** GET /v1/pool/stats — one entry per algorithm (docs/website.md, Home). */
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

/** Path parameters of the per-algorithm calls. Unknown algorithms are answered 404, not 400. */
export const algorithmParams = z.object({
  /** The algorithm's key (`scrypt`) or name (`SCRYPT`), case-insensitive. */
  algorithm: z.string().min(1).max(32),
});

/** Length of the top current hashers and all-time top hashers lists. */
export const TOP_HASHERS_LIMIT = 10;

export const topHashrateEntry = z.object({
  user: z.string(),
  /** In `top_hashrate_units`. */
  hashrate: z.number().nonnegative(),
});

export const topHashesEntry = z.object({
  user: z.string(),
  /** In `top_hashers_past_units`. */
  hashes: z.number().nonnegative(),
});

/**
 * GET /v1/pool/stats/{algorithm} (docs/website.md, Stats and Profitability), plus `workers` (the stats page
 * shows Active Workers) and `hashes_units` (the pool total needs a unit of its own: it is larger than
 * anyone's share of it). Each list's unit is chosen from its largest value; lists are sorted largest
 * first and hold at most TOP_HASHERS_LIMIT entries.
 */
export const algorithmStatsResponse = z.object({
  hashrate: z.number().nonnegative(),
  hashrate_units: z.string(),
  /** Accounts with accepted shares in the statistics window. */
  miners: z.number().int().nonnegative(),
  /** Workers with accepted shares in the statistics window. */
  workers: z.number().int().nonnegative(),
  /** Registered users of the pool (who can log in), the same on every algorithm. */
  users: z.number().int().nonnegative(),
  /** Blocks found on this algorithm and not rejected. */
  blocks: z.number().int().nonnegative(),
  /** All-time hashes of the pool on this algorithm, in `hashes_units`. */
  hashes: z.number().nonnegative(),
  hashes_units: z.string(),
  profit: z.number().nonnegative(),
  profit_avg: z.number().nonnegative(),
  /** Profitability on the high-speed port. */
  profit_speed: z.number().nonnegative(),
  profit_units: z.string(),
  top_hashrate: z.array(topHashrateEntry).max(TOP_HASHERS_LIMIT),
  top_hashrate_units: z.string(),
  top_hashers_past: z.array(topHashesEntry).max(TOP_HASHERS_LIMIT),
  top_hashers_past_units: z.string(),
  /**
   * The chains the algorithm mines beside the pool's figures: its own coin first, then the coins
   * merge-mined with it, each with the blocks the pool found on it (docs/blocks.md).
   */
  networks: z.array(networkFigures.extend({ merged: z.boolean(), blocks: z.number().int().nonnegative() })),
});
export type AlgorithmStatsResponse = z.infer<typeof algorithmStatsResponse>;

/** True for IANA time zone names this runtime knows (`Europe/Madrid`, `UTC`). */
export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name, for calls whose answer shows local times. */
export const timeZone = z
  .string()
  .refine(isTimeZone, { message: 'unknown time zone; use an IANA name like Europe/Madrid' });

/**
 * The periods of the time charts (hashrate, revenue, profitability): 24 hours and 7 days in short
 * points on UTC, 30 days in calendar days of the chart's time zone (docs/dashboard.md, "Chart ranges").
 */
export const CHART_PERIODS = ['24h', '7d', '30d'] as const;
export type ChartPeriod = (typeof CHART_PERIODS)[number];
export const chartPeriod = z.enum(CHART_PERIODS);

/** Query of the chart calls: the time zone the x-axis labels are written in (default UTC). */
export const chartQuery = z.object({
  timezone: timeZone.default('UTC'),
});

/** GET /v1/pool/stats/{algorithm}/chart: the pool hashrate over `period` (default 24h). */
export const periodChartQuery = chartQuery.extend({ period: chartPeriod.default('24h') });

/**
 * A line chart: `x_axis[i]` labels the point `y_axis[i]`; all values are in the unit the label names
 * (GET /v1/pool/stats/{algorithm}/chart: 'Hashrate (Th/s)').
 */
export const chartResponse = z
  .object({
    x_axis: z.array(z.string()),
    y_axis: z.array(z.number().nonnegative()),
    label: z.string(),
  })
  .refine((c) => c.x_axis.length === c.y_axis.length, { message: 'x_axis and y_axis differ in length' });
export type ChartResponse = z.infer<typeof chartResponse>;
