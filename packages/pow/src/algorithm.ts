/**
 * The shape every algorithm shares. Each algorithm module supplies its hash function, the byte order
 * in which its hash is read as an integer, its difficulty-1 target and the expected number of hashes
 * per difficulty-1 share; `defineAlgorithm` derives the rest so the target/difficulty maths is written
 * once. The methods do not use `this`: they can be passed around detached.
 */
import type { AlgorithmKey } from '@lodestone/domain';
import { difficultyForTarget, targetForDifficulty } from './target.js';
import { readUint256BE, readUint256LE } from './uint256.js';

export interface PowAlgorithm {
  readonly key: AlgorithmKey;
  /** The proof-of-work hash (32 bytes) of the algorithm's work input: the 80-byte header for sha256/scrypt/x11; documented per module for the others. */
  hash(input: Uint8Array): Uint8Array;
  /** The hash as the integer compared with targets, in the algorithm's byte order. */
  hashValue(hash: Uint8Array): bigint;
  /** Target of a share of difficulty 1. */
  readonly diff1Target: bigint;
  /** Expected number of hashes for one share of difficulty 1 (hashrate = Σdifficulty × this ÷ seconds). */
  readonly hashesPerDifficulty: number;
  /** floor(diff1Target / difficulty), computed exactly for fractional difficulties too (e.g. 0.001, 65536.5). */
  targetForDifficulty(difficulty: number): bigint;
  difficultyForTarget(target: bigint): number;
  /** hashValue(hash) <= target */
  meetsTarget(hash: Uint8Array, target: bigint): boolean;
}

export interface AlgorithmSpec {
  key: AlgorithmKey;
  hash(input: Uint8Array): Uint8Array;
  /** 'le': byte 0 is the least significant (Bitcoin family, Kadena, Kaspa); 'be': byte 0 is the most significant (CKB). */
  byteOrder: 'le' | 'be';
  diff1Target: bigint;
  hashesPerDifficulty: number;
}

export function defineAlgorithm(spec: AlgorithmSpec): PowAlgorithm {
  const { key, hash, diff1Target, hashesPerDifficulty } = spec;
  const hashValue = spec.byteOrder === 'le' ? readUint256LE : readUint256BE;
  return Object.freeze({
    key,
    hash,
    hashValue,
    diff1Target,
    hashesPerDifficulty,
    targetForDifficulty: (difficulty: number) => targetForDifficulty(diff1Target, difficulty),
    difficultyForTarget: (target: bigint) => difficultyForTarget(diff1Target, target),
    meetsTarget: (h: Uint8Array, target: bigint) => hashValue(h) <= target,
  });
}

/** Throws RangeError unless `input` has exactly `length` bytes. */
export function checkInputLength(algorithm: string, input: Uint8Array, length: number): void {
  if (input.length !== length) {
    throw new RangeError(`${algorithm}: the work input is ${length} bytes, got ${input.length}`);
  }
}
