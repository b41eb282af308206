import type { BitcoinJob } from '@lodestone/chain';
import type { AlgorithmKey } from '@lodestone/domain';
import { POW } from '@lodestone/pow';

/** The bitcoin-family algorithms (the demo fleet and coin daemons serve these). */
export type StratumAlgorithm = BitcoinJob['algorithm'];

/** What stratum needs from `@lodestone/pow` for one algorithm. */
export interface PowFunctions {
  hash(header: Uint8Array): Uint8Array;
  hashValue(hash: Uint8Array): bigint;
  targetForDifficulty(difficulty: number): bigint;
  difficultyForTarget(target: bigint): number;
  readonly hashesPerDifficulty: number;
}

export function powFor(algorithm: AlgorithmKey): PowFunctions {
  return POW[algorithm];
}

/** The largest 256-bit target: every hash meets it. */
export const MAX_TARGET = (1n << 256n) - 1n;
