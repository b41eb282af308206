import { z } from 'zod';
import { algorithmKey, pageNumber } from './common.js';

/*
 * Found blocks and the pool's luck (docs/blocks.md): GET /v1/pool/blocks/{algorithm} for the Blocks
 * page, and the same answer at GET /v1/api/blocks/{algorithm} in the public API. Effort and luck are
 * ratios (1 = 100 %): effort is a block's round work over its network difficulty, luck the blocks
 * found over the blocks the pool's work should have found (`poolLuck` in @lodestone/domain).
 */

/** Rows per page of the blocks table. */
export const BLOCKS_PAGE_SIZE = 25;

/** A coin ticker in a query string, upper case as the catalogue writes it. */
const ticker = z
  .string()
  .trim()
  .transform((t) => t.toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{2,10}$/, 'coin must be a ticker such as LTC'));

/** Query of the blocks calls: which chain of the algorithm (its own coin when absent) and the page. */
export const blocksQuery = z.object({
  coin: ticker.optional(),
  page: pageNumber,
});

/** The chains of an algorithm's Blocks page: the coin it mines, then the coins merge-mined with it. */
export const blocksChain = z.object({
  coin: z.string(),
  name: z.string(),
  /** Merge-mined beside the algorithm's own coin (AuxPoW). */
  merged: z.boolean(),
  /** Blocks found on this chain and not refused by its node. */
  blocks: z.number().int().nonnegative(),
});

/** A chain's network as the pool's newest job on it saw it. */
export const networkFigures = z.object({
  coin: z.string(),
  height: z.number().int().nonnegative(),
  /** Network difficulty in the algorithm's share-difficulty convention. */
  difficulty: z.number().positive(),
  /** The network's hashrate in `hashrate_units`: difficulty × hashes per difficulty ÷ the chain's block interval; null for a chain whose interval is not fixed (CKB). */
  hashrate: z.number().nonnegative().nullable(),
  hashrate_units: z.string(),
  /** Block reward (coinbase value) in whole coins, as exact decimal text. */
  reward: z.string(),
  /** When the pool last saw it (ISO). */
  observed_at: z.string(),
});
export type NetworkFigures = z.infer<typeof networkFigures>;

/** Luck over one period: blocks with a known effort, their mean effort and the pool's luck; null without blocks. */
export const luckFigures = z.object({
  blocks: z.number().int().nonnegative(),
  effort: z.number().nonnegative().nullable(),
  luck: z.number().nonnegative().nullable(),
});
export type LuckFigures = z.infer<typeof luckFigures>;

export const blockRow = z.object({
  height: z.number().int().nonnegative(),
  hash: z.string(),
  /** The block on a public explorer; null on the demo network and for coins without one. */
  explorer_url: z.string().nullable(),
  /** ISO time the pool found it. */
  found_at: z.string(),
  /** Coinbase value in whole coins, exact decimal text. */
  reward: z.string(),
  status: z.enum(['pending', 'confirmed', 'orphaned']),
  confirmations: z.number().int().nonnegative(),
  /** Pending blocks: confirmations still needed to mature; null when not pending or when the chain decides maturity by its own rule. */
  confirmations_left: z.number().int().nonnegative().nullable(),
  /**
   * Round work ÷ network difficulty (1 = 100 %); null for a block whose round was not recorded. A
   * solo block's round is its finder's own work since its previous solo block.
   */
  effort: z.number().nonnegative().nullable(),
  /** Found by a solo miner (docs/solo.md): its reward goes to the finder, and it is no part of the pool's luck. */
  solo: z.boolean(),
});
export type BlockRow = z.infer<typeof blockRow>;

export const blocksResponse = z.object({
  algorithm: algorithmKey,
  /** The chain these blocks are of; null before the pool has mined on the algorithm. */
  coin: z.string().nullable(),
  chains: z.array(blocksChain),
  /** True on the demo network (its blocks are not on a public chain). */
  demo: z.boolean(),
  /** The chain's network; null before the pool has mined on it. */
  network: networkFigures.nullable(),
  /** The open round: its effort so far and when it started; nulls before the first share. */
  round: z.object({
    effort: z.number().nonnegative().nullable(),
    started_at: z.string().nullable(),
  }),
  luck: z.object({ h24: luckFigures, d7: luckFigures, d30: luckFigures }),
  /** Newest first. */
  blocks: z.array(blockRow).max(BLOCKS_PAGE_SIZE),
  page: z.number().int().positive(),
  page_size: z.number().int().positive(),
  total: z.number().int().nonnegative(),
});
export type BlocksResponse = z.infer<typeof blocksResponse>;
