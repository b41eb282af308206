import {
  type ChainLogger,
  DaemonJobSource,
  DEFAULT_DEMO_HASHES_PER_BLOCK,
  DemoJobSource,
  type JobSource,
} from '@lodestone/chain';
import type { Config } from './config/config.js';
import { DEFAULT_FLEET_HASHRATE, fleetAssignments } from './demo/fleet.js';
import type { StratumAlgorithm } from './stratum/pow.js';

/** How often the demo network should find a block with the default fleet mining it. */
const DEMO_BLOCK_SECONDS = 600;

/** Algorithms that have stratum ports, in listener order, without duplicates. */
export function servedAlgorithms(config: Config): StratumAlgorithm[] {
  return [...new Set(config.stratumListeners.map((l) => l.algorithm))];
}

/** Algorithms with ports but no configured coin daemon: their work comes from the demo network. */
export function demoAlgorithms(config: Config): StratumAlgorithm[] {
  const mined = new Set(config.coins.map((c) => c.algorithm));
  return servedAlgorithms(config).filter((a) => !mined.has(a));
}

/**
 * Sizes the demo chain's target to the demo fleet's own hashrate, so that a newcomer running
 * `npm start` sees a block found now and then (about every ten minutes per algorithm).
 */
function demoHashesPerBlock(config: Config, algorithm: StratumAlgorithm, demo: StratumAlgorithm[]): bigint {
  const targets = demo.map((a) => ({ algorithm: a, host: '', port: 0 }));
  const workers = fleetAssignments(config.demoWorkers, config.demoAccounts, targets).filter(
    (w) => w.target.algorithm === algorithm,
  ).length;
  if (workers === 0) return DEFAULT_DEMO_HASHES_PER_BLOCK;
  return BigInt(Math.max(1, Math.round(workers * DEFAULT_FLEET_HASHRATE[algorithm] * DEMO_BLOCK_SECONDS)));
}

/** One job source per served algorithm: its coin's daemons, or the demo network. */
export function createJobSources(config: Config, logger: ChainLogger): JobSource[] {
  const demo = demoAlgorithms(config);
  return servedAlgorithms(config).map((algorithm) => {
    const coin = config.coins.find((c) => c.algorithm === algorithm);
    if (!coin) {
      return new DemoJobSource({
        algorithm,
        expectedHashesPerBlock: demoHashesPerBlock(config, algorithm, demo),
        valuation: config.demoValuation,
      });
    }
    return new DaemonJobSource({
      coin: coin.ticker,
      algorithm,
      daemons: coin.daemons,
      poolAddress: coin.pool_address,
      rules: coin.rules,
      pollIntervalMs: coin.poll_interval_ms,
      poolTag: coin.pool_tag,
      logger,
    });
  });
}
