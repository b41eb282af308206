import { type DecimalInput, decimalToNumber } from './decimal.js';

/*
 * Effort and luck of found blocks (docs/blocks.md). A block's round is the work the pool did on its
 * chain since that chain's previous block: the accepted share difficulty summed over the round. A
 * block needs, on average, its network difficulty in accepted difficulty (a share of difficulty d is
 * d ÷ D of a block), so
 *
 *   effort = round difficulty ÷ network difficulty of the block      (1 = exactly as expected)
 *
 * and over a period, the pool's luck is the blocks found ÷ the blocks its work should have found:
 *
 *   luck = n ÷ Σ effortᵢ          mean effort = Σ effortᵢ ÷ n        (luck = 1 ÷ mean effort)
 *
 * This is ckpool's luck (pool/page_luck.php: blocks over the sum of their diff ratios) and the
 * reciprocal of MiningCore's average effort. These are statistics: plain numbers, never money.
 */

/** One found block's effort; undefined when its round or its network difficulty was not recorded. */
export function blockEffort(
  roundDifficulty: DecimalInput | null | undefined,
  networkDifficulty: DecimalInput | null | undefined,
): number | undefined {
  if (roundDifficulty === null || roundDifficulty === undefined) return undefined;
  if (networkDifficulty === null || networkDifficulty === undefined) return undefined;
  const network = decimalToNumber(networkDifficulty);
  if (!(network > 0)) return undefined;
  return decimalToNumber(roundDifficulty) / network;
}

export interface Luck {
  /** Blocks with a known effort in the period. */
  blocks: number;
  /** Σ effort ÷ blocks; null without blocks. */
  effort: number | null;
  /** blocks ÷ Σ effort; null without blocks, or when their rounds took no recorded work. */
  luck: number | null;
}

/** The pool's luck over the blocks of a period, from each block's effort. */
export function poolLuck(efforts: readonly number[]): Luck {
  let total = 0;
  for (const effort of efforts) total += checkedEffort(effort);
  return luckOfTotals(efforts.length, total);
}

/** The same from a period's block count and the sum of their efforts (as a database sums them). */
export function luckOfTotals(blocks: number, totalEffort: number): Luck {
  if (!Number.isSafeInteger(blocks) || blocks < 0)
    throw new RangeError(`a block count must be a whole number: ${blocks}`);
  checkedEffort(totalEffort);
  if (blocks === 0) return { blocks, effort: null, luck: null };
  return { blocks, effort: totalEffort / blocks, luck: totalEffort > 0 ? blocks / totalEffort : null };
}

function checkedEffort(effort: number): number {
  if (!Number.isFinite(effort) || effort < 0)
    throw new RangeError(`an effort must be a finite, non-negative number: ${effort}`);
  return effort;
}

/** The periods the Blocks page states the pool's luck over, newest blocks first. */
export const LUCK_PERIODS = [
  { key: 'h24', hours: 24 },
  { key: 'd7', hours: 7 * 24 },
  { key: 'd30', hours: 30 * 24 },
] as const;
