/**
 * What `bench:stratum` measures, one entry per algorithm: a job source that runs without a coin node
 * and the miner side of the algorithm's dialect. An algorithm is benchmarked once it has both; adding
 * one is one line here.
 */
import type { AlgorithmKey } from '@lodestone/domain';
import { BitcoinMiner } from '../src/stratum/client/bitcoinMiner.js';
import type { MinerDialect } from '../src/stratum/client/minerDialect.js';
import type { StratumAlgorithm } from '../src/stratum/pow.js';
import type { AnyWorkSource } from '../src/stratum/startStratum.js';
import { FixtureJobSource } from '../src/stratum/testing/fixtureJobs.js';

export interface StratumBenchCase {
  algorithm: AlgorithmKey;
  /**
   * A source of real jobs that needs no node. Its network target must be far below the target of the
   * lowest share difficulty (the benchmark's port difficulty), so that no share is a block.
   */
  source(): AnyWorkSource;
  /** The miner side of the algorithm's dialect, one per connection. */
  miner(): MinerDialect;
}

/** Bitcoin family: the fixture source (real coinbase, merkle branch and header; no share a block). */
function bitcoinCase(algorithm: StratumAlgorithm): StratumBenchCase {
  return {
    algorithm,
    source: () => new FixtureJobSource({ algorithm, networkTarget: 1n }),
    miner: () => new BitcoinMiner(algorithm),
  };
}

export const STRATUM_BENCH_CASES: readonly StratumBenchCase[] = [
  bitcoinCase('sha256'),
  bitcoinCase('scrypt'),
  bitcoinCase('x11'),
];

export function benchCase(algorithm: string): StratumBenchCase {
  const found = STRATUM_BENCH_CASES.find((c) => c.algorithm === algorithm);
  if (!found) throw new Error(`bench:stratum has no case for ${algorithm}`);
  return found;
}
