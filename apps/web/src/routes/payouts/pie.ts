import type { PoolPayoutsResponse } from '@lodestone/contract';

type ChartEntry = PoolPayoutsResponse['charts']['day'][number];

/**
 * The payout pie charts (docs/website.md, Payouts): one colour per ticker, grey for any other coin, and a US dollar
 * total with 2 decimals. The colours follow each coin's own brand where two would not clash, so a
 * coin keeps its colour on all three charts.
 */
export const TICKER_COLOURS: Readonly<Record<string, string>> = {
  BTC: '#f7931a',
  LTC: '#345d9d',
  DOGE: '#c2a633',
  DGB: '#0ea5e9',
  ETH: '#627eea',
  CKB: '#3cc68a',
  KDA: '#ed098f',
  DASH: '#0f766e',
  KAS: '#70c7ba',
  BELLS: '#e11d48',
  BCH: '#8dc351',
  USDC: '#2775ca',
  SOL: '#9945ff',
};
export const FALLBACK_COLOUR = '#9ca3af';

export function tickerColour(ticker: string): string {
  return TICKER_COLOURS[ticker.trim().toUpperCase()] ?? FALLBACK_COLOUR;
}

/** The entries worth a slice: positive, finite dollar values. */
export function pieEntries(entries: readonly ChartEntry[]): ChartEntry[] {
  return entries.filter((e) => Number.isFinite(e.usd_value) && e.usd_value > 0);
}

/** The chart's total in US dollars, summed in cents so 0.1 + 0.2 is 0.30, not 0.30000000000000004. */
export function pieTotal(entries: readonly ChartEntry[]): number {
  const cents = pieEntries(entries).reduce((sum, e) => sum + Math.round(e.usd_value * 100), 0);
  return cents / 100;
}

/** "$1,234.50" */
export function formatUsdTotal(value: number): string {
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export interface Slice {
  ticker: string;
  usd: number;
  colour: string;
  /** Share of the total, 0..1. */
  share: number;
  /** SVG path of the slice in a circle of radius `r` centred on (r, r). */
  path: string;
}

/**
 * The slices, clockwise from twelve o'clock, in the API's order. A single coin is a whole circle
 * (an arc cannot start and end at the same point, so it is drawn as two half circles).
 */
export function pieSlices(entries: readonly ChartEntry[], r: number): Slice[] {
  const shown = pieEntries(entries);
  const total = shown.reduce((sum, e) => sum + e.usd_value, 0);
  if (total <= 0) return [];
  let angle = 0;
  return shown.map((e) => {
    const share = e.usd_value / total;
    const start = angle;
    angle += share * 2 * Math.PI;
    return {
      ticker: e.coin_ticker,
      usd: e.usd_value,
      colour: tickerColour(e.coin_ticker),
      share,
      path: slicePath(r, start, angle),
    };
  });
}

function point(r: number, angle: number): string {
  // Angle 0 at twelve o'clock, growing clockwise (SVG's y grows downward).
  return `${round(r + r * Math.sin(angle))},${round(r - r * Math.cos(angle))}`;
}

function slicePath(r: number, start: number, end: number): string {
  if (end - start >= 2 * Math.PI - 1e-9) {
    return `M${r},0 A${r},${r} 0 1 1 ${r},${2 * r} A${r},${r} 0 1 1 ${r},0 Z`;
  }
  const large = end - start > Math.PI ? 1 : 0;
  return `M${r},${r} L${point(r, start)} A${r},${r} 0 ${large} 1 ${point(r, end)} Z`;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** "42.5%" of a share 0..1, for the legend. */
export function formatShare(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
