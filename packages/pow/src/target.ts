/**
 * Targets and difficulties.
 *
 * - `targetFromBits` / `bitsFromTarget`: Bitcoin's compact "nBits" encoding (arith_uint256
 *   SetCompact / GetCompact): one exponent byte, a 23-bit mantissa and a sign bit. A negative or
 *   overflowing encoding is not a target: it throws, as Bitcoin Core's CheckProofOfWork rejects it.
 * - `targetFromCompact`: the unsigned variant used by Nervos CKB and Kaspa (24-bit mantissa, no sign
 *   bit), overflow when the value does not fit in 256 bits.
 * - `targetForDifficulty` / `difficultyForTarget`: target = floor(diff1Target / difficulty), with the
 *   difficulty taken as the decimal it prints as (`String(difficulty)`: 0.001 is exactly 1/1000, 65536.5 is
 *   131073/2; an integer is itself), so the division is exact rational arithmetic and the result never
 *   depends on float rounding.
 */
import { MAX_UINT256, ratioToNumber } from './uint256.js';

function hex32(bits: number): string {
  return `0x${bits.toString(16).padStart(8, '0')}`;
}

function checkBits(bits: number): void {
  if (!Number.isInteger(bits) || bits < 0 || bits > 0xffffffff) {
    throw new RangeError(`compact bits must be an unsigned 32-bit integer, got ${bits}`);
  }
}

/** Bitcoin compact nBits → target. Throws RangeError for a negative or overflowing encoding. */
export function targetFromBits(bits: number): bigint {
  checkBits(bits);
  const size = bits >>> 24;
  let word = bits & 0x007fffff;
  let target: bigint;
  if (size <= 3) {
    word >>>= 8 * (3 - size);
    target = BigInt(word);
  } else {
    target = BigInt(word) << BigInt(8 * (size - 3));
  }
  if (word !== 0 && (bits & 0x00800000) !== 0) {
    throw new RangeError(`compact bits ${hex32(bits)} encode a negative target`);
  }
  if (word !== 0 && (size > 34 || (word > 0xff && size > 33) || (word > 0xffff && size > 32))) {
    throw new RangeError(`compact bits ${hex32(bits)} overflow 256 bits`);
  }
  return target;
}

/** Target → Bitcoin compact nBits (the mantissa never has the sign bit set; precision is 3 bytes). */
export function bitsFromTarget(target: bigint): number {
  if (target < 0n || target > MAX_UINT256) throw new RangeError(`target ${target} is not a 256-bit unsigned integer`);
  let size = (target.toString(16).length + 1) >> 1;
  if (target === 0n) size = 0;
  let mantissa = size <= 3 ? Number(target) * 256 ** (3 - size) : Number(target >> BigInt(8 * (size - 3)));
  if (mantissa & 0x00800000) {
    mantissa >>>= 8;
    size++;
  }
  return ((size << 24) | mantissa) >>> 0;
}

/**
 * Unsigned compact target (Nervos CKB `compact_to_target`, Kaspa `Uint256::from_compact_target_bits`):
 * exponent byte and a full 24-bit mantissa. Throws RangeError when the value exceeds 256 bits.
 */
export function targetFromCompact(compact: number): bigint {
  checkBits(compact);
  const exponent = compact >>> 24;
  const mantissa = compact & 0x00ffffff;
  if (exponent <= 3) return BigInt(mantissa >>> (8 * (3 - exponent)));
  if (mantissa !== 0 && exponent > 32) throw new RangeError(`compact target ${hex32(compact)} overflows 256 bits`);
  return BigInt(mantissa) << BigInt(8 * (exponent - 3));
}

const DECIMAL = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * A positive finite number as an exact fraction numerator/denominator: an integer as itself (exact even
 * above 2^53, where its printed form is rounded), any other value as its shortest decimal form.
 */
export function decimalFraction(value: number): [bigint, bigint] {
  if (Number.isInteger(value)) return [BigInt(value), 1n];
  const match = DECIMAL.exec(String(value));
  if (!match) throw new RangeError(`not a positive finite number: ${value}`);
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const digits = BigInt(whole + fraction);
  const scale = fraction.length - Number(exponent);
  return scale >= 0 ? [digits, 10n ** BigInt(scale)] : [digits * 10n ** BigInt(-scale), 1n];
}

/** floor(diff1Target / difficulty), exact, capped at 2^256 − 1. Throws RangeError unless difficulty > 0. */
export function targetForDifficulty(diff1Target: bigint, difficulty: number): bigint {
  if (!Number.isFinite(difficulty) || difficulty <= 0) {
    throw new RangeError(`difficulty must be a positive finite number, got ${difficulty}`);
  }
  const [numerator, denominator] = decimalFraction(difficulty);
  const target = (diff1Target * denominator) / numerator;
  return target > MAX_UINT256 ? MAX_UINT256 : target;
}

/** diff1Target / target as the nearest float; Infinity for a zero target. */
export function difficultyForTarget(diff1Target: bigint, target: bigint): number {
  if (target < 0n) throw new RangeError(`target must not be negative, got ${target}`);
  if (target === 0n) return Number.POSITIVE_INFINITY;
  return ratioToNumber(diff1Target, target);
}
