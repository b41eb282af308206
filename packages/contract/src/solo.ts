import { z } from 'zod';
import { blockRow } from './blocks.js';

/*
 * The dashboard's solo panel (docs/solo.md, docs/dashboard.md "Solo mining"): GET /v1/user/mining/solo and its
 * observer twin /v1/observer/mining/solo, with the mining queries (`account_name` or `observer_key`, `algorithm`).
 * Difficulties are the algorithm's share difficulties, as the stratum port sends them.
 */

/** One solo worker of the account on the algorithm. */
export const soloWorker = z.object({
  /** The worker's id, as the workers list has it. */
  id: z.string(),
  name: z.string(),
  /** An accepted share in the statistics window. */
  online: z.boolean(),
  /** Over the last 24 hours (or its age), in `hashrate_units`. */
  hashrate: z.number().nonnegative(),
  hashrate_units: z.string(),
  /** Its own chance of a block in a day at that hashrate (0–1); null without a network. */
  p_day: z.number().min(0).max(1).nullable(),
  /** The highest difficulty any of its shares' hashes met, ever, and when (ISO 8601); null: none yet. */
  best_difficulty: z.number().positive().nullable(),
  best_at: z.string().nullable(),
  /** Its last accepted share, ISO 8601; null: none recorded. */
  last_share_at: z.string().nullable(),
});
export type SoloWorker = z.infer<typeof soloWorker>;

/** A block the account found on a solo port. */
export const soloBlock = blockRow.extend({
  coin: z.string(),
  /** The worker whose share it was. */
  worker: z.string(),
  /** The solo fee kept when it matures, in percent (the one in force when it was found). */
  fee_percent: z.number(),
  /** What the account was credited when it matured, in whole coins; null: not (yet) credited. */
  credited: z.string().nullable(),
});
export type SoloBlock = z.infer<typeof soloBlock>;

export const soloResponse = z.object({
  /** SOLO_FEE_PERCENT now, before the account's fee discount. */
  fee_percent: z.number(),
  /** The chain the algorithm mines now; null before the pool has mined on it. */
  coin: z.string().nullable(),
  /** True on the demo network. */
  demo: z.boolean(),
  /**
   * The difficulty a block takes now (on the demo network its own easy one) and what a block pays
   * (coinbase value, whole coins); null before the pool has mined on the algorithm.
   */
  network: z.object({ block_difficulty: z.number().positive(), block_reward: z.string() }).nullable(),
  /** The account's solo workers' hashrate over the last 24 hours (or their age), in `hashrate_units`. */
  hashrate: z.number().nonnegative(),
  hashrate_units: z.string(),
  /**
   * At that hashrate: the chance of at least one block in a day (0–1) and the mean time to a block in
   * seconds (null at no hashrate); null without a network.
   */
  odds: z.object({ p_day: z.number().min(0).max(1), expected_seconds: z.number().positive().nullable() }).nullable(),
  /**
   * The account's solo round on that chain: its work since its own last solo block there, as effort
   * (work ÷ block difficulty, 1 = 100 %), and its best share since then; null before its first solo share.
   */
  round: z
    .object({
      started_at: z.string(),
      effort: z.number().nonnegative().nullable(),
      best_difficulty: z.number().positive().nullable(),
      best_at: z.string().nullable(),
    })
    .nullable(),
  /** Solo workers, by name. */
  workers: z.array(soloWorker),
  /** The account's solo blocks on the algorithm, newest first (the 50 newest). */
  blocks: z.array(soloBlock),
});
export type SoloResponse = z.infer<typeof soloResponse>;

/** The most solo blocks the panel lists. */
export const SOLO_BLOCKS_LISTED = 50;
