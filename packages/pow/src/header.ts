/**
 * The 80-byte Bitcoin-family block header that SHA256, SCRYPT and X11 hash:
 *
 *   offset  size  field
 *        0     4  version          (int32 LE)
 *        4    32  previous block   (hash in internal byte order: the RPC hex reversed)
 *       36    32  merkle root      (internal byte order)
 *       68     4  time             (uint32 LE)
 *       72     4  bits             (uint32 LE, compact target)
 *       76     4  nonce            (uint32 LE)
 *
 * Hashes shown by daemons and explorers are these 32 bytes reversed; `hashToDisplayHex` and
 * `displayHexToHash` convert between the two.
 */

export const HEADER_LENGTH = 80;
export const HEADER_TIME_OFFSET = 68;
export const HEADER_BITS_OFFSET = 72;
export const HEADER_NONCE_OFFSET = 76;

export interface BitcoinHeaderFields {
  version: number;
  /** 32 bytes, internal byte order. */
  prevHash: Uint8Array;
  /** 32 bytes, internal byte order. */
  merkleRoot: Uint8Array;
  time: number;
  bits: number;
  nonce: number;
}

function checkHash(name: string, bytes: Uint8Array): void {
  if (bytes.length !== 32) throw new RangeError(`${name} must be 32 bytes, got ${bytes.length}`);
}

/** Serialises the six fields into a new 80-byte header. */
export function encodeBitcoinHeader(fields: BitcoinHeaderFields): Uint8Array {
  checkHash('prevHash', fields.prevHash);
  checkHash('merkleRoot', fields.merkleRoot);
  const header = new Uint8Array(HEADER_LENGTH);
  const view = new DataView(header.buffer);
  view.setInt32(0, fields.version | 0, true);
  header.set(fields.prevHash, 4);
  header.set(fields.merkleRoot, 36);
  view.setUint32(HEADER_TIME_OFFSET, fields.time >>> 0, true);
  view.setUint32(HEADER_BITS_OFFSET, fields.bits >>> 0, true);
  view.setUint32(HEADER_NONCE_OFFSET, fields.nonce >>> 0, true);
  return header;
}

/** Writes `nonce` (uint32 LE) into an 80-byte header in place. */
export function setHeaderNonce(header: Uint8Array, nonce: number): void {
  if (header.length !== HEADER_LENGTH) throw new RangeError(`header must be 80 bytes, got ${header.length}`);
  new DataView(header.buffer, header.byteOffset, HEADER_LENGTH).setUint32(HEADER_NONCE_OFFSET, nonce >>> 0, true);
}

function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** A hash in internal byte order → the reversed hex that daemons and explorers display. */
export function hashToDisplayHex(hash: Uint8Array): string {
  return toHex(Uint8Array.from(hash).reverse());
}

/** Displayed (reversed) hex → hash bytes in internal byte order. */
export function displayHexToHash(hex: string): Uint8Array {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new RangeError(`expected 64 hex digits, got "${hex}"`);
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[31 - i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}
