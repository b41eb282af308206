/**
 * X11 (Dash).
 *
 * - Work input: the 80-byte block header (see header.ts).
 * - Hash: the eleven chained 512-bit hashes blake, bmw, groestl, skein, jh, keccak, luffa, cubehash,
 *   shavite, simd, echo; the first 32 bytes of the last. In Dash the X11 hash is also the block hash.
 *   Computed by Dash's C implementation compiled to WebAssembly (`wasm-x11-hash`, see x11/wasm.ts).
 * - Hash value, difficulty 1 and hashes per difficulty: as SHA256 (Dash uses Bitcoin's conventions):
 *   read little-endian, diff1Target = 0xFFFF × 2^208, hashesPerDifficulty = 2^32.
 */
import { checkInputLength, defineAlgorithm, type PowAlgorithm } from './algorithm.js';
import { HEADER_LENGTH } from './header.js';
import { BITCOIN_DIFFICULTY } from './sha256.js';
import { x11Digest } from './x11/wasm.js';

export { x11Digest };

/** The X11 proof-of-work hash (and Dash block hash, internal byte order) of an 80-byte header. */
export function x11Header(header: Uint8Array): Uint8Array {
  checkInputLength('x11', header, HEADER_LENGTH);
  return x11Digest(header);
}

export const x11Pow: PowAlgorithm = defineAlgorithm({ key: 'x11', hash: x11Header, ...BITCOIN_DIFFICULTY });
