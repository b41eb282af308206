/**
 * What `bench:stratum` measures, one entry per algorithm: a job source that runs without a coin node
 * and the miner side of the algorithm's dialect. An algorithm is benchmarked once it has both; adding
 * one is one line here.
 */

import { REAL_CKB_POW_BLOCK } from '@lodestone/chain/testing';
import type { AlgorithmKey } from '@lodestone/domain';
import { bitcoinWork } from '../src/chains/bitcoin/index.js';
import { BitcoinMiner } from '../src/chains/bitcoin/miner.js';
import { ckbWork } from '../src/chains/ckb/index.js';
import { CkbMiner } from '../src/chains/ckb/miner.js';
import { CkbFixtureSource } from '../src/chains/ckb/testing.js';
import { kadenaWork } from '../src/chains/kadena/index.js';
import { KadenaMiner } from '../src/chains/kadena/miner.js';
import { KadenaFixtureSource, kadenaFixtureJob } from '../src/chains/kadena/testing.js';
import { kaspaWork } from '../src/chains/kaspa/index.js';
import { KaspaMiner } from '../src/chains/kaspa/miner.js';
import { KaspaFixtureSource } from '../src/chains/kaspa/testing.js';
import type { MinerDialect } from '../src/stratum/client/minerDialect.js';
import type { StratumAlgorithm } from '../src/stratum/pow.js';
import { FixtureJobSource } from '../src/stratum/testing/fixtureJobs.js';
import type { StratumWork } from '../src/stratum/work.js';

export interface StratumBenchCase {
  algorithm: AlgorithmKey;
  /**
   * A source of real jobs that needs no node. Its network target must be far below the target of the
   * lowest share difficulty (the benchmark's port difficulty), so that no share is a block.
   */
  work(): StratumWork;
  /** The miner side of the algorithm's dialect, one per connection. */
  miner(): MinerDialect;
}

/** Bitcoin family: the fixture source (real coinbase, merkle branch and header; no share a block). */
function bitcoinCase(algorithm: StratumAlgorithm): StratumBenchCase {
  return {
    algorithm,
    work: () => bitcoinWork(new FixtureJobSource({ algorithm, networkTarget: 1n })),
    miner: () => new BitcoinMiner(algorithm),
  };
}

/** Kadena: a real mainnet work header whose target is 1, so that no share is a block. */
function kadenaSource(): StratumWork {
  const source = new KadenaFixtureSource();
  let id = 0;
  source.publish(kadenaFixtureJob(0, { target: 1n, clock: { now: Date.now() }, id: () => String(++id) }));
  return kadenaWork(source);
}

export const STRATUM_BENCH_CASES: readonly StratumBenchCase[] = [
  bitcoinCase('sha256'),
  bitcoinCase('scrypt'),
  bitcoinCase('x11'),
  // CKB mainnet block 76245's template: a real mainnet target, about 10^17 hashes a block.
  {
    algorithm: 'eaglesong',
    work: () => ckbWork(new CkbFixtureSource([REAL_CKB_POW_BLOCK])),
    miner: () => new CkbMiner(),
  },
  // Real Kaspa blocks with a mainnet-order compact target (about 2^61 hashes a block).
  {
    algorithm: 'kheavyhash',
    work: () => kaspaWork(new KaspaFixtureSource({ now: Date.now, bits: 0x1906ffff })),
    miner: () => new KaspaMiner('goldshell'),
  },
  { algorithm: 'blake2s', work: kadenaSource, miner: () => new KadenaMiner() },
];

export function benchCase(algorithm: string): StratumBenchCase {
  const found = STRATUM_BENCH_CASES.find((c) => c.algorithm === algorithm);
  if (!found) throw new Error(`bench:stratum has no case for ${algorithm}`);
  return found;
}
