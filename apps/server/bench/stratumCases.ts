/**
 * What `bench:stratum` measures, one entry per algorithm: a job source that runs without a coin node
 * and the miner side of the algorithm's dialect. An algorithm is benchmarked once it has both; adding
 * one is one line here. A variant of an algorithm's case (SCRYPT merge-mined with two aux chains) is
 * one more entry under a key of its own, compared with the plain case it names.
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
import { fixtureMergedWork } from '../src/stratum/testing/mergedFixture.js';
import type { StratumWork } from '../src/stratum/work.js';

export interface StratumBenchCase {
  /** What `--algorithms=` and the report name it: the algorithm, or `algorithm+variant`. */
  key: string;
  algorithm: AlgorithmKey;
  /** For a variant: what the report calls it, and the key of the plain case it is compared with. */
  variant?: { label: string; plain: string };
  /**
   * A source of real jobs that needs no node. Its network target (and any aux chain's) must be far
   * below the target of the lowest share difficulty (the benchmark's port difficulty), so that no
   * share is a block.
   */
  work(): StratumWork;
  /** The miner side of the algorithm's dialect, one per connection. */
  miner(): MinerDialect;
}

/** Bitcoin family: the fixture source (real coinbase, merkle branch and header; no share a block). */
function bitcoinCase(algorithm: StratumAlgorithm): StratumBenchCase {
  return {
    key: algorithm,
    algorithm,
    work: () => bitcoinWork(new FixtureJobSource({ algorithm, networkTarget: 1n })),
    miner: () => new BitcoinMiner(algorithm),
  };
}

/** SCRYPT merge-mined with the two aux chains: the plain SCRYPT case plus the commitment and each share's aux target checks. */
const scryptMergedCase: StratumBenchCase = {
  key: 'scrypt+merged',
  algorithm: 'scrypt',
  variant: { label: 'SCRYPT, 2 merged chains', plain: 'scrypt' },
  work: () =>
    bitcoinWork(new FixtureJobSource({ algorithm: 'scrypt', networkTarget: 1n, merged: fixtureMergedWork() })),
  miner: () => new BitcoinMiner('scrypt'),
};

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
  scryptMergedCase,
  bitcoinCase('x11'),
  // CKB mainnet block 76245's template: a real mainnet target, about 10^17 hashes a block.
  {
    key: 'eaglesong',
    algorithm: 'eaglesong',
    work: () => ckbWork(new CkbFixtureSource([REAL_CKB_POW_BLOCK])),
    miner: () => new CkbMiner(),
  },
  // Real Kaspa blocks with a mainnet-order compact target (about 2^61 hashes a block).
  {
    key: 'kheavyhash',
    algorithm: 'kheavyhash',
    work: () => kaspaWork(new KaspaFixtureSource({ now: Date.now, bits: 0x1906ffff })),
    miner: () => new KaspaMiner('goldshell'),
  },
  { key: 'blake2s', algorithm: 'blake2s', work: kadenaSource, miner: () => new KadenaMiner() },
];

export function benchCase(key: string): StratumBenchCase {
  const found = STRATUM_BENCH_CASES.find((c) => c.key === key);
  if (!found) throw new Error(`bench:stratum has no case ${key}`);
  return found;
}
