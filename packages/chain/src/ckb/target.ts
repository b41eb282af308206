/**
 * CKB's compact target (nervosnetwork/ckb util/types/src/utilities/difficulty.rs): exponent byte (bytes of
 * the target) and a 24-bit unsigned mantissa, target = mantissa × 256^(exponent − 3). Unlike Bitcoin's nBits
 * there is no sign bit. The node refuses a header whose target is zero or overflows 256 bits
 * (pow/src/eaglesong.rs), so those are errors here.
 */
import { targetFromCompact } from '@lodestone/pow';

/** The target of a header's compact_target; RangeError when the node would call it invalid. */
export function ckbTargetFromCompact(compact: number): bigint {
  const target = targetFromCompact(compact);
  if (target === 0n) throw new RangeError(`compact target 0x${compact.toString(16)} is zero`);
  return target;
}

/** The compact form of a target, as CKB's target_to_compact computes it (3 bytes of precision, truncated). */
export function ckbCompactFromTarget(target: bigint): number {
  if (target < 0n || target >= 1n << 256n) throw new RangeError(`target ${target} is not a 256-bit unsigned integer`);
  const exponent = target === 0n ? 0 : Math.ceil(target.toString(2).length / 8);
  const mantissa =
    exponent <= 3 ? Number(target << BigInt(8 * (3 - exponent))) : Number(target >> BigInt(8 * (exponent - 3)));
  return ((exponent << 24) | (mantissa & 0xffffff)) >>> 0;
}
