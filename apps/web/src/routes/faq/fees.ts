import type { PoolFeesResponse } from '@lodestone/contract';
import { fixed } from '@lodestone/domain';

/** The FAQ's fee answer (docs/website.md, Figures), its loading and failure texts, and 1-decimal percents. */
export const FEES_LOADING = 'Loading fees...';
export const FEES_ERROR = 'Error loading fee data. Please try again later.';
export const FEE_DECIMALS = 1;

export interface FeeLine {
  ticker: string;
  /** "1.0%" */
  percent: string;
}

/** One line per payout coin, in the API's (catalogue) order: the fee fraction as a percent. */
export function feeLines(response: PoolFeesResponse): FeeLine[] {
  return Object.entries(response.pools).map(([ticker, { fee }]) => ({
    ticker,
    // Round the product, not the fraction: 0.015 × 100 is 1.5000000000000002 and must read 1.5%.
    percent: `${fixed(Math.round(fee * 100 * 1e9) / 1e9, FEE_DECIMALS)}%`,
  }));
}
