/**
 * SCRYPT (Litecoin, Dogecoin).
 *
 * - Work input: the 80-byte block header (see header.ts). The block hash stays sha256d (sha256.ts);
 *   only the proof of work uses scrypt.
 * - Hash: scrypt(password = header, salt = header, N = 1024, r = 1, p = 1, 32 bytes), as Litecoin's
 *   `scrypt_1024_1_1_256`; node:crypto `scryptSync` (native OpenSSL).
 * - Hash value: the 32 bytes read little-endian, as for SHA256.
 * - Difficulty 1: target 0xFFFF × 2^224 — the usual "65536 multiplier": a scrypt share of difficulty 1
 *   has a target 65536 times the SHA256 one (cgminer/cpuminer/every scrypt pool).
 * - Hashes per difficulty 1: 2^16 (exact value 2^256 / (0xFFFF × 2^224) = 2^16 × 1.0000153).
 */
import { scryptSync } from 'node:crypto';
import { checkInputLength, defineAlgorithm, type PowAlgorithm } from './algorithm.js';
import { HEADER_LENGTH } from './header.js';

/**
 * OpenSSL needs 128·r·(N + 2) + 128·r·p bytes for these parameters (≈ 128 KiB); 1 MiB leaves room
 * without letting a wrong parameter allocate the default 32 MiB.
 */
export const SCRYPT_OPTIONS = Object.freeze({ N: 1024, r: 1, p: 1, maxmem: 1 << 20 });

/** Litecoin's scrypt_1024_1_1_256 of an 80-byte header. */
export function scryptHeader(header: Uint8Array): Uint8Array {
  checkInputLength('scrypt', header, HEADER_LENGTH);
  return scryptSync(header, header, 32, SCRYPT_OPTIONS);
}

export const SCRYPT_DIFF1_TARGET = 0xffffn << 224n;

export const scryptPow: PowAlgorithm = defineAlgorithm({
  key: 'scrypt',
  hash: scryptHeader,
  byteOrder: 'le',
  diff1Target: SCRYPT_DIFF1_TARGET,
  hashesPerDifficulty: 2 ** 16,
});
