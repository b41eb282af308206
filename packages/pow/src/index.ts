/**
 * Proof of work for the six algorithms the pool mines: per-algorithm hash functions and header
 * helpers, and the target ↔ difficulty maths with each algorithm's difficulty-1 convention.
 * Pure functions only (node:crypto is used for hashing, which is CPU-only).
 *
 *   algorithm    work input of hash()                         value   diff1Target        hashes/diff1
 *   sha256       80-byte header, sha256d                      LE      0xFFFF × 2^208     2^32
 *   scrypt       80-byte header, scrypt(1024,1,1)             LE      0xFFFF × 2^224     2^16
 *   x11          80-byte header, X11                          LE      0xFFFF × 2^208     2^32
 *   blake2s      286-byte Kadena work header, Blake2s-256     LE      2^256 − 1          1
 *   eaglesong    48-byte CKB pow message, Eaglesong           BE      2^256 − 1          1
 *   kheavyhash   80-byte Kaspa pow input, kHeavyHash          LE      2^224 − 1          2^32
 */
import type { AlgorithmKey } from '@lodestone/domain';
import type { PowAlgorithm } from './algorithm.js';
import { blake2sPow } from './blake2s.js';
import { eaglesongPow } from './eaglesong.js';
import { kheavyhashPow } from './kheavyhash.js';
import { scryptPow } from './scrypt.js';
import { sha256Pow } from './sha256.js';
import { x11Pow } from './x11.js';

export type { PowAlgorithm } from './algorithm.js';
export {
  blake2sWork,
  KADENA_NONCE_OFFSET,
  KADENA_TARGET_OFFSET,
  KADENA_TIME_OFFSET,
  KADENA_WORK_LENGTH,
  kadenaNonce,
  kadenaTarget,
  setKadenaNonce,
} from './blake2s.js';
export {
  CKB_POW_MESSAGE_LENGTH,
  type CkbRawHeader,
  ckbBlockHash,
  ckbHash,
  ckbPowHash,
  ckbPowMessage,
  eaglesong,
  encodeCkbRawHeader,
} from './eaglesong.js';
export { type BitcoinHeaderFields, encodeBitcoinHeader, HEADER_LENGTH } from './header.js';
export {
  KASPA_POW_INPUT_LENGTH,
  type KaspaHeader,
  kaspaBlockHash,
  kaspaPowInput,
  kaspaPrePowHash,
  kaspaTargetFromBits,
  kheavyhash,
  kheavyhashPow,
  setKaspaNonce,
} from './kheavyhash.js';
export { SCRYPT_DIFF1_TARGET } from './scrypt.js';
export { bitsFromTarget, targetFromBits, targetFromCompact } from './target.js';
export { MAX_UINT256, readUint256LE, uint256ToBytesBE, uint256ToBytesLE } from './uint256.js';

export const POW: Record<AlgorithmKey, PowAlgorithm> = Object.freeze({
  scrypt: scryptPow,
  sha256: sha256Pow,
  eaglesong: eaglesongPow,
  blake2s: blake2sPow,
  x11: x11Pow,
  kheavyhash: kheavyhashPow,
});
