import type { BlockRow, BlocksResponse, LuckFigures, NetworkFigures } from '@lodestone/contract';
import { BLOCKS_PAGE_SIZE } from '@lodestone/contract';
import {
  type Block,
  blockCountsByChain,
  type Coin,
  chainBlocks,
  type Executor,
  effortTotals,
  mergedNetworkStates,
  type NetworkState,
  networkStates,
  openRound,
} from '@lodestone/db';
import {
  type AlgorithmKey,
  blockEffort,
  decimalToNumber,
  displayHashrate,
  estimateHashrate,
  LUCK_PERIODS,
  luckOfTotals,
  pageWindow,
  shiftDecimal,
} from '@lodestone/domain';
import type { HashesPerDifficulty } from './hashesPerDifficulty.js';
import { blockExplorerLink, catalogueByTicker } from './money/coinCatalogue.js';

/*
 * The Blocks page and the stats page's network figures (docs/blocks.md): the chains an algorithm
 * mines (its own coin, then the coins merge-mined with it), their networks as the newest share batch
 * saw them, the blocks the pool found on each with their effort, and the pool's luck.
 */

const HOUR_MS = 3_600_000;

/** One chain of an algorithm: its newest network state (none for a coin only found in old blocks). */
interface Chain {
  coin: string;
  merged: boolean;
  state: Pick<NetworkState, 'height' | 'reward' | 'difficulty' | 'demo' | 'observed_at' | 'block_seconds'> | undefined;
  blocks: number;
}

/** The chains of an algorithm: the coin it mines now, then merge-mined coins, then coins found before. */
async function chainsOf(db: Executor, algorithm: AlgorithmKey): Promise<Chain[]> {
  const [own, merged, counts] = await Promise.all([
    networkStates(db).then((rows) => rows.find((r) => r.algorithm === algorithm)),
    mergedNetworkStates(db).then((rows) => rows.filter((r) => r.algorithm === algorithm)),
    blockCountsByChain(db, algorithm),
  ]);
  const chains: Chain[] = [];
  if (own) chains.push({ coin: own.coin, merged: false, state: own, blocks: counts.get(own.coin) ?? 0 });
  for (const m of merged) {
    if (m.coin !== own?.coin) chains.push({ coin: m.coin, merged: true, state: m, blocks: counts.get(m.coin) ?? 0 });
  }
  const named = new Set(chains.map((c) => c.coin));
  for (const [coin, blocks] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!named.has(coin)) chains.push({ coin, merged: false, state: undefined, blocks });
  }
  return chains;
}

/** Whole coins from smallest units, as exact text; the smallest units where the catalogue does not know the coin. */
function wholeCoins(units: string, coin: Coin | undefined): string {
  return coin ? shiftDecimal(units, -coin.decimals) : units;
}

function networkFigures(
  chain: Chain & { state: NonNullable<Chain['state']> },
  coin: Coin | undefined,
  hashesPerDifficulty: number,
): NetworkFigures {
  const { state } = chain;
  // Network hashrate = hashes a block takes ÷ the chain's block interval: its jobs' where it changes
  // (CKB, per epoch), else the catalogue's fixed one; null where neither is known.
  const seconds = state.block_seconds ?? coin?.block_seconds ?? null;
  const rate =
    seconds !== null ? displayHashrate(estimateHashrate(state.difficulty, hashesPerDifficulty, seconds)) : undefined;
  return {
    coin: chain.coin,
    height: Number(state.height),
    difficulty: decimalToNumber(state.difficulty),
    hashrate: rate?.value ?? null,
    hashrate_units: rate?.units ?? displayHashrate(0).units,
    reward: wholeCoins(state.reward, coin),
    observed_at: state.observed_at.toISOString(),
  };
}

export interface BlocksDeps {
  hashesPerDifficulty: HashesPerDifficulty;
}

/** The stats page's Network section: each chain the algorithm mines now, with the blocks found on it. */
export async function readChainNetworks(
  db: Executor,
  algorithm: AlgorithmKey,
  deps: BlocksDeps,
): Promise<(NetworkFigures & { merged: boolean; blocks: number })[]> {
  const [chains, catalogue] = await Promise.all([chainsOf(db, algorithm), catalogueByTicker(db)]);
  const perDifficulty = deps.hashesPerDifficulty(algorithm);
  return chains.flatMap((chain) =>
    chain.state
      ? [
          {
            ...networkFigures({ ...chain, state: chain.state }, catalogue.get(chain.coin), perDifficulty),
            merged: chain.merged,
            blocks: chain.blocks,
          },
        ]
      : [],
  );
}

/** A coin asked for that the algorithm does not mine (nor ever found a block of). */
export class UnknownChainError extends Error {
  constructor(algorithm: string, coin: string) {
    super(`${algorithm.toUpperCase()} mines no ${coin} here.`);
    this.name = 'UnknownChainError';
  }
}

/** One row of the blocks table. */
export function presentBlock(block: Block, coin: Coin | undefined, demo: boolean): BlockRow {
  const status = block.status === 'rejected' ? 'orphaned' : block.status;
  const left =
    status === 'pending' && block.confirmations_required !== null
      ? Math.max(0, block.confirmations_required - block.confirmations)
      : null;
  return {
    height: Number(block.height),
    hash: block.hash,
    // Demo blocks are on no public chain.
    explorer_url: demo
      ? null
      : blockExplorerLink(coin?.explorer_block_url ?? null, {
          hash: block.hash,
          height: Number(block.height),
          chain: block.chain,
        }),
    found_at: block.found_at.toISOString(),
    reward: wholeCoins(block.reward, coin),
    status,
    confirmations: block.confirmations,
    confirmations_left: left,
    effort: blockEffort(block.round_difficulty, block.network_difficulty) ?? null,
    solo: block.solo,
  };
}

function luckFigures(totals: { blocks: number; totalEffort: string }): LuckFigures {
  return luckOfTotals(totals.blocks, decimalToNumber(totals.totalEffort));
}

/** GET /v1/pool/blocks/{algorithm} and /v1/api/blocks/{algorithm}. */
export async function readBlocks(
  db: Executor,
  algorithm: AlgorithmKey,
  query: { coin?: string | undefined; page: number },
  deps: BlocksDeps,
  now = new Date(),
): Promise<BlocksResponse> {
  const [chains, catalogue] = await Promise.all([chainsOf(db, algorithm), catalogueByTicker(db)]);
  const chain = query.coin === undefined ? chains[0] : chains.find((c) => c.coin === query.coin);
  if (query.coin !== undefined && chain === undefined) throw new UnknownChainError(algorithm, query.coin);
  const luckNone = luckOfTotals(0, 0);
  const base = {
    algorithm,
    chains: chains.map((c) => ({
      coin: c.coin,
      name: catalogue.get(c.coin)?.name ?? c.coin,
      merged: c.merged,
      blocks: c.blocks,
    })),
  };
  if (chain === undefined) {
    return {
      ...base,
      coin: null,
      demo: false,
      network: null,
      round: { effort: null, started_at: null },
      luck: { h24: luckNone, d7: luckNone, d30: luckNone },
      blocks: [],
      page: 1,
      page_size: BLOCKS_PAGE_SIZE,
      total: 0,
    };
  }
  const coin = catalogue.get(chain.coin);
  const window = pageWindow(chain.blocks, BLOCKS_PAGE_SIZE, query.page);
  const since = LUCK_PERIODS.map((p) => new Date(now.getTime() - p.hours * HOUR_MS));
  const [rows, totals, round] = await Promise.all([
    chainBlocks(db, algorithm, chain.coin, { offset: window.start, limit: BLOCKS_PAGE_SIZE }),
    effortTotals(db, algorithm, chain.coin, since),
    openRound(db, algorithm, chain.coin),
  ]);
  const demo = chain.state?.demo ?? false;
  const [h24, d7, d30] = totals.map(luckFigures) as [LuckFigures, LuckFigures, LuckFigures];
  return {
    ...base,
    coin: chain.coin,
    demo,
    network: chain.state
      ? networkFigures({ ...chain, state: chain.state }, coin, deps.hashesPerDifficulty(algorithm))
      : null,
    round: {
      effort: round ? (blockEffort(round.accepted_difficulty, round.block_difficulty) ?? null) : null,
      started_at: round ? round.started_at.toISOString() : null,
    },
    luck: { h24, d7, d30 },
    blocks: rows.map((b) => presentBlock(b, coin, demo)),
    page: window.page,
    page_size: BLOCKS_PAGE_SIZE,
    total: chain.blocks,
  };
}
