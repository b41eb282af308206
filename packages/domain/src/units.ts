import { type DecimalInput, decimalToNumber, shiftDecimal } from './decimal.js';
import { Exact } from './exact.js';

/**
 * Quantities are stored in base units (H/s, hashes, BTC per H/s per day) and scaled for display here,
 * in one place, so the API, the website and the benchmarks agree on what "2.50 Th/s" means.
 */
const PREFIXES = ['', 'K', 'M', 'G', 'T', 'P', 'E', 'Z'] as const;

export const HASHRATE_UNITS = ['H/s', 'Kh/s', 'Mh/s', 'Gh/s', 'Th/s', 'Ph/s', 'Eh/s', 'Zh/s'] as const;
export const HASH_COUNT_UNITS = ['H', 'KH', 'MH', 'GH', 'TH', 'PH', 'EH', 'ZH'] as const;

export interface Scaled {
  value: number;
  units: string;
  /** The power of ten the base value was divided by. */
  exponent: number;
}

/** 1000^k for each unit step. */
const STEP_FACTORS = HASHRATE_UNITS.map((_, k) => 1000n ** BigInt(k));
/** 2 × 10^d and 1000 × 10^d for each number of decimals d: rounding half up and the 1000 limit. */
const TWICE_POWERS_OF_TEN = Array.from({ length: 19 }, (_, d) => 2n * 10n ** BigInt(d));
const LIMITS = Array.from({ length: 19 }, (_, d) => 1000n * 10n ** BigInt(d));

/**
 * The display rule of every hashrate and hash count, exactly: a non-negative value numerator ÷
 * `steps[0]` is shown in unit k, where steps[k] = steps[0] × 1000^k, the largest k that keeps the
 * value at or above 1 — and one unit up when rounding half up to `decimals` would show 1000, so
 * 999.995 Kh/s at two decimals reads "1.00 Mh/s" rather than "1000.00 Kh/s". Returns the step and
 * the value in that unit × 10^decimals, rounded half up. BigInt throughout: the workers table runs
 * this 20,000 times per answer for 10,000 workers.
 */
export function unitStep(
  numerator: bigint,
  steps: readonly bigint[],
  decimals: number,
): { step: number; rounded: bigint } {
  const last = steps.length - 1;
  const twice = TWICE_POWERS_OF_TEN[decimals] ?? 2n * 10n ** BigInt(decimals);
  const limit = LIMITS[decimals] ?? 1000n * 10n ** BigInt(decimals);
  let step = 0;
  while (step < last && numerator >= (steps[step + 1] as bigint)) step++;
  let d = steps[step] as bigint;
  let rounded = (numerator * twice + d) / (2n * d);
  if (rounded >= limit && step < last) {
    step += 1;
    d = steps[step] as bigint;
    rounded = (numerator * twice + d) / (2n * d);
  }
  return { step, rounded };
}

/** The denominators of unitStep for a value held as numerator ÷ `denominator`. */
export function unitSteps(denominator: bigint): bigint[] {
  return STEP_FACTORS.map((f) => denominator * f);
}

function scaleBy1000(base: DecimalInput, units: readonly string[], decimals: number): Scaled {
  const exact = Exact.of(base);
  const magnitude = exact.n < 0n ? -exact.n : exact.n;
  const { step } = unitStep(magnitude, unitSteps(10n ** BigInt(exact.scale)), decimals);
  // The shift is exact: dividing the number by 1000^step instead gave 2.3024459999999998 for 2302.446.
  return { value: exact.shifted(-3 * step).toNumber(), units: units[step] as string, exponent: step * 3 };
}

export function scaleHashrate(hashesPerSecond: DecimalInput, decimals = 2): Scaled {
  return scaleBy1000(hashesPerSecond, HASHRATE_UNITS, decimals);
}

/** A hashrate for display: a number in the unit that suits it, rounded half up to 2 decimals. */
export interface DisplayHashrate {
  value: number;
  units: string;
}

const ZERO_HASHRATE: DisplayHashrate = { value: 0, units: HASHRATE_UNITS[0] };

function displayIn(numerator: bigint, steps: readonly bigint[]): DisplayHashrate {
  const { step, rounded } = unitStep(numerator, steps, 2);
  return { value: Number(rounded) / 100, units: HASHRATE_UNITS[step] as string };
}

/** A non-negative decimal as n ÷ 10^scale; NUMERIC text ("12.50") without the regex of Exact.of. */
function fastScaled(value: DecimalInput): { n: bigint; scale: number } {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return { n: BigInt(value), scale: 0 };
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)) {
    const dot = value.indexOf('.');
    return dot < 0
      ? { n: BigInt(value), scale: 0 }
      : { n: BigInt(value.slice(0, dot) + value.slice(dot + 1)), scale: value.length - dot - 1 };
  }
  return Exact.of(value);
}

/** A hashrate in H/s for display, exactly (scaleHashrate's unit, its value rounded half up to 2 decimals). */
export function displayHashrate(hashesPerSecond: DecimalInput): DisplayHashrate {
  const h = fastScaled(hashesPerSecond);
  return displayIn(h.n, unitSteps(10n ** BigInt(h.scale)));
}

/**
 * Σ accepted difficulty over `seconds` → hashrate for display: difficulty × hashes per difficulty ÷
 * seconds, exact (seconds are whole milliseconds: they come from instants). The divisors are worked
 * out once per decimal scale of the difficulty, not once per worker.
 */
export function hashrateFormatter(
  hashesPerDifficulty: number,
  seconds: number,
): (difficulty: DecimalInput) => DisplayHashrate {
  const ms = Math.round(seconds * 1000);
  const h = fastScaled(hashesPerDifficulty);
  const multiplier = h.n * 1000n;
  const byScale = new Map<number, bigint[]>();
  return (difficulty) => {
    const d = fastScaled(difficulty);
    if (d.n === 0n || ms <= 0) return ZERO_HASHRATE;
    let steps = byScale.get(d.scale);
    if (!steps) {
      steps = unitSteps(10n ** BigInt(d.scale + h.scale) * BigInt(ms));
      byScale.set(d.scale, steps);
    }
    return displayIn(d.n * multiplier, steps);
  };
}

/** Σ accepted difficulty over `seconds` as a hashrate for display (hashrateFormatter, once). */
export function hashrateOf(difficulty: DecimalInput, hashesPerDifficulty: number, seconds: number): DisplayHashrate {
  return hashrateFormatter(hashesPerDifficulty, seconds)(difficulty);
}

export function scaleHashCount(hashes: DecimalInput, decimals = 1): Scaled {
  return scaleBy1000(hashes, HASH_COUNT_UNITS, decimals);
}

/** "TH/s" for exponent 12: a hashrate unit as profit units write it. */
export function hashrateUnit(exponent: number): string {
  const units = profitUnits(exponent);
  return units.slice(units.indexOf('/') + 1);
}

/** "BTC/TH/s" for exponent 12. */
export function profitUnits(exponent: number, currency = 'BTC'): string {
  const prefix = PREFIXES[exponent / 3];
  if (prefix === undefined || exponent % 3 !== 0) throw new RangeError(`unsupported unit exponent ${exponent}`);
  return `${currency}/${prefix}H/s`;
}

/**
 * Profit per H/s per day (a NUMERIC string, often 1e-17 small) expressed per 10^exponent H/s.
 * The shift is exact; only the final value becomes a number, for display.
 */
export function scaleProfit(perHashPerSecond: DecimalInput, exponent: number): Scaled {
  return {
    value: decimalToNumber(shiftDecimal(perHashPerSecond, exponent)),
    units: profitUnits(exponent),
    exponent,
  };
}
