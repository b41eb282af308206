/**
 * SHA256 (Bitcoin family).
 *
 * - Work input: the 80-byte block header (see header.ts).
 * - Hash: sha256d = SHA-256(SHA-256(header)), node:crypto's one-shot `hash` (native; about 1.5× the
 *   throughput of two `createHash` objects on 80 bytes).
 * - Hash value: the 32 bytes read little-endian, i.e. the reversed hex a daemon displays, as Bitcoin
 *   compares `UintToArith256(hash)` with the target.
 * - Difficulty 1: target 0x00000000FFFF0000…0000 = 0xFFFF × 2^208 (Bitcoin's difficulty-1 target, the
 *   one every stratum pool and miner uses). Share of difficulty D ⇒ target floor(0xFFFF × 2^208 / D).
 * - Hashes per difficulty 1: 2^32 (exact value 2^256 / (0xFFFF × 2^208) = 2^32 × 1.0000153).
 */
import { hash } from 'node:crypto';
import { type AlgorithmSpec, checkInputLength, defineAlgorithm, type PowAlgorithm } from './algorithm.js';
import { HEADER_LENGTH } from './header.js';

/** SHA-256 applied twice, to any input. */
export function sha256d(data: Uint8Array): Uint8Array {
  return hash('sha256', hash('sha256', data, 'buffer'), 'buffer');
}

/** The SHA256 proof-of-work hash of an 80-byte header (also the block hash, in internal byte order). */
export function sha256dHeader(header: Uint8Array): Uint8Array {
  checkInputLength('sha256', header, HEADER_LENGTH);
  return sha256d(header);
}

/**
 * Bitcoin's difficulty convention, which Dash keeps for X11: the hash read little-endian, difficulty 1
 * at target 0xFFFF × 2^208, 2^32 hashes per difficulty 1.
 */
export const BITCOIN_DIFFICULTY: Readonly<Pick<AlgorithmSpec, 'byteOrder' | 'diff1Target' | 'hashesPerDifficulty'>> = {
  byteOrder: 'le',
  diff1Target: 0xffffn << 208n,
  hashesPerDifficulty: 2 ** 32,
};

export const sha256Pow: PowAlgorithm = defineAlgorithm({ key: 'sha256', hash: sha256dHeader, ...BITCOIN_DIFFICULTY });
