/**
 * Pure geometry of the dashboard's line charts: the y-axis reaches the highest value plus 30%
 * (spec 9), so the line never touches the top; a chart of zeros still has a visible scale.
 */
export const Y_HEADROOM = 1.3;

export function yAxisMax(values: readonly number[]): number {
  const highest = values.reduce((max, v) => (Number.isFinite(v) && v > max ? v : max), 0);
  return highest > 0 ? highest * Y_HEADROOM : 1;
}

/** `count` + 1 evenly spaced gridline values from 0 to `max`. */
export function yTicks(max: number, count = 4): number[] {
  return Array.from({ length: count + 1 }, (_, i) => (max * i) / count);
}

/** A tick label with as many decimals as the scale needs (0.0032 → "0.0032", 1250 → "1,250"). */
export function formatTick(value: number, max: number): string {
  const decimals = max >= 100 ? 0 : max >= 1 ? 2 : Math.min(8, Math.ceil(-Math.log10(max)) + 2);
  return value.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: decimals });
}

export interface Point {
  x: number;
  y: number;
}

/** Where each value sits in a `width` × `height` box (y grows downward in SVG). */
export function chartPoints(values: readonly number[], width: number, height: number, max: number): Point[] {
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  return values.map((v, i) => ({
    x: values.length > 1 ? i * step : width / 2,
    y: height - (Math.max(0, Number.isFinite(v) ? v : 0) / max) * height,
  }));
}

/** The SVG path of the line through `points`. */
export function linePath(points: readonly Point[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${round(p.x)},${round(p.y)}`).join(' ');
}

/** The same line closed down to the x-axis, for the shaded area under it. */
export function areaPath(points: readonly Point[], height: number): string {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return '';
  return `${linePath(points)} L${round(last.x)},${height} L${round(first.x)},${height} Z`;
}

/** Indexes of the x labels to print so they never crowd: at most `max`, always the first and last. */
export function labelIndexes(length: number, max = 6): number[] {
  if (length <= 0) return [];
  if (length <= max) return Array.from({ length }, (_, i) => i);
  const step = (length - 1) / (max - 1);
  return [...new Set(Array.from({ length: max }, (_, i) => Math.round(i * step)))];
}

/** The data point nearest to a horizontal position (pointer hover). */
export function nearestIndex(x: number, width: number, length: number): number {
  if (length <= 1 || width <= 0) return 0;
  return Math.min(length - 1, Math.max(0, Math.round((x / width) * (length - 1))));
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
