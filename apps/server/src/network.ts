import { type ChainLogger, DEFAULT_DEMO_HASHES_PER_BLOCK, DEMO_BLOCK_SECONDS } from '@lodestone/chain';
import type { AlgorithmKey } from '@lodestone/domain';
import { coinWork, demoWork, minerDialectFor } from './chains/registry.js';
import type { Config } from './config/config.js';
import { DEFAULT_FLEET_HASHRATE, fleetAssignments } from './demo/fleet.js';
import type { StratumWork } from './stratum/work.js';

/** Algorithms that have stratum ports, in listener order, without duplicates. */
export function servedAlgorithms(config: Config): AlgorithmKey[] {
  return [...new Set(config.stratumListeners.map((l) => l.algorithm))];
}

/** Algorithms with ports but no configured coin: their work comes from the demo network. */
export function demoAlgorithms(config: Config): AlgorithmKey[] {
  const mined = new Set<AlgorithmKey>(config.coins.map((c) => c.algorithm));
  return servedAlgorithms(config).filter((a) => !mined.has(a));
}

/** Whether the demo fleet mines an algorithm (its miner side of the dialect exists). */
export function fleetMines(algorithm: AlgorithmKey): boolean {
  return minerDialectFor(algorithm) !== undefined;
}

/**
 * Sizes the demo chain's start target to the demo fleet's own hashrate, so that a newcomer running
 * `npm start` sees a block found now and then (about every ten minutes per algorithm). From there the
 * chain retargets to whatever mines it (DEMO_BLOCK_SECONDS), and never gets easier than this start.
 */
function demoHashesPerBlock(config: Config, algorithm: AlgorithmKey, demo: AlgorithmKey[]): bigint {
  const targets = demo.filter(fleetMines).map((a) => ({ algorithm: a, host: '', port: 0 }));
  const workers = fleetAssignments(config.demoWorkers, config.demoAccounts, targets).filter(
    (w) => w.target.algorithm === algorithm,
  ).length;
  const hashrate = DEFAULT_FLEET_HASHRATE[algorithm];
  if (workers === 0) return DEFAULT_DEMO_HASHES_PER_BLOCK;
  return BigInt(Math.max(1, Math.round(workers * hashrate * DEMO_BLOCK_SECONDS)));
}

/**
 * One job source per served algorithm, with its dialect: its configured coin's nodes, or the demo
 * network (each chain module's demo: the bitcoin family's demo source, and for CKB, Kaspa and Kadena
 * their real job sources against in-process demo nodes, demo/demoChains.ts).
 */
export function createStratumWork(config: Config, logger: ChainLogger): StratumWork[] {
  const demo = demoAlgorithms(config);
  return servedAlgorithms(config).map((algorithm): StratumWork => {
    const coin = config.coins.find((c) => c.algorithm === algorithm);
    if (coin) return coinWork(coin, logger);
    return demoWork(algorithm, {
      expectedHashesPerBlock: demoHashesPerBlock(config, algorithm, demo),
      valuation: config.demoValuation,
      logger,
    });
  });
}
