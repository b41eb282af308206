import { describe, expect, it } from 'vitest';
import { bucketOf, chartBuckets, firstShownIndex, HALF_HOURLY_POINTS, HOURLY_POINTS } from './chartPeriods.js';

const at = (iso: string) => new Date(iso);

describe('chart periods', () => {
  const now = at('2024-05-06T12:10:00Z');

  it('cuts 24 hours into points on UTC, the last holding now, labelled HH:mm in the zone', () => {
    const half = chartBuckets('24h', now, 'UTC', HALF_HOURLY_POINTS);
    expect(half.starts).toHaveLength(48);
    expect([half.starts[0], half.ends.at(-1)]).toEqual([at('2024-05-05T12:30:00Z'), at('2024-05-06T12:30:00Z')]);
    const hours = chartBuckets('24h', now, 'Asia/Kolkata', HOURLY_POINTS);
    expect(hours.starts).toHaveLength(24);
    expect([hours.labels[0], hours.labels.at(-1)]).toEqual(['18:30', '17:30']);
  });

  it('cuts 7 days into 42 points of 4 hours labelled MM-DD HH:mm', () => {
    const week = chartBuckets('7d', now, 'UTC', HOURLY_POINTS);
    expect(week.starts).toHaveLength(42);
    expect([week.labels[0], week.labels.at(-1)]).toEqual(['04-29 16:00', '05-06 12:00']);
    expect(week.ends.at(-1)).toEqual(at('2024-05-06T16:00:00Z'));
  });

  it('cuts 30 days into the zone’s calendar days, 23 hours long on the day clocks go forward', () => {
    const month = chartBuckets('30d', at('2024-04-05T12:00:00Z'), 'Europe/Madrid', HOURLY_POINTS);
    expect(month.labels).toHaveLength(30);
    expect([month.labels[0], month.labels.at(-1)]).toEqual(['2024-03-07', '2024-04-05']);
    const i = month.labels.indexOf('2024-03-31');
    const hours = ((month.ends[i] as Date).getTime() - (month.starts[i] as Date).getTime()) / 3_600_000;
    expect(hours).toBe(23);
    expect(month.starts[i]).toEqual(at('2024-03-30T23:00:00Z'));
  });

  it('finds the point an instant counts in, none outside the chart', () => {
    const half = chartBuckets('24h', now, 'UTC', HALF_HOURLY_POINTS);
    expect(bucketOf(half, at('2024-05-05T12:30:00Z'))).toBe(0);
    expect(bucketOf(half, at('2024-05-06T12:29:59.999Z'))).toBe(47);
    expect(bucketOf(half, at('2024-05-06T11:59:59Z'))).toBe(46);
    expect(bucketOf(half, at('2024-05-05T12:29:59Z'))).toBe(-1);
    expect(bucketOf(half, at('2024-05-06T12:30:00Z'))).toBe(-1);
  });

  it('shows the chart from the point of its first record, all of it for an older one, none without', () => {
    const half = chartBuckets('24h', now, 'UTC', HALF_HOURLY_POINTS);
    expect(firstShownIndex(half, at('2024-05-01T00:00:00Z'))).toBe(0);
    expect(firstShownIndex(half, at('2024-05-06T10:59:59Z'))).toBe(44);
    expect(firstShownIndex(half, null)).toBe(48);
    expect(firstShownIndex(half, at('2024-05-06T12:30:00Z'))).toBe(48);
  });
});
