import type { PoolProfitsResponse, ProfitPeriod } from '@lodestone/contract';
import { fixed } from '@lodestone/domain';

/** Profitability with 5 decimals plus its unit; comparison as a percent with 1 decimal (docs/website.md, Figures). */
export const PROFITABILITY_DECIMALS = 5;
export const COMPARISON_DECIMALS = 1;
/** The comparison table shows 10 rows a page (docs/website.md, Lists, refresh and copying). */
export const COMPARISON_PAGE_SIZE = 10;

/** The chart's and the comparison table's period until the visitor picks another (components/TimeRangeSelector.tsx). */
export const DEFAULT_PERIOD: ProfitPeriod = '30d';

/** "0.00012 BTC/TH/s" */
export function formatProfitability(value: number, unit: string): string {
  return `${fixed(value, PROFITABILITY_DECIMALS)} ${unit}`;
}

export type Direction = 'up' | 'down' | 'flat';

export interface Comparison {
  /** "2.1%", "-5.0%", "0.0%"; a dash when there is nothing to compare with. */
  text: string;
  /** Up (positive, green), down (negative, red), right (zero); null without a figure. */
  direction: Direction | null;
}

/**
 * Comparison (docs/website.md, Figures) with 1 decimal, an up arrow and green when positive, down and red when
 * negative, right when zero. The direction follows the figure as shown, so a value that rounds to
 * 0.0 never carries an up or down arrow.
 */
export function formatComparison(percent: number | null): Comparison {
  if (percent === null || !Number.isFinite(percent)) return { text: '—', direction: null };
  const text = fixed(percent, COMPARISON_DECIMALS);
  const shown = Number(text);
  return { text: `${text}%`, direction: shown > 0 ? 'up' : shown < 0 ? 'down' : 'flat' };
}

/** The comparison rows of the chosen period. */
export function comparisonRows(
  data: PoolProfitsResponse,
  period: ProfitPeriod,
): PoolProfitsResponse['profit_table_24h'] {
  switch (period) {
    case '24h':
      return data.profit_table_24h;
    case '7d':
      return data.profit_table_7d;
    default:
      return data.profit_table_30d;
  }
}
