import type { DecimalInput } from './decimal.js';
import { Exact } from './exact.js';

/**
 * Pay-per-share maths, exact. Values are in smallest units of a coin and may carry fractions of a
 * unit (a small miner earns less than a satoshi per share batch); divisions keep VALUE_DECIMALS
 * decimals and round toward zero. Whole units reach the ledger through accrue(), which carries the
 * fraction to the next credit, so nothing is created or lost along the way.
 */
export const VALUE_DECIMALS = 18;

/** 2^256: the hash space; a target t is met by (t + 1) / 2^256 of all hashes. */
const HASH_SPACE = 1n << 256n;

/**
 * Network difficulty in the pool's share-difficulty convention: expected hashes per block
 * (2^256 ÷ (target + 1)) divided by the expected hashes of a difficulty-1 share. With both in one
 * convention, a share of difficulty d is worth d ÷ difficulty blocks.
 */
export function networkDifficulty(networkTarget: bigint, hashesPerDifficulty: DecimalInput): string {
  if (networkTarget <= 0n) throw new RangeError('network target must be positive');
  const hashesPerBlock = Exact.of(HASH_SPACE).dividedBy(networkTarget + 1n, 12);
  return hashesPerBlock.dividedBy(Exact.of(hashesPerDifficulty), 12).toString();
}

/**
 * Expected reward of shares: Σ accepted difficulty × block reward ÷ network difficulty, in smallest
 * units of the mined coin (fractional, VALUE_DECIMALS decimals).
 */
export function shareValue(
  acceptedDifficulty: DecimalInput | Exact,
  reward: bigint | Exact,
  difficulty: DecimalInput | Exact,
): Exact {
  const d = Exact.of(difficulty);
  if (d.compare(0) <= 0) throw new RangeError('network difficulty must be positive');
  const shares = Exact.of(acceptedDifficulty);
  const value = Exact.of(reward);
  if (shares.isNegative() || value.isNegative())
    throw new RangeError('share difficulty and reward must not be negative');
  return shares.times(value).dividedBy(d, VALUE_DECIMALS);
}

export interface PricedCoin {
  decimals: number;
  /** US dollars per coin, exact decimal text. */
  usd: DecimalInput;
}

/** Smallest units of one coin as smallest units of another at their US dollar prices. */
export function convertUnits(units: Exact, from: PricedCoin, to: PricedCoin): Exact {
  const usdPerFromUnit = Exact.of(from.usd).shifted(-from.decimals);
  const usdPerToUnit = Exact.of(to.usd).shifted(-to.decimals);
  if (usdPerToUnit.compare(0) <= 0 || usdPerFromUnit.compare(0) <= 0) throw new RangeError('prices must be positive');
  return units.times(usdPerFromUnit).dividedBy(usdPerToUnit, VALUE_DECIMALS);
}

export interface Proportion {
  ticker: string;
  /** Percent, 0 to 100; a list adds up to 100. */
  proportion: DecimalInput;
}

/**
 * Divides a value by the conversion settings: each coin gets proportion% of it, converted at the
 * prices. A coin at 0% gets nothing (and is left out).
 */
export function convertByProportions(
  units: Exact,
  from: PricedCoin,
  targets: readonly Proportion[],
  priceOf: (ticker: string) => PricedCoin,
): { ticker: string; units: Exact }[] {
  const total = targets.reduce((sum, t) => sum.plus(Exact.of(t.proportion)), Exact.ZERO);
  if (total.compare(100) !== 0) throw new RangeError(`proportions add up to ${total}, not 100`);
  return targets
    .filter((t) => Exact.of(t.proportion).compare(0) > 0)
    .map((t) => ({
      ticker: t.ticker,
      units: convertUnits(units.times(Exact.of(t.proportion)).shifted(-2), from, priceOf(t.ticker)),
    }));
}

/** The share of the pool fee an account pays: feePercent% less its discount (a fraction 0–1). */
export function feeRate(feePercent: DecimalInput, discount: DecimalInput): Exact {
  const d = Exact.of(discount);
  if (d.compare(0) < 0 || d.compare(1) > 0) throw new RangeError(`fee discount out of range: ${d}`);
  const percent = Exact.of(feePercent);
  if (percent.compare(0) < 0 || percent.compare(100) > 0) throw new RangeError(`fee percent out of range: ${percent}`);
  return percent.shifted(-2).times(Exact.ONE.minus(d));
}

/** The referrer's part of each fee a referred account pays. */
export const REFERRAL_SHARE = Exact.of('0.2');

export interface SplitRules {
  /** Fraction of the gross value kept as the pool fee (feeRate()). */
  feeRate: Exact;
  /** Whether a referrer receives REFERRAL_SHARE of the fee. */
  referred: boolean;
  /** Percent of the value after fee sent to other accounts; adds up to at most 100. */
  redirects: readonly { to: string; percentage: DecimalInput }[];
}

export interface Split {
  /** What stays with the account that mined. */
  owner: Exact;
  redirects: { to: string; amount: Exact }[];
  referral: Exact;
  /** The fee the pool keeps after the referral reward. */
  poolFee: Exact;
}

/**
 * Splits a gross PPS value: the fee (referral reward out of it), then the redirects out of what is
 * left, the rest to the owner. Every step is a product of exact decimals, so
 * owner + Σ redirects + referral + poolFee = gross exactly.
 */
export function splitEarnings(gross: Exact, rules: SplitRules): Split {
  if (gross.isNegative()) throw new RangeError('gross value must not be negative');
  if (rules.feeRate.compare(0) < 0 || rules.feeRate.compare(1) > 0) throw new RangeError('fee rate out of range');
  const fee = gross.times(rules.feeRate);
  const referral = rules.referred ? fee.times(REFERRAL_SHARE) : Exact.ZERO;
  const net = gross.minus(fee);
  let percentTotal = Exact.ZERO;
  const redirects = rules.redirects.map((r) => {
    const percentage = Exact.of(r.percentage);
    if (percentage.compare(0) < 0) throw new RangeError('redirect percentage must not be negative');
    percentTotal = percentTotal.plus(percentage);
    return { to: r.to, amount: net.times(percentage).shifted(-2) };
  });
  if (percentTotal.compare(100) > 0) throw new RangeError(`redirects add up to ${percentTotal}%`);
  const owner = redirects.reduce((left, r) => left.minus(r.amount), net);
  return { owner, redirects, referral, poolFee: fee.minus(referral) };
}

/**
 * Adds a fractional amount to a carried fraction and takes out the whole units:
 * whole + carried' = carried + amount, with 0 ≤ carried' < 1.
 */
export function accrue(carried: Exact, amount: Exact): { whole: bigint; carried: Exact } {
  const total = carried.plus(amount);
  if (total.isNegative()) throw new RangeError('accrued value must not be negative');
  const whole = total.floor();
  return { whole, carried: total.minus(whole) };
}

/**
 * The PPS rate as profitability: BTC per H/s per day. One hash is worth reward ÷ (difficulty ×
 * hashesPerDifficulty) units of the mined coin; a day has 86,400 seconds.
 */
export function profitPerHashPerDay(
  reward: bigint,
  difficulty: DecimalInput,
  hashesPerDifficulty: DecimalInput,
  coin: PricedCoin,
  btc: PricedCoin,
): Exact {
  const unitsPerHash = Exact.of(reward).dividedBy(Exact.of(difficulty).times(Exact.of(hashesPerDifficulty)), 30);
  const btcUnits = convertUnits(unitsPerHash.times(86_400), coin, btc);
  return btcUnits.shifted(-btc.decimals).truncated(VALUE_DECIMALS + 8);
}
