import type { BitcoinHeaderFields } from '@lodestone/pow';
import { isHex } from './bytes.js';
import { ParseError } from './reader.js';

/** The 80-byte block header's fields, with hashes in internal byte order (encoded by pow's encodeBitcoinHeader). */
export type BlockHeader = BitcoinHeaderFields;

export const HEADER_SIZE = 80;

/**
 * Writes a header into `out` (80 bytes) in place — the share path's form of pow's encodeBitcoinHeader:
 * int32 version (as its uint32 bit pattern), prev hash, merkle root, uint32 time, bits, nonce, all
 * little-endian.
 */
export function writeHeader(
  out: Buffer,
  version: number,
  prevHash: Uint8Array,
  merkleRoot: Uint8Array,
  time: number,
  bits: number,
  nonce: number,
): void {
  out.writeUInt32LE(version >>> 0, 0);
  out.set(prevHash, 4);
  out.set(merkleRoot, 36);
  out.writeUInt32LE(time, 68);
  out.writeUInt32LE(bits, 72);
  out.writeUInt32LE(nonce, 76);
}

export function parseHeader(bytes: Uint8Array): BlockHeader {
  if (bytes.length < HEADER_SIZE) throw new ParseError('a block header is 80 bytes');
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, HEADER_SIZE);
  return {
    version: b.readInt32LE(0),
    prevHash: Buffer.from(b.subarray(4, 36)),
    merkleRoot: Buffer.from(b.subarray(36, 68)),
    time: b.readUInt32LE(68),
    bits: b.readUInt32LE(72),
    nonce: b.readUInt32LE(76),
  };
}

/**
 * The previous block hash as stratum's mining.notify carries it: the internal byte order with each
 * 4-byte word byte-swapped, which amounts to the RPC hex with its eight 8-digit words in reverse order.
 */
export function prevHashToNotify(rpcHex: string): string {
  if (!isHex(rpcHex, 32)) throw new TypeError('previous block hash must be 32 bytes of hex');
  const words: string[] = [];
  for (let i = 56; i >= 0; i -= 8) words.push(rpcHex.slice(i, i + 8));
  return words.join('').toLowerCase();
}

/** Inverse of prevHashToNotify. */
export function notifyToPrevHash(notifyHex: string): string {
  return prevHashToNotify(notifyHex);
}

export function parseBits(bitsHex: string): number {
  if (!isHex(bitsHex, 4)) throw new TypeError('bits must be 4 bytes of hex');
  return Number.parseInt(bitsHex, 16);
}

export function bitsToHex(bits: number): string {
  return (bits >>> 0).toString(16).padStart(8, '0');
}
