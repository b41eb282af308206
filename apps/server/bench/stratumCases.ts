/**
 * What `bench:stratum` measures, one entry per algorithm: a job source that runs without a coin node
 * and the miner side of the algorithm's dialect. An algorithm is benchmarked once it has both; adding
 * one is one line here. A variant of an algorithm's case (SCRYPT merge-mined with two aux chains) is
 * one more entry under a key of its own, compared with the plain case it names.
 */

import { createHash } from 'node:crypto';
import { AuxChainSource, MergedMining, type MergedWork } from '@lodestone/chain';
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
import { compactBits, FixtureJobSource } from '../src/stratum/testing/fixtureJobs.js';
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
  work(): StratumWork | Promise<StratumWork>;
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

/**
 * The aux chains of the merged SCRYPT case: Dogecoin (chain id 98) and Bellscoin (chain id 16), at a
 * mainnet-like difficulty (about 20 M each, 2025's order, written from memory: a share at the port's
 * difficulty meets it once in some 2^56, so none of the bench's does) and block value. Each answers
 * createauxblock like its daemon; the MergedWork is built by the AuxChainSource and MergedMining a
 * pool on real daemons uses.
 */
const BENCH_AUX_CHAINS = [
  { coin: 'DOGE', chainId: 98, height: 5_800_000, coinbaseValue: 1_000_000_000_000, difficulty: 20_000_000n },
  { coin: 'BELLS', chainId: 16, height: 300_000, coinbaseValue: 1_500_000_000, difficulty: 20_000_000n },
] as const;

/** The difficulty-1 target of the bitcoin family's difficulty (0xffff · 2^208). */
const DIFFICULTY_1_TARGET = 0xffffn << 208n;

function benchHash(label: string): string {
  return createHash('sha256').update(`lodestone bench ${label}`).digest('hex');
}

/** An aux daemon's answers (validateaddress, createauxblock, getbestblockhash), as the RPC client's fetch. */
function auxDaemonFetch(chain: (typeof BENCH_AUX_CHAINS)[number]): typeof fetch {
  const previousblockhash = benchHash(`${chain.coin} tip`);
  const answers: Record<string, unknown> = {
    validateaddress: { isvalid: true },
    getbestblockhash: previousblockhash,
    createauxblock: {
      hash: benchHash(`${chain.coin} block`),
      chainid: chain.chainId,
      previousblockhash,
      coinbasevalue: chain.coinbaseValue,
      bits: compactBits(DIFFICULTY_1_TARGET / chain.difficulty)
        .toString(16)
        .padStart(8, '0'),
      height: chain.height,
    },
  };
  return async (_url, init) => {
    const { id, method } = JSON.parse(String(init?.body)) as { id: number; method: string };
    const reply =
      method in answers
        ? { result: answers[method], error: null, id }
        : { result: null, error: { code: -32601, message: 'Method not found' }, id };
    return new Response(JSON.stringify(reply), { headers: { 'content-type': 'application/json' } });
  };
}

/** The merged work of the two bench aux chains, built once (no polling afterwards: the work never changes). */
async function benchMergedWork(): Promise<MergedWork> {
  const merged = new MergedMining(
    BENCH_AUX_CHAINS.map(
      (chain) =>
        new AuxChainSource({
          coin: chain.coin,
          chainId: chain.chainId,
          daemons: [{ url: `http://${chain.coin.toLowerCase()}.bench.invalid/`, fetch: auxDaemonFetch(chain) }],
          payoutAddress: 'bench',
          pollIntervalMs: 3_600_000,
        }),
    ),
  );
  await merged.start();
  await merged.stop();
  const work = merged.current();
  if (work?.chains.length !== BENCH_AUX_CHAINS.length) throw new Error('bench:stratum: the aux chains gave no work');
  return work;
}

/** SCRYPT merge-mined with the two aux chains: the plain SCRYPT case plus the commitment and each share's aux target checks. */
const scryptMergedCase: StratumBenchCase = {
  key: 'scrypt+merged',
  algorithm: 'scrypt',
  variant: { label: 'SCRYPT, 2 merged chains', plain: 'scrypt' },
  work: async () =>
    bitcoinWork(new FixtureJobSource({ algorithm: 'scrypt', networkTarget: 1n, merged: await benchMergedWork() })),
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
