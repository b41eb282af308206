import { z } from 'zod';
import { miningAlgorithm } from './mining.js';

/**
 * The all-accounts overview (docs/dashboard.md, "All accounts"): for a user with several accounts,
 * each live account's Mining-tab figures on one algorithm side by side, and their totals. Session
 * only: an observer link names one account, so there is no observer twin.
 *
 * Figures are the Mining tab's (docs/dashboard.md, "Mining API"): hashrates are numbers with 2
 * decimals in their `…_units`, "current" is the statistics window, "average" the last 24 hours.
 */

/** GET /v1/user/overview: the algorithm, as the Mining calls take it (key or name, any case; unknown → 400). */
export const overviewQuery = z.object({ algorithm: miningAlgorithm });

/** The figures of one account, or of all of them added up. */
const overviewFigures = z.object({
  /** Over the statistics window, in `hashrate_units`. */
  hashrate: z.number().nonnegative(),
  hashrate_units: z.string(),
  /** Over the last 24 hours, in `hashrate_avg_units`. */
  hashrate_avg: z.number().nonnegative(),
  hashrate_avg_units: z.string(),
  /** Workers with an accepted share in the statistics window. */
  active_workers: z.number().int().nonnegative(),
  /** Every worker on the algorithm. */
  total_workers: z.number().int().nonnegative(),
  /** Workers whose state is `low`: shares in the window significantly below their own 24-hour average. */
  low_workers: z.number().int().nonnegative(),
  /** Workers whose state is `offline`: past their own offline window (ten share intervals). */
  offline_workers: z.number().int().nonnegative(),
  /** Estimated US dollars a day at the current hashrate, after the account's fee, to the cent. */
  estimated_revenue: z.number().nonnegative(),
});

/** One row of the overview: an account and its figures, as its own Mining tab shows them. */
export const overviewAccount = overviewFigures.extend({ account_name: z.string() });
export type OverviewAccount = z.infer<typeof overviewAccount>;

/** GET /v1/user/overview?algorithm= */
export const overviewResponse = z.object({
  /** The algorithm's key (`scrypt`), whichever spelling was asked for. */
  algorithm: z.string(),
  /** The statistics window the current hashrates are measured over, minutes (STATS_WINDOW_MINUTES). */
  window_minutes: z.number().int().positive(),
  /** Every live account of the user, oldest first, with or without workers on the algorithm. */
  accounts: z.array(overviewAccount),
  /**
   * The accounts added up: hashrates summed in H/s from the rows and shown in the unit that suits the
   * sum, worker counts summed, revenue summed to the cent.
   */
  totals: overviewFigures,
});
export type OverviewResponse = z.infer<typeof overviewResponse>;
