import { POW } from '@lodestone/pow';
import { hashToRpcHex } from './bitcoin/bytes.js';
import { sha256d } from './bitcoin/hash.js';
import type { BitcoinJob } from './job.js';

/** The proof of work this package needs, from `@lodestone/pow`, in one place. */
export { bitsFromTarget, targetFromBits } from '@lodestone/pow';

export type BitcoinAlgorithm = BitcoinJob['algorithm'];

/** The proof-of-work hash of an 80-byte header (sha256d, scrypt(1024,1,1) or X11). */
export function powHash(algorithm: BitcoinAlgorithm, header: Uint8Array): Uint8Array {
  return POW[algorithm].hash(header);
}

/** True when the hash, read in the algorithm's byte order, is at or below the target. */
export function meetsTarget(algorithm: BitcoinAlgorithm, hash: Uint8Array, target: bigint): boolean {
  return POW[algorithm].meetsTarget(hash, target);
}

/**
 * The block's identity hash in RPC byte order. SHA256 and SCRYPT coins identify blocks by sha256d of the
 * header (for Litecoin the scrypt hash is only the proof of work); Dash identifies them by the X11 hash.
 */
export function blockHashHex(algorithm: BitcoinAlgorithm, header: Uint8Array): string {
  return hashToRpcHex(algorithm === 'x11' ? POW.x11.hash(header) : sha256d(header));
}
