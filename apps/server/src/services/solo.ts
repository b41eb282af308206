import { SOLO_BLOCKS_LISTED, type SoloResponse } from '@lodestone/contract';
import {
  type Account,
  accountSoloBlocks,
  accountSoloRound,
  accountWorkerRows,
  networkStates,
  openRound,
  soloWorkerBests,
} from '@lodestone/db';
import {
  type AlgorithmKey,
  blockEffort,
  decimalToNumber,
  estimateHashrate,
  hashesPerBlock,
  hashrateOf,
  measuredSeconds,
  shiftDecimal,
  soloOdds,
  sumDecimals,
} from '@lodestone/domain';
import { presentBlock } from './blocks.js';
import { type MiningContext, rangeOf, readingScope } from './mining.js';
import { catalogueByTicker } from './money/coinCatalogue.js';

/*
 * The dashboard's solo panel (docs/solo.md): an account's solo workers with their best shares, its
 * odds of a block at their hashrate, its solo round and the blocks it found.
 */

/** GET /v1/user/mining/solo and its observer twin. */
export async function readSolo(ctx: MiningContext, account: Account, algorithm: AlgorithmKey): Promise<SoloResponse> {
  const { db } = ctx;
  const { periods, perDifficulty } = readingScope(ctx, algorithm);
  const [rows, bests, state, catalogue, blocks] = await Promise.all([
    accountWorkerRows(db, { ...rangeOf(account, algorithm, periods), solo: true }),
    soloWorkerBests(db, account.username, algorithm),
    networkStates(db).then((all) => all.find((s) => s.algorithm === algorithm)),
    catalogueByTicker(db),
    accountSoloBlocks(db, account.username, algorithm, SOLO_BLOCKS_LISTED),
  ]);
  const now = periods.to;
  // The workers' 24 hours, each over its own age when younger (as the workers list measures them).
  const hashes = rows.map((r) =>
    estimateHashrate(r.dayDifficulty, perDifficulty, measuredSeconds(periods.day, r.firstSeenAt, now)),
  );
  const total = decimalToNumber(sumDecimals(hashes));
  const shown = hashrateOf(sumDecimals(hashes), 1, 1);

  let perBlock: number | undefined;
  let network: SoloResponse['network'] = null;
  let odds: SoloResponse['odds'] = null;
  let round: SoloResponse['round'] = null;
  if (state) {
    const [chainRound, own] = await Promise.all([
      openRound(db, algorithm, state.coin),
      accountSoloRound(db, account.username, algorithm, state.coin),
    ]);
    // Blocks are found at the chain's block difficulty (the demo network's own easy one), which the
    // pool's round of the chain keeps; the network's difficulty before any round.
    const blockDifficulty = chainRound?.block_difficulty ?? state.difficulty;
    const coin = catalogue.get(state.coin);
    network = {
      block_difficulty: decimalToNumber(blockDifficulty),
      block_reward: coin ? shiftDecimal(state.reward, -coin.decimals) : state.reward,
    };
    perBlock = hashesPerBlock(blockDifficulty, perDifficulty);
    const chance = soloOdds(total, perBlock);
    odds = { p_day: chance.pDay, expected_seconds: chance.expectedSeconds };
    if (own) {
      round = {
        started_at: own.started_at.toISOString(),
        effort: blockEffort(own.accepted_difficulty, blockDifficulty) ?? null,
        best_difficulty: own.best_difficulty === null ? null : decimalToNumber(own.best_difficulty),
        best_at: own.best_at?.toISOString() ?? null,
      };
    }
  }

  return {
    fee_percent: ctx.soloFeePercent,
    coin: state?.coin ?? null,
    demo: state?.demo ?? false,
    network,
    hashrate: shown.value,
    hashrate_units: shown.units,
    odds,
    round,
    workers: rows.map((r, i) => {
      const rate = hashrateOf(hashes[i] ?? '0', 1, 1);
      const best = bests.get(r.id);
      return {
        id: r.id,
        name: r.name,
        online: Number(r.windowDifficulty) > 0,
        hashrate: rate.value,
        hashrate_units: rate.units,
        p_day: perBlock === undefined ? null : soloOdds(decimalToNumber(hashes[i] ?? '0'), perBlock).pDay,
        best_difficulty: best ? decimalToNumber(best.difficulty) : null,
        best_at: best?.at.toISOString() ?? null,
        last_share_at: r.lastAcceptedAt?.toISOString() ?? null,
      };
    }),
    blocks: blocks.map((b) => {
      const coin = catalogue.get(b.coin);
      return {
        ...presentBlock(b, coin, state?.demo ?? false),
        coin: b.coin,
        worker: b.worker,
        fee_percent: decimalToNumber(b.solo_fee_percent ?? '0'),
        credited: b.credited === null ? null : coin ? shiftDecimal(b.credited, -coin.decimals) : b.credited,
      };
    }),
  };
}
