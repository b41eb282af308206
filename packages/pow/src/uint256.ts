/**
 * 256-bit integers as bigint: reading hashes in either byte order, writing them back, and the
 * exact ratio of two of them as a float. Shared by every algorithm; no algorithm knowledge here.
 */

/** 2^256 − 1: the largest 256-bit value, and so the largest possible target. */
export const MAX_UINT256 = (1n << 256n) - 1n;

function view32(bytes: Uint8Array): DataView {
  if (bytes.length !== 32) throw new RangeError(`expected a 32-byte hash, got ${bytes.length} bytes`);
  return new DataView(bytes.buffer, bytes.byteOffset, 32);
}

/** The 32 bytes read as one little-endian integer (byte 0 is the least significant). */
export function readUint256LE(bytes: Uint8Array): bigint {
  const v = view32(bytes);
  return (
    (v.getBigUint64(24, true) << 192n) |
    (v.getBigUint64(16, true) << 128n) |
    (v.getBigUint64(8, true) << 64n) |
    v.getBigUint64(0, true)
  );
}

/** The 32 bytes read as one big-endian integer (byte 0 is the most significant). */
export function readUint256BE(bytes: Uint8Array): bigint {
  const v = view32(bytes);
  return (
    (v.getBigUint64(0, false) << 192n) |
    (v.getBigUint64(8, false) << 128n) |
    (v.getBigUint64(16, false) << 64n) |
    v.getBigUint64(24, false)
  );
}

function checkUint256(value: bigint): void {
  if (value < 0n || value > MAX_UINT256) throw new RangeError(`${value} is not a 256-bit unsigned integer`);
}

/** `value` as 32 little-endian bytes. */
export function uint256ToBytesLE(value: bigint): Uint8Array {
  checkUint256(value);
  const out = new Uint8Array(32);
  const v = new DataView(out.buffer);
  for (let i = 0; i < 4; i++) v.setBigUint64(i * 8, BigInt.asUintN(64, value >> BigInt(64 * i)), true);
  return out;
}

/** `value` as 32 big-endian bytes. */
export function uint256ToBytesBE(value: bigint): Uint8Array {
  return uint256ToBytesLE(value).reverse();
}

/** Number of significant bits of a non-negative bigint (0 for 0). */
export function bitLength(value: bigint): number {
  return value === 0n ? 0 : value.toString(2).length;
}

/**
 * a / b as the nearest float, for positive bigints of up to a few hundred bits: the quotient is taken
 * with 64 significant bits in integer arithmetic, so the only rounding is the final one to 53 bits.
 */
export function ratioToNumber(a: bigint, b: bigint): number {
  if (b <= 0n) throw new RangeError('division by a non-positive bigint');
  if (a < 0n) throw new RangeError('ratio of a negative bigint');
  if (a === 0n) return 0;
  const shift = bitLength(b) - bitLength(a) + 64;
  const q = shift >= 0 ? (a << BigInt(shift)) / b : a / (b << BigInt(-shift));
  return Number(q) * 2 ** -shift;
}
