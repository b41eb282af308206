import type { DecimalInput } from './decimal.js';
import { Exact } from './exact.js';
import { HASHRATE_UNITS } from './units.js';

/**
 * Display formatting shared by the website and server-rendered documents. The precisions are
 * docs/website.md's (Figures): hashrate 2 decimals, profit 5, hashes 1, and so on; callers pass them.
 */
export function fixed(value: number | null | undefined, decimals: number): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return (0).toFixed(decimals);
  // Avoid "-0.00" for tiny negatives that round to zero.
  const s = value.toFixed(decimals);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** Hashrates are shown with 2 decimals, rejected-share percents likewise (docs/website.md, Figures). */
export const HASHRATE_DECIMALS = 2;
export const REJECTED_DECIMALS = 2;

/** "12.35 Mh/s" */
export function formatHashrate(value: number, units: string): string {
  return `${fixed(value, HASHRATE_DECIMALS)} ${units}`;
}

/** A hashrate in H/s, so workers reported in different units sort by what they really do. */
export function hashrateInBaseUnits(value: number, units: string): number {
  const index = HASHRATE_UNITS.findIndex((u) => u.toLowerCase() === units.trim().toLowerCase());
  // An unknown unit sorts as given: better a slightly wrong order than a crash on a new unit name.
  return index < 0 ? value : value * 1000 ** index;
}

/**
 * The rejected-share percent (docs/website.md, Figures) = (invalid + stale) / (valid + invalid + stale), 2 decimals;
 * '0%' when the worker sent no shares at all (there is nothing to divide by).
 */
export function rejectedPercent(valid: number, invalid: number, stale: number): string {
  const total = valid + invalid + stale;
  if (!(total > 0)) return '0%';
  return `${fixed(((invalid + stale) / total) * 100, REJECTED_DECIMALS)}%`;
}

/**
 * How long ago `from` was at `now` (both ISO; pass the server's clock where there is one):
 * "45 s", "12 min", "3 h", "2 d".
 */
export function ageText(from: string, now: string): string {
  const seconds = Math.max(0, Math.floor((Date.parse(now) - Date.parse(from)) / 1000));
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/** "abcdef…uvwxyz": strings longer than `head + tail` keep their ends (TXIDs 6/6, stratum URLs 10/10). */
export function abbreviateMiddle(text: string, head: number, tail: number): string {
  if (text.length <= head + tail) return text;
  return `${text.slice(0, head)}…${text.slice(text.length - tail)}`;
}

/** The TXID rule (docs/website.md, Figures): longer than 8 characters → first 6 and last 6. */
export function abbreviateTxid(txid: string): string {
  return txid.length > 8 ? abbreviateMiddle(txid, 6, 6) : txid;
}

/**
 * Decimals the website shows a coin's amounts with (docs/website.md, "Coin amounts"): the coin's
 * usual display precision — a step worth well under a cent — rather than its smallest unit when that
 * is finer. Coins of 8 decimals (the bitcoin family, CKB, Kaspa) show all 8, to the satoshi; ETH shows
 * 6 (not 18, to the wei), SOL and KDA 6, USDC 2 (cents). The API keeps every amount exact (smallest
 * units, or exact decimal text); only what is shown is cut.
 */
export const COIN_DISPLAY_DECIMALS: Readonly<Record<string, number>> = {
  ETH: 6,
  SOL: 6,
  KDA: 6,
  USDC: 2,
};

/** Any other coin is shown with its own decimals, at most this many. */
export const DEFAULT_COIN_DISPLAY_DECIMALS = 8;

/** The decimals `ticker`'s amounts are shown with: its entry in COIN_DISPLAY_DECIMALS, never more than it has. */
export function coinDisplayDecimals(ticker: string, decimals: number): number {
  const shown = COIN_DISPLAY_DECIMALS[ticker.trim().toUpperCase()] ?? DEFAULT_COIN_DISPLAY_DECIMALS;
  return Math.max(0, Math.min(decimals, shown));
}

/** "< 0.000001" (or "> -0.000001"): what a non-zero amount below the smallest step shown reads. */
function belowStep(negative: boolean, shown: number): string {
  const step = Exact.fromUnits(1n, shown).toFixed(shown);
  return negative ? `> -${step}` : `< ${step}`;
}

/**
 * An exact amount with `shown` decimals, cut toward zero (never more than the amount). A non-zero
 * amount too small for those decimals reads "< 0.000001" — never "0.000000", which would say the
 * balance is empty when it is not.
 */
export function formatAmount(amount: DecimalInput | Exact, shown: number): string {
  const exact = Exact.of(amount);
  if (exact.isZero()) return Exact.ZERO.toFixed(shown);
  const text = exact.toFixed(shown);
  return Exact.of(text).isZero() ? belowStep(exact.isNegative(), shown) : text;
}

/**
 * Smallest units (integer, or its text) of a coin with `decimals` decimals, shown with `shown` decimals (formatAmount).
 */
export function formatUnits(units: bigint | string, decimals: number, shown: number): string {
  return formatAmount(Exact.fromUnits(BigInt(units), decimals), shown);
}

/**
 * formatAmount for an approximate number — the frames of an animation between two exact figures,
 * never money itself.
 */
export function formatApproximateAmount(value: number, shown: number): string {
  if (!Number.isFinite(value) || value === 0) return fixed(0, shown);
  if (Math.abs(value) < 10 ** -shown) return belowStep(value < 0, shown);
  const factor = 10 ** shown;
  return fixed(Math.trunc(value * factor) / factor, shown);
}
