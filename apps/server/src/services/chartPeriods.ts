import type { ChartPeriod } from '@lodestone/contract';
import { addDays, daysBetween, isoInZone, localDay, startOfLocalDay } from '@lodestone/domain';

/*
 * The periods of the site's time charts (docs/dashboard.md, "Chart ranges"): 24 hours, 7 days and
 * 30 days, cut into points as the Profitability chart cuts them — short points on UTC for the two
 * shorter periods, calendar days of the viewer's zone for 30 days — each labelled in that zone.
 */

const MINUTE_MS = 60_000;

/** The points of a chart over one period: [start, end) each, oldest first, the last holding `now`. */
export interface ChartBuckets {
  starts: Date[];
  ends: Date[];
  labels: string[];
}

/** Minutes per point of the 24-hour and 7-day periods (30 days: one point per calendar day). */
export interface PointWidths {
  '24h': number;
  '7d': number;
}

/** Hourly and 4-hourly points (the Profitability chart's; the revenue chart). */
export const HOURLY_POINTS: PointWidths = { '24h': 60, '7d': 240 };
/** Half-hourly and 4-hourly points (the hashrate charts: shares arrive by the minute). */
export const HALF_HOURLY_POINTS: PointWidths = { '24h': 30, '7d': 240 };

/** HH:mm in the zone. */
export function hourLabel(instant: Date, timeZone: string): string {
  return isoInZone(instant, timeZone).slice(11, 16);
}

/** MM-DD HH:mm in the zone. */
export function dayHourLabel(instant: Date, timeZone: string): string {
  const iso = isoInZone(instant, timeZone);
  return `${iso.slice(5, 10)} ${iso.slice(11, 16)}`;
}

/** The points of `period` at `now`, labelled in `timeZone`. */
export function chartBuckets(period: ChartPeriod, now: Date, timeZone: string, widths: PointWidths): ChartBuckets {
  if (period === '30d') {
    const today = localDay(now, timeZone);
    const days = daysBetween(addDays(today, -29), today);
    return {
      starts: days.map((d) => startOfLocalDay(d, timeZone)),
      ends: days.map((d) => startOfLocalDay(addDays(d, 1), timeZone)),
      labels: days,
    };
  }
  const minutes = widths[period];
  const width = minutes * MINUTE_MS;
  const points = (period === '24h' ? 24 * 60 : 7 * 24 * 60) / minutes;
  const last = Math.floor(now.getTime() / width) * width;
  const first = last - (points - 1) * width;
  const starts = Array.from({ length: points }, (_, i) => new Date(first + i * width));
  const label = period === '24h' ? hourLabel : dayHourLabel;
  return {
    starts,
    ends: starts.map((s) => new Date(s.getTime() + width)),
    labels: starts.map((s) => label(s, timeZone)),
  };
}

/** The point an instant counts in, or -1 outside the chart. */
export function bucketOf(buckets: ChartBuckets, instant: Date): number {
  const t = instant.getTime();
  let lo = 0;
  let hi = buckets.starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (t < (buckets.starts[mid] as Date).getTime()) hi = mid - 1;
    else if (t >= (buckets.ends[mid] as Date).getTime()) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/**
 * The chart from the point its first record (`first`) falls in (docs/decisions.md, Charts start at
 * the first record): earlier points are dropped, later ones without data keep their 0; none at all
 * without a record.
 */
export function firstShownIndex(buckets: ChartBuckets, first: Date | null): number {
  if (first === null) return buckets.starts.length;
  const i = buckets.ends.findIndex((end) => end.getTime() > first.getTime());
  return i === -1 ? buckets.starts.length : i;
}
