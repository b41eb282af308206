import {
  allTimeDifficultyByAlgorithm,
  averageProfitSince,
  countBlocksByAlgorithm,
  countRegisteredUsers,
  type DB,
  type Executor,
  latestPrices,
  listCoins,
  mergedNetworkStates,
  type NetworkState,
  networkStates,
  type PoolStats,
  savePoolStats,
  windowActivity,
} from '@lodestone/db';
import {
  ALGORITHMS,
  type AlgorithmKey,
  Exact,
  estimateHashrate,
  hashesFromDifficulty,
  profitPerHashPerDay,
  statsWindow,
} from '@lodestone/domain';
import type { Kysely } from 'kysely';
import type { HashesPerDifficulty } from '../services/hashesPerDifficulty.js';
import type { JobDefinition } from './types.js';

/** Three snapshots a minute per algorithm: about 26,000 small rows a day for six algorithms. */
export const ROLLUP_EVERY_MS = 20_000;

export interface RollupOptions {
  /** See statsWindow in @lodestone/domain: the last N complete minutes. */
  windowMinutes: number;
  hashesPerDifficulty: HashesPerDifficulty;
}

/**
 * Writes one pool_stats snapshot per algorithm, stamped with the window's end (`to`), in one
 * transaction; a second rollup in the same minute rewrites those rows.
 *
 * - hashrate (H/s) = Σ accepted difficulty in the window × hashesPerDifficulty ÷ window seconds;
 * - miners / workers = distinct accounts / workers with accepted shares in the window;
 * - users = the pool's registered users (who can log in; not the demo user, not the deleted): the
 *   same pool-wide number in every algorithm's row;
 * - blocks = blocks of the algorithm not rejected by the daemon (pending, confirmed, orphaned);
 * - total_hashes = all-time Σ accepted difficulty × hashesPerDifficulty;
 * - profit = the PPS rate now: BTC per H/s per day, from the algorithm's network state (reward ÷
 *   network difficulty, what accounting credits a share at) and the newest prices; 0 while the
 *   algorithm's network or a price is unknown — never made up;
 * - profit_avg_24h = the mean of the profit snapshots of the last 24 hours, this one included, that
 *   knew a rate (profit 0 means none was known yet; averageProfitSince).
 */
export async function rollupPoolStats(db: Kysely<DB>, now: Date, options: RollupOptions): Promise<PoolStats[]> {
  const window = statsWindow(now, options.windowMinutes);
  return db.transaction().execute(async (trx) => {
    const allTime = await allTimeDifficultyByAlgorithm(trx);
    const blocks = await countBlocksByAlgorithm(trx);
    const users = await countRegisteredUsers(trx);
    const rates = await ppsRates(trx, options.hashesPerDifficulty);
    const written: PoolStats[] = [];
    for (const { key } of ALGORITHMS) {
      const active = await windowActivity(trx, key, window.from, window.to);
      const perDifficulty = options.hashesPerDifficulty(key);
      const profit = rates.get(key) ?? '0';
      const dayAgo = new Date(window.to.getTime() - 86_400_000);
      const average = await averageProfitSince(trx, key, dayAgo, window.to, profit);
      written.push(
        await savePoolStats(trx, {
          algorithm: key,
          taken_at: window.to,
          hashrate: estimateHashrate(active.acceptedDifficulty, perDifficulty, window.seconds),
          miners: active.miners,
          workers: active.workers,
          users,
          blocks: blocks.get(key) ?? 0,
          total_hashes: hashesFromDifficulty(allTime.get(key) ?? '0', perDifficulty),
          profit,
          profit_avg_24h: average,
        }),
      );
    }
    return written;
  });
}

/**
 * The PPS rate of every algorithm whose network state and prices are known: BTC per H/s per day.
 * Display only, so the newest prices serve even when stale (crediting is stricter).
 */
export async function ppsRates(
  db: Executor,
  hashesPerDifficulty: HashesPerDifficulty,
): Promise<Map<AlgorithmKey, string>> {
  const [states, merged, prices, coins] = await Promise.all([
    networkStates(db),
    mergedNetworkStates(db),
    latestPrices(db),
    listCoins(db),
  ]);
  const decimals = new Map(coins.map((c) => [c.ticker, c.decimals]));
  const btc = prices.get('BTC');
  const out = new Map<AlgorithmKey, string>();
  if (!btc) return out;
  const rateOf = (state: NetworkState): Exact | undefined => {
    const price = prices.get(state.coin);
    const d = decimals.get(state.coin);
    if (!price || d === undefined || Exact.of(state.difficulty).isZero()) return undefined;
    return profitPerHashPerDay(
      BigInt(state.reward),
      state.difficulty,
      hashesPerDifficulty(state.algorithm),
      { decimals: d, usd: price.usd },
      { decimals: decimals.get('BTC') ?? 8, usd: btc.usd },
    );
  };
  for (const state of states as NetworkState[]) {
    let rate = rateOf(state);
    if (rate === undefined) continue;
    // Merged mining: a share also earns each aux chain's value, as long as the aux chain was mined
    // beside the parent lately (a paused or removed aux chain stops counting).
    for (const aux of merged) {
      if (aux.algorithm !== state.algorithm) continue;
      if (aux.observed_at.getTime() < state.observed_at.getTime() - MERGED_STATE_MAX_LAG_MS) continue;
      const auxRate = rateOf(aux);
      if (auxRate !== undefined) rate = rate.plus(auxRate);
    }
    out.set(state.algorithm, rate.toString());
  }
  return out;
}

/** An aux chain's state older than its parent's by this much no longer counts in profitability. */
const MERGED_STATE_MAX_LAG_MS = 10 * 60_000;

/**
 * The rollup as a job: every 20 seconds (the window includes the current minute, so a new pool or
 * miner shows up within seconds), and once at start so a restarted server has a fresh snapshot at
 * once. Singleton: with two jobs processes one writes, the other stands by.
 */
export function rollupJob(options: RollupOptions): JobDefinition {
  statsWindow(new Date(0), options.windowMinutes); // refuse a bad window at start-up, not at the first run
  return {
    name: 'pool-stats-rollup',
    everyMs: ROLLUP_EVERY_MS,
    offsetMs: 0,
    runOnStart: true,
    runOnNewAlgorithm: true,
    singleton: true,
    async run({ database, now }) {
      await rollupPoolStats(database.db, now, options);
    },
  };
}
