/**
 * EIP-1559 fee caps of the pool's transactions (wei per gas, bigint): what to offer from the node's
 * base fee and tip, the operator's ceiling, and the raise a replacement at the same nonce needs.
 */

export interface FeeCaps {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * The base fee can rise by at most 1/8 per block (EIP-1559, BASE_FEE_MAX_CHANGE_DENOMINATOR = 8), so a
 * cap of twice the current base fee stays above it for six full blocks in a row; the unused part is
 * never charged (the sender pays base fee + tip).
 */
const BASE_FEE_HEADROOM = 2n;

/**
 * Caps for a new transaction: 2 × base fee + the node's suggested tip, cut down to `ceiling`. Undefined
 * when the base fee alone is already above the ceiling (nothing under it could be mined now).
 */
export function feeCapsFor(baseFee: bigint, tip: bigint, ceiling: bigint): FeeCaps | undefined {
  if (baseFee < 0n || tip < 0n || ceiling <= 0n) throw new RangeError('fees must not be negative');
  if (baseFee > ceiling) return undefined;
  const maxFeePerGas = min(baseFee * BASE_FEE_HEADROOM + tip, ceiling);
  // A tip above the fee cap makes the transaction invalid (EIP-1559: max_fee_per_gas >= max_priority_fee_per_gas).
  return { maxFeePerGas, maxPriorityFeePerGas: min(tip, maxFeePerGas) };
}

/**
 * A replacement must raise both caps by at least 10% and by at least 1 wei: go-ethereum's default price
 * bump (core/txpool/legacypool/legacypool.go, `PriceBump: 10`; `list.Add` in core/txpool/legacypool/
 * list.go refuses a fee cap or tip that is not strictly higher, then one below old × 110 / 100) and
 * Hardhat's rule ("Replacement transaction underpriced. A gasPrice/maxFeePerGas of at least …",
 * docs/research/wallets.md §1). We offer 12.5% so that a node rounding its threshold up still accepts,
 * and never less than the current caps.
 */
const REQUIRED_BUMP = { numerator: 11n, denominator: 10n };
const OFFERED_BUMP = { numerator: 9n, denominator: 8n };

/**
 * The caps of a replacement of `previous`: each raised by 12.5% (rounded up) or to `current` if that is
 * higher, then cut to `ceiling`. Undefined when the cut leaves either cap below +10% of the previous one.
 */
export function bumpedFeeCaps(previous: FeeCaps, current: FeeCaps | undefined, ceiling: bigint): FeeCaps | undefined {
  const maxFeePerGas = min(max(raise(previous.maxFeePerGas, OFFERED_BUMP), current?.maxFeePerGas ?? 0n), ceiling);
  const maxPriorityFeePerGas = min(
    max(raise(previous.maxPriorityFeePerGas, OFFERED_BUMP), current?.maxPriorityFeePerGas ?? 0n),
    maxFeePerGas,
  );
  if (maxFeePerGas < raise(previous.maxFeePerGas, REQUIRED_BUMP)) return undefined;
  if (maxPriorityFeePerGas < raise(previous.maxPriorityFeePerGas, REQUIRED_BUMP)) return undefined;
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** value × numerator / denominator rounded up, and at least value + 1. */
function raise(value: bigint, by: { numerator: bigint; denominator: bigint }): bigint {
  return max((value * by.numerator + by.denominator - 1n) / by.denominator, value + 1n);
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
