import { type DecimalInput, decimalToNumber } from './decimal.js';
import { Exact } from './exact.js';
import { feeRate, splitEarnings } from './pps.js';

/*
 * Solo mining (docs/solo.md). A solo worker's blocks are its own: the block pays the pool's address
 * like every other, and when it matures the ledger credits the finder its value less the solo fee.
 * Its shares are counted for statistics only, never valued by PPS.
 */

const SECONDS_PER_DAY = 86_400;

export interface SoloOdds {
  /** The chance of at least one block in 24 hours at this hashrate (0–1). */
  pDay: number;
  /** The mean time to a block, in seconds; null at zero hashrate. */
  expectedSeconds: number | null;
}

/**
 * A solo miner's odds: blocks are a Poisson process with rate hashrate ÷ hashes per block, so the
 * chance of at least one in a day is 1 − e^(−λ), λ = H·86400 ÷ W. Computed as −expm1(−λ): for a small
 * miner λ is ~1e−7, where 1 − exp(−λ) keeps only half its digits.
 */
export function soloOdds(hashrate: number, hashesPerBlock: number): SoloOdds {
  if (!(hashesPerBlock > 0) || !Number.isFinite(hashesPerBlock))
    throw new RangeError('hashes per block must be positive');
  if (!(hashrate >= 0) || !Number.isFinite(hashrate)) throw new RangeError('hashrate must not be negative');
  if (hashrate === 0) return { pDay: 0, expectedSeconds: null };
  return {
    pDay: -Math.expm1(-(hashrate * SECONDS_PER_DAY) / hashesPerBlock),
    expectedSeconds: hashesPerBlock / hashrate,
  };
}

/** Hashes a block takes on average: its network difficulty × the algorithm's hashes per difficulty 1. */
export function hashesPerBlock(networkDifficulty: DecimalInput, hashesPerDifficulty: number): number {
  return decimalToNumber(networkDifficulty) * hashesPerDifficulty;
}

export interface SoloSplit {
  /** What the finder is credited, whole units (rounded down). */
  owner: bigint;
  /** The finder's referrer's part of the fee, whole units (rounded down). */
  referral: bigint;
  /** What the pool keeps: the rest, so owner + referral + poolFee = reward exactly. */
  poolFee: bigint;
}

/**
 * Splits a matured solo block's reward: the finder gets it less the solo fee (its fee discount
 * applies, as to PPS fees), a referrer gets REFERRAL_SHARE of the fee, the pool the rest. Whole units
 * only — the block's reward is whole — with every rounding in the pool's part.
 */
export function splitSoloReward(
  reward: bigint,
  rules: { feePercent: DecimalInput; discount: DecimalInput; referred: boolean },
): SoloSplit {
  // PPS's split, without redirects (a block is credited to its finder alone), rounded down to units.
  const split = splitEarnings(Exact.of(reward), {
    feeRate: feeRate(rules.feePercent, rules.discount),
    referred: rules.referred,
    redirects: [],
  });
  const owner = split.owner.floor();
  const referral = split.referral.floor();
  return { owner, referral, poolFee: reward - owner - referral };
}
