import { Exact } from './exact.js';
import { VALUE_DECIMALS } from './pps.js';

/*
 * FPPS ("full pay per share"): a share is worth its part of the block subsidy plus its part of the
 * fees an average block of the network's last 24 hours carried, instead of the fees of whatever
 * template it was mined on (PPS). A miner is paid the same for the same work whether the template
 * of the moment was full or empty; the pool carries the difference (docs/money.md, "FPPS").
 */

/** How a coin's shares are valued: PPS (the template's coinbase value) or FPPS. */
export type PayoutScheme = 'pps' | 'fpps';

/** The network's day that FPPS averages fees over. */
export const FEE_DAY_MS = 24 * 60 * 60 * 1000;

/** One block of the network as its node reports it: when it was made and the fees its transactions paid. */
export interface NetworkBlockFees {
  height: number;
  /** The block's own timestamp. */
  time: Date;
  /** Σ fees of its transactions, smallest units. */
  totalFees: bigint;
}

/** The blocks of one network day and what their fees add up to: the inputs every FPPS credit names. */
export interface FeeDay {
  /** The day is (from, to]: blocks whose timestamp lies in it. */
  from: Date;
  to: Date;
  blocks: number;
  firstHeight: number;
  lastHeight: number;
  totalFees: bigint;
}

/**
 * The network's day before `at` (blocks with a timestamp in (at − 24 h, at]), from its blocks' fees;
 * undefined when no block falls in it — an average of nothing is not zero fees, it is not known.
 */
export function feeDay(blocks: readonly NetworkBlockFees[], at: Date): FeeDay | undefined {
  const from = new Date(at.getTime() - FEE_DAY_MS);
  const inDay = blocks.filter((b) => b.time.getTime() > from.getTime() && b.time.getTime() <= at.getTime());
  if (inDay.length === 0) return undefined;
  const heights = inDay.map((b) => b.height);
  if (new Set(heights).size !== heights.length) throw new RangeError('a height is counted twice in the fee day');
  return {
    from,
    to: at,
    blocks: inDay.length,
    firstHeight: Math.min(...heights),
    lastHeight: Math.max(...heights),
    totalFees: inDay.reduce((sum, b) => {
      if (b.totalFees < 0n) throw new RangeError(`block ${b.height} has negative fees`);
      return sum + b.totalFees;
    }, 0n),
  };
}

/** Fees per block over a day: Σ fees ÷ blocks, in smallest units with VALUE_DECIMALS decimals (toward zero). */
export function averageFeePerBlock(day: Pick<FeeDay, 'blocks' | 'totalFees'>): Exact {
  if (day.blocks <= 0) throw new RangeError('a fee day needs at least one block');
  return Exact.of(day.totalFees).dividedBy(day.blocks, VALUE_DECIMALS);
}

/** What a batch's network says a block is worth: its coinbase value and the template fees in it. */
export interface TemplateValue {
  /** The coinbase value the pool's block would pay the pool, smallest units. */
  reward: bigint;
  /** The fees of the template's transactions inside `reward`; undefined when the template did not give them all. */
  fees?: bigint | undefined;
}

/** The value of one block that a batch's shares are paid a part of, and the fees inside it. */
export interface BlockValue {
  scheme: PayoutScheme;
  /** Smallest units; FPPS carries fractions of a unit (an average). */
  value: Exact;
  /** The fee part of `value` when known (FPPS always; PPS when the template gave its fees). */
  fees: Exact | undefined;
}

/**
 * The part of a block value that is transaction fees, 0 to 1 (VALUE_DECIMALS decimals toward zero): what
 * each earning of a credit valued at it counts as fees. Undefined when its fees are not known.
 */
export function feeShare(block: Pick<BlockValue, 'value' | 'fees'>): Exact | undefined {
  if (block.fees === undefined || block.value.isZero()) return undefined;
  return block.fees.dividedBy(block.value, VALUE_DECIMALS);
}

/** A batch's block value, and why a coin set to FPPS was valued by PPS when it was. */
export interface Valuation {
  value: BlockValue;
  fallback?: string;
}

/**
 * The block value a batch is paid at under `scheme`:
 * - PPS: the template's coinbase value, its fee part the template's fees when it gave them;
 * - FPPS: the subsidy (coinbase value less the template's fees) plus the day's average fee per block.
 * FPPS needs both the template's fees and a fee day; without either the batch is valued by PPS and
 * the reason is returned with it, never a zero or a guess.
 */
export function blockValue(
  scheme: PayoutScheme,
  template: TemplateValue,
  day: Pick<FeeDay, 'blocks' | 'totalFees'> | undefined,
): Valuation {
  if (template.reward < 0n) throw new RangeError('a block reward must not be negative');
  if (template.fees !== undefined && (template.fees < 0n || template.fees > template.reward)) {
    throw new RangeError(`template fees ${template.fees} are not part of a reward of ${template.reward}`);
  }
  const pps: BlockValue = {
    scheme: 'pps',
    value: Exact.of(template.reward),
    fees: template.fees === undefined ? undefined : Exact.of(template.fees),
  };
  if (scheme === 'pps') return { value: pps };
  if (template.fees === undefined) return { value: pps, fallback: "the template did not give every transaction's fee" };
  if (day === undefined) return { value: pps, fallback: 'no fee day of the network is known' };
  const fees = averageFeePerBlock(day);
  return { value: { scheme: 'fpps', value: Exact.of(template.reward - template.fees).plus(fees), fees } };
}
