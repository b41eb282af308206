import { type DecimalInput, decimalToNumber, shiftDecimal } from './decimal.js';

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

/**
 * Picks the largest unit that keeps the value at or above 1 (and below 1000 once rounded to
 * `decimals`), so 999.999 Kh/s at two decimals reads "1.00 Mh/s" rather than "1000.00 Kh/s".
 */
function scaleBy1000(base: DecimalInput, units: readonly string[], decimals: number): Scaled {
  const n = decimalToNumber(base);
  const abs = Math.abs(n);
  let step = 0;
  while (step < units.length - 1 && abs >= 1000 ** (step + 1)) step++;
  if (step < units.length - 1 && Number((abs / 1000 ** step).toFixed(decimals)) >= 1000) step++;
  return { value: n / 1000 ** step, units: units[step] as string, exponent: step * 3 };
}

export function scaleHashrate(hashesPerSecond: DecimalInput, decimals = 2): Scaled {
  return scaleBy1000(hashesPerSecond, HASHRATE_UNITS, decimals);
}

export function scaleHashCount(hashes: DecimalInput, decimals = 1): Scaled {
  return scaleBy1000(hashes, HASH_COUNT_UNITS, decimals);
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
