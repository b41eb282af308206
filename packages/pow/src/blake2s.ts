/**
 * BLAKE2S (Kadena chainweb).
 *
 * - Work input: the 286-byte work header = the binary block header without its final 32-byte block
 *   hash (chainweb "Block-Header-Binary-Encoding"):
 *
 *     offset  size  field
 *          0     8  feature flags
 *          8     8  creation time (µs, int64 LE)
 *         16    32  parent hash
 *         48   110  adjacent parents (uint16 count + 3 × (chain id uint32 + hash))
 *        158    32  target (uint256 LE)
 *        190    32  payload hash
 *        222     4  chain id
 *        226    32  weight
 *        258     8  height
 *        266     4  chainweb version
 *        270     8  epoch start
 *        278     8  nonce (uint64 LE)
 *
 * - Hash: Blake2s-256 of the 286 bytes (node:crypto one-shot `hash('blake2s256')`), as
 *   chainweb-mining-client `powHash`.
 * - Hash value: the 32 bytes read little-endian (chainweb `PowHashNat`); valid when value <= target.
 * - Difficulty: difficulty = 2^256 / target, so diff1Target = 2^256 − 1 and one hash per difficulty 1
 *   (hashesPerDifficulty = 1).
 */
import { hash } from 'node:crypto';
import { checkInputLength, defineAlgorithm, type PowAlgorithm } from './algorithm.js';
import { MAX_UINT256, readUint256LE } from './uint256.js';

export const KADENA_WORK_LENGTH = 286;
export const KADENA_TIME_OFFSET = 8;
export const KADENA_TARGET_OFFSET = 158;
export const KADENA_NONCE_OFFSET = 278;

/** Blake2s-256 of a 286-byte Kadena work header. */
export function blake2sWork(work: Uint8Array): Uint8Array {
  checkInputLength('blake2s', work, KADENA_WORK_LENGTH);
  return hash('blake2s256', work, 'buffer');
}

function workView(work: Uint8Array): DataView {
  checkInputLength('blake2s', work, KADENA_WORK_LENGTH);
  return new DataView(work.buffer, work.byteOffset, KADENA_WORK_LENGTH);
}

/** Writes `nonce` (uint64 LE) at offset 278 of a work header, in place. */
export function setKadenaNonce(work: Uint8Array, nonce: bigint): void {
  workView(work).setBigUint64(KADENA_NONCE_OFFSET, BigInt.asUintN(64, nonce), true);
}

/** The nonce (uint64 LE at offset 278) of a work header. */
export function kadenaNonce(work: Uint8Array): bigint {
  return workView(work).getBigUint64(KADENA_NONCE_OFFSET, true);
}

/** The block target (uint256 LE at offset 158) carried in a work header. */
export function kadenaTarget(work: Uint8Array): bigint {
  checkInputLength('blake2s', work, KADENA_WORK_LENGTH);
  return readUint256LE(work.subarray(KADENA_TARGET_OFFSET, KADENA_TARGET_OFFSET + 32));
}

export const blake2sPow: PowAlgorithm = defineAlgorithm({
  key: 'blake2s',
  hash: blake2sWork,
  byteOrder: 'le',
  diff1Target: MAX_UINT256,
  hashesPerDifficulty: 1,
});
