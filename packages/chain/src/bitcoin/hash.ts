import { createHash } from 'node:crypto';

export function sha256(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** SHA-256 applied twice: transaction ids, merkle nodes, block ids of the SHA256 and SCRYPT coins. */
export function sha256d(data: Uint8Array): Buffer {
  return createHash('sha256').update(createHash('sha256').update(data).digest()).digest();
}

/** RIPEMD-160 of SHA-256, as used by P2PKH / P2WPKH. */
export function hash160(data: Uint8Array): Buffer {
  return createHash('ripemd160').update(sha256(data)).digest();
}
