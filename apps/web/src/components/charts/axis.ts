import { HASH_COUNT_UNITS, scaleHashCount } from '@lodestone/domain';

/**
 * Pure helpers of the site's time-series charts: the y-axis reach (docs/website.md, Figures), the y tick labels with
 * unit scaling, and which x labels to print. Kept apart from the chart component so they are tested
 * without a browser.
 */

/** The y-axis reaches the highest value + 30%, so the line never touches the top (docs/website.md, Figures). */
export const Y_HEADROOM = 1.3;

/** The top of the y-axis; a chart of zeros, or of nothing, still has a scale. */
export function yAxisMax(values: Iterable<number>): number {
  let highest = 0;
  for (const v of values) if (Number.isFinite(v) && v > highest) highest = v;
  return highest > 0 ? highest * Y_HEADROOM : 1;
}

/**
 * The thousands prefixes of the domain's unit scaling ('', 'K', 'M', 'G', …), taken from its hash
 * count units ('H', 'KH', 'MH', 'GH', …) so the charts and the rest of the site scale alike.
 */
const PREFIXES = HASH_COUNT_UNITS.map((unit) => unit.slice(0, -1));
/** The most decimals a tick label gets (values below 1 are written out, never as 1e-7). */
const MAX_DECIMALS = 10;

/** The decimals that write `step` exactly (0.25 → 2, 5 → 0), at most MAX_DECIMALS. */
function decimalsOf(step: number): number {
  for (let d = 0; d < MAX_DECIMALS; d++) {
    const shifted = step * 10 ** d;
    if (Math.abs(shifted - Math.round(shifted)) < 1e-6 * Math.max(1, shifted)) return d;
  }
  return MAX_DECIMALS;
}

/**
 * The labels of one axis's ticks with one unit prefix for all of them, chosen by the domain's
 * scaling (scaleHashCount: the largest step of 1000 that keeps the biggest tick at or above 1):
 * [0, 5e9, 1e10, 1.5e10] → ['0', '5 G', '10 G', '15 G']; [0, 0.00005, 0.0001] → ['0', '0.00005',
 * '0.0001']. A label always holds every digit the ticks need to differ, and nothing the width of
 * "14,624,920,674". A single tick gets three significant digits (14,624,920,674 → '14.6 G').
 */
export function yTickLabels(splits: readonly number[]): string[] {
  const finite = splits.filter(Number.isFinite);
  const largest = finite.reduce((max, v) => Math.max(max, Math.abs(v)), 0);
  const { exponent } = scaleHashCount(largest);
  const divisor = 10 ** exponent;
  const prefix = PREFIXES[exponent / 3] ?? '';
  const scaled = finite.map((v) => v / divisor);
  let step = Number.POSITIVE_INFINITY;
  for (let i = 1; i < scaled.length; i++) {
    const gap = Math.abs((scaled[i] as number) - (scaled[i - 1] as number));
    if (gap > 0) step = Math.min(step, gap);
  }
  const top = largest / divisor;
  const decimals = Number.isFinite(step)
    ? decimalsOf(Number(step.toPrecision(6)))
    : top === 0
      ? 0
      : Math.min(MAX_DECIMALS, Math.max(0, 2 - Math.floor(Math.log10(top))));
  return splits.map((v) => {
    if (!Number.isFinite(v)) return '';
    const text = (v / divisor).toLocaleString('en-US', {
      minimumFractionDigits: 0,
      maximumFractionDigits: decimals,
    });
    return v === 0 || prefix === '' ? text : `${text} ${prefix}`;
  });
}

/**
 * Indexes of the x labels to print so they never crowd: at most `max`, evenly spaced (a whole number
 * of points apart, so 30-minute buckets are labelled every 1, 1½, 2 … hours alike), counted back from
 * the last point, which is always labelled (the newest is the one readers look for).
 */
export function labelIndexes(length: number, max = 6): number[] {
  if (length <= 0) return [];
  if (max <= 1) return [length - 1];
  const step = Math.max(1, Math.ceil((length - 1) / (max - 1)));
  const indexes: number[] = [];
  for (let i = length - 1; i >= 0; i -= step) indexes.unshift(i);
  return indexes;
}
