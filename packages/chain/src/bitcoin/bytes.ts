/** Byte helpers shared by the bitcoin-family serializers. Everything here is pure. */

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** Decodes hex (even length, hex digits only); anything else is a TypeError, never a silent truncation. */
export function hexToBytes(hex: string, what = 'hex'): Buffer {
  if (!HEX.test(hex)) throw new TypeError(`${what} is not valid hex`);
  return Buffer.from(hex, 'hex');
}

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function isHex(value: string, byteLength?: number): boolean {
  return HEX.test(value) && (byteLength === undefined || value.length === byteLength * 2);
}

/** A reversed copy: RPC shows hashes byte-reversed from how they are serialized. */
export function reverseBytes(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes).reverse();
}

/** Hex of a hash as RPC shows it (reversed) to internal byte order, and back. */
export function hashFromRpcHex(hex: string, what = 'hash'): Buffer {
  if (!isHex(hex, 32)) throw new TypeError(`${what} must be 32 bytes of hex`);
  return Buffer.from(hex, 'hex').reverse();
}

export function hashToRpcHex(hash: Uint8Array): string {
  return reverseBytes(hash).toString('hex');
}

export function concatBytes(parts: readonly Uint8Array[]): Buffer {
  return Buffer.concat(parts);
}

export function isUint32(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}

export function uint32LE(value: number): Buffer {
  if (!isUint32(value)) throw new RangeError(`${value} is not a uint32`);
  const out = Buffer.allocUnsafe(4);
  out.writeUInt32LE(value, 0);
  return out;
}

export function int32LE(value: number): Buffer {
  const out = Buffer.allocUnsafe(4);
  out.writeInt32LE(value, 0);
  return out;
}

export function uint64LE(value: bigint): Buffer {
  const out = Buffer.allocUnsafe(8);
  out.writeBigUInt64LE(value, 0);
  return out;
}

/** Bytes as an unsigned integer, least significant byte first (how bitcoin compares hashes with targets). */
export function bytesToBigIntLE(bytes: Uint8Array): bigint {
  return BigInt(`0x${reverseBytes(bytes).toString('hex') || '0'}`);
}
