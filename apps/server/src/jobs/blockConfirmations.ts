import {
  type Block,
  type Coin,
  confirmBlock,
  type DB,
  listCoins,
  orphanBlock,
  pendingBlocks,
  postSoloReward,
  setBlockConfirmations,
} from '@lodestone/db';
import type { Kysely } from 'kysely';
import type { FoundBlockStatus } from '../chains/chain.js';
import { type Config, minedTickers } from '../config/config.js';
import { type BlockStatusOf, nodeBlockStatus } from './chainBlockStatus.js';
import type { JobDefinition, Log } from './types.js';

export type { BlockStatusOf } from './chainBlockStatus.js';

/**
 * Found blocks to maturity (docs/money.md, "Found blocks"). Every minute, each `pending` block:
 * - of a coin mined from real nodes: asked of the coin's nodes by its chain's rules
 *   (chainBlockStatus.ts). Bitcoin family: on the best chain its confirmations are recorded, and at
 *   coinbase maturity it becomes `confirmed` with its reward on the pool's ledger; off the best chain
 *   it becomes `orphaned`; unknown to the daemon it stays pending. CKB, Kaspa and Kadena: `confirmed`
 *   when the chain says the reward is final (CKB: get_block_economic_state eleven blocks on, the real
 *   reward; Kaspa: merged blue by a chain block whose coinbase is mature; Kadena: deep enough on its
 *   chain), `orphaned` when the chain says it earns nothing (an uncle, merged red, replaced);
 * - of the demo network: one confirmation per whole 10 minutes since it was found (the demo chain's
 *   stand-in for blocks built on top), `confirmed` at the coin's confirmation count. Demo blocks never
 *   orphan.
 */

export const BLOCK_CONFIRMATIONS_EVERY_MS = 60_000;

/**
 * Bitcoin-family coinbase maturity: a block's reward cannot be spent before 100 blocks are built on
 * it, so a block is not counted as revenue before then, whatever the catalogue says.
 */
export const COINBASE_MATURITY = 100;

/** The demo chain "finds" a block on top of each demo block every ten minutes. */
export const DEMO_BLOCK_PERIOD_MS = 10 * 60_000;

/** A real block its daemon still does not know after this long is logged as a warning at every run. */
export const BLOCK_NOT_FOUND_WARNING_MS = 60 * 60_000;

/** Confirmations at which a block is mature: real blocks at least coinbase maturity. */
export function requiredConfirmations(
  catalogueConfirmations: number | undefined,
  real: boolean,
  coinbaseMaturity = COINBASE_MATURITY,
): number {
  if (!real) return catalogueConfirmations ?? coinbaseMaturity;
  return Math.max(catalogueConfirmations ?? 0, coinbaseMaturity);
}

/** The demo chain's confirmations of a block found at `foundAt`: whole ten-minute periods since. */
export function demoConfirmations(foundAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - foundAt.getTime()) / DEMO_BLOCK_PERIOD_MS));
}

export interface BlockConfirmationDeps {
  db: Kysely<DB>;
  /**
   * Coins mined from real daemons (the `coins` setting, merged coins included); every other block is
   * the demo network's. `coinbaseMaturity`: the chain's own, where it is not Bitcoin's 100 (Dogecoin).
   */
  minedCoins: readonly { ticker: string; algorithm: string; coinbaseMaturity?: number }[];
  statusOf: BlockStatusOf;
  log: Log;
  signal?: AbortSignal;
}

export interface BlockConfirmationResult {
  /** Hashes of blocks that matured in this run. */
  confirmed: string[];
  orphaned: string[];
  /** Hashes whose confirmation count changed (and are still pending). */
  updated: string[];
}

/**
 * One pass over the pending blocks at `now`. A coin whose daemons fail is skipped for the rest of the
 * run (logged); the other coins go on, and the run then throws so the scheduler counts a failure.
 */
export async function runBlockConfirmations(deps: BlockConfirmationDeps, now: Date): Promise<BlockConfirmationResult> {
  const { db, log } = deps;
  const result: BlockConfirmationResult = { confirmed: [], orphaned: [], updated: [] };
  const blocks = await pendingBlocks(db);
  if (blocks.length === 0) return result;
  const catalogue = new Map((await listCoins(db)).map((c) => [c.ticker, c]));
  const failedCoins = new Map<string, unknown>();
  for (const block of blocks) {
    if (deps.signal?.aborted) break;
    const coin = catalogue.get(block.coin);
    const mined = deps.minedCoins.find((c) => c.ticker === block.coin && c.algorithm === block.algorithm);
    const real = mined !== undefined;
    const required = requiredConfirmations(coin?.confirmations, real, mined?.coinbaseMaturity);
    if (!real) {
      await advance(deps, block, coin, demoConfirmations(block.found_at, now), required, now, false, result);
      continue;
    }
    if (failedCoins.has(block.coin)) continue;
    let status: FoundBlockStatus;
    try {
      status = await deps.statusOf(block.coin, {
        hash: block.hash,
        height: Number(block.height),
        catalogueConfirmations: coin?.confirmations,
        ...(block.chain !== null && { chain: block.chain }),
      });
    } catch (error) {
      log.error({ coin: block.coin, hash: block.hash, err: error }, 'cannot ask the coin daemons about found blocks');
      failedCoins.set(block.coin, error);
      continue;
    }
    switch (status.kind) {
      case 'in-main-chain':
        await advance(deps, block, coin, status.confirmations, required, now, true, result);
        break;
      case 'pending':
        // Not mature by its chain's rule, however deep: the count is recorded, never compared.
        await advance(deps, block, coin, status.confirmations, Number.POSITIVE_INFINITY, now, true, result);
        break;
      case 'matured': {
        // Where the chain counts confirmations (CKB, Kadena), the catalogue's count holds as well.
        const atLeast = status.confirmations > 0 ? (coin?.confirmations ?? 0) : 0;
        await advance(deps, block, coin, status.confirmations, atLeast, now, true, result, status.reward);
        break;
      }
      case 'orphaned':
        if (await orphanBlock(db, block.id, now)) {
          log.warn({ coin: block.coin, hash: block.hash, height: status.height }, 'found block orphaned');
          result.orphaned.push(block.hash);
        }
        break;
      case 'not-found':
        if (now.getTime() - block.found_at.getTime() >= BLOCK_NOT_FOUND_WARNING_MS) {
          log.warn(
            {
              coin: block.coin,
              hash: block.hash,
              foundAt: block.found_at.toISOString(),
              alert: 'block-unknown-to-daemon',
            },
            'the coin daemons do not know a block the pool found; it stays pending',
          );
        }
        break;
    }
  }
  if (failedCoins.size > 0) {
    throw new AggregateError([...failedCoins.values()], `block confirmations failed for ${[...failedCoins.keys()]}`);
  }
  return result;
}

async function advance(
  deps: BlockConfirmationDeps,
  block: Block,
  coin: Coin | undefined,
  confirmations: number,
  required: number,
  now: Date,
  real: boolean,
  result: BlockConfirmationResult,
  /** What the chain says the block paid, when it says (CKB, Kaspa); else the reward recorded when found. */
  chainReward?: bigint,
): Promise<void> {
  const { db, log } = deps;
  if (confirmations < required) {
    // What the Blocks page shows as confirmations left (docs/blocks.md); unknown where the chain decides.
    const needed = Number.isFinite(required) ? required : null;
    const deeper = confirmations !== block.confirmations;
    if (!deeper && needed === block.confirmations_required) return;
    if ((await setBlockConfirmations(db, block.id, confirmations, needed)) && deeper) result.updated.push(block.hash);
    return;
  }
  if (!coin) {
    // ledger_entries only take catalogue coins: the block is settled, its revenue left for a person.
    log.warn(
      { coin: block.coin, hash: block.hash, reward: block.reward },
      'a matured block of a coin outside the catalogue: confirmed without a ledger entry',
    );
  }
  const reward = chainReward ?? BigInt(block.reward);
  // One database transaction: the block matures, the pool's wallet is credited its reward and, for a
  // solo block, its finder the reward less the solo fee — all or nothing, once (docs/solo.md).
  const { confirmed, solo } = await db.transaction().execute(async (trx) => {
    const confirmed = await confirmBlock(trx, block, {
      confirmations,
      at: now,
      ...(coin ? { reward } : {}),
      ...(chainReward !== undefined ? { actualReward: chainReward } : {}),
      ...(real ? {} : { reason: 'demo network block' }),
    });
    const credit = confirmed && block.solo && coin && reward > 0n;
    return { confirmed, solo: credit ? await postSoloReward(trx, block, reward, now) : undefined };
  });
  if (!confirmed) return;
  log.info({ coin: block.coin, hash: block.hash, reward: reward.toString(), demo: !real }, 'found block matured');
  result.confirmed.push(block.hash);
  if (solo?.credited) {
    const fields = { coin: block.coin, hash: block.hash, account: block.account, credited: solo.owner.toString() };
    log.info(fields, 'solo block credited to its finder');
  } else if (solo?.reason === 'account-gone') {
    log.warn(
      { coin: block.coin, hash: block.hash, account: block.account },
      'a solo block matured whose finder’s account is gone: its reward stays the pool’s',
    );
  }
}

/** The status of found blocks through each mined coin's nodes (chainBlockStatus.ts). */
export function daemonBlockStatus(coins: Config['coins'], log?: Log): BlockStatusOf {
  return nodeBlockStatus(coins, log);
}

export interface BlockConfirmationJobOptions {
  config: Pick<Config, 'coins'>;
  /** Tests: instead of asking the configured daemons. */
  statusOf?: BlockStatusOf;
  everyMs?: number;
}

/** The found-block job: every minute and at start. Singleton (one process writes settlements). */
export function blockConfirmationJob(options: BlockConfirmationJobOptions): JobDefinition {
  let statusOf = options.statusOf;
  return {
    name: 'block-confirmations',
    everyMs: options.everyMs ?? BLOCK_CONFIRMATIONS_EVERY_MS,
    offsetMs: 0,
    runOnStart: true,
    singleton: true,
    async run({ database, log, now, signal }) {
      statusOf ??= daemonBlockStatus(options.config.coins, log);
      await runBlockConfirmations(
        { db: database.db, minedCoins: minedTickers(options.config.coins), statusOf, log, signal },
        now,
      );
    },
  };
}
