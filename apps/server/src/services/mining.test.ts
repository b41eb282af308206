import { describe, expect, it } from 'vitest';
import { chartBuckets, HALF_HOURLY_POINTS } from './chartPeriods.js';
import { accountHashrateChart, accountStart, estimatedRevenue, miningPeriods, parseWorkerId } from './mining.js';

describe('mining periods', () => {
  it('are the statistics window and the last 24 complete hours plus the current one', () => {
    const p = miningPeriods(new Date('2024-05-06T12:34:56Z'), 10);
    expect(p.window).toEqual({ from: new Date('2024-05-06T12:24:00Z'), minutes: 10, seconds: 656 });
    expect(p.day).toEqual({ from: new Date('2024-05-05T12:00:00Z'), seconds: 86_400 + 34 * 60 + 56 });
    expect(p.to).toEqual(new Date('2024-05-06T12:34:56Z'));
  });
});

describe('estimatedRevenue', () => {
  const base = {
    windowDifficulty: '6000',
    windowSeconds: 600,
    hashesPerDifficulty: 65_536,
    // The rollup test's LTC rate: 6.25 LTC ÷ (1e6 × 65,536) per hash, $80 per LTC, $100,000 per BTC.
    profit: '0.000000006591796875',
    btcUsd: '100000',
    feePercent: 1,
    feeDiscount: '0.25',
  };

  it('is hashrate × PPS rate × (1 − fee) × BTC price, in dollars a day', () => {
    // 655,360 H/s × 6.591796875e-9 BTC = 0.00432 BTC a day; fee 1% × (1 − 0.25) = 0.75%; × $100,000.
    expect(estimatedRevenue(base)).toBe(428.76);
    expect(estimatedRevenue({ ...base, feeDiscount: '0' })).toBe(427.68);
  });

  it('rounds down to the cent and is 0 without a rate, a price or a window', () => {
    expect(estimatedRevenue({ ...base, btcUsd: '100000.99' })).toBe(428.76); // 428.7642… → 428.76
    expect(estimatedRevenue({ ...base, btcUsd: '99999' })).toBe(428.75); // 428.7557…
    // A third of the rate above, exactly $142.92, though the hashrate (218,453.33… H/s) has no end.
    expect(estimatedRevenue({ ...base, windowDifficulty: '10', windowSeconds: 3 })).toBe(142.92);
    expect(estimatedRevenue({ ...base, profit: undefined })).toBe(0);
    expect(estimatedRevenue({ ...base, btcUsd: undefined })).toBe(0);
    expect(estimatedRevenue({ ...base, windowSeconds: 0 })).toBe(0);
    expect(estimatedRevenue({ ...base, windowDifficulty: '0' })).toBe(0);
  });
});

describe('the account hashrate chart', () => {
  const slots = [
    { start: new Date('2024-05-05T12:30:00Z'), acceptedDifficulty: '900' },
    { start: new Date('2024-05-06T11:30:00Z'), acceptedDifficulty: '1800' },
    { start: new Date('2024-05-06T12:00:00Z'), acceptedDifficulty: '600' },
  ];
  const now = new Date('2024-05-06T12:10:00Z');

  it('has 48 half hours on UTC over 24 hours, the last one holding now, divided by its elapsed part', () => {
    const buckets = chartBuckets('24h', now, 'UTC', HALF_HOURLY_POINTS);
    expect(buckets.starts).toHaveLength(48);
    expect(buckets.starts[0]).toEqual(new Date('2024-05-05T12:30:00Z'));
    expect(buckets.ends.at(-1)).toEqual(new Date('2024-05-06T12:30:00Z'));
    const chart = accountHashrateChart(buckets, slots, now, 65_536, buckets.starts[0] as Date);
    expect(chart.label).toBe('Hashrate (Kh/s)');
    expect(chart.x_axis[0]).toBe('12:30');
    expect(chart.y_axis[0]).toBe(32.768); // 900 × 65,536 ÷ 1,800 s
    expect(chart.y_axis[46]).toBe(65.536); // 1,800 × 65,536 ÷ 1,800 s
    expect(chart.y_axis[47]).toBe(65.536); // 600 × 65,536 ÷ 600 s so far
    expect(chart.y_axis.filter((h) => h === 0)).toHaveLength(45);
  });

  it('sums half hours into 4-hour points over 7 days and into the zone’s days over 30', () => {
    const week = chartBuckets('7d', now, 'UTC', HALF_HOURLY_POINTS);
    expect(week.starts).toHaveLength(42);
    const weekChart = accountHashrateChart(week, slots, now, 65_536, slots[0]?.start ?? null);
    // 08:00–12:00 holds 1,800 over 14,400 s; the current point 600 over its 10 minutes so far.
    expect(weekChart.x_axis.slice(-2)).toEqual(['05-06 08:00', '05-06 12:00']);
    expect(weekChart.y_axis.slice(-2)).toEqual([8.192, 65.536]);
    // Points before the first shares are left out: 12:00–16:00 on 05-05 is the first shown.
    expect(weekChart.x_axis[0]).toBe('05-05 12:00');

    const month = chartBuckets('30d', now, 'Europe/Madrid', HALF_HOURLY_POINTS);
    expect(month.labels.at(-1)).toBe('2024-05-06');
    expect(month.starts.at(-1)).toEqual(new Date('2024-05-05T22:00:00Z'));
    const monthChart = accountHashrateChart(month, slots, now, 65_536, slots[0]?.start ?? null);
    // Madrid's 05-06 began at 22:00 UTC: 1,800 + 600 over the 50,400 s since (14 h 10 min).
    expect(monthChart.x_axis).toEqual(['2024-05-05', '2024-05-06']);
    expect(monthChart.y_axis[1]).toBeCloseTo((2400 * 65_536) / 51_000 / 1000, 3);
  });

  it('shows no point before the account’s first shares, and none without any', () => {
    const buckets = chartBuckets('24h', now, 'UTC', HALF_HOURLY_POINTS);
    expect(accountHashrateChart(buckets, [], now, 65_536, null).x_axis).toEqual([]);
    expect(accountHashrateChart(buckets, slots.slice(1), now, 65_536, new Date('2024-05-06T11:45:00Z')).x_axis).toEqual(
      ['11:30', '12:00'],
    );
  });
});

describe('parseWorkerId', () => {
  it('takes positive int8 decimals only', () => {
    expect(parseWorkerId('12')).toBe(12n);
    expect(parseWorkerId('9223372036854775807')).toBe(9_223_372_036_854_775_807n);
    for (const bad of ['0', '012', '-1', '1.5', 'abc', '', '9223372036854775808', '1e3']) {
      expect(parseWorkerId(bad), bad).toBeUndefined();
    }
  });
});

describe('accountStart', () => {
  const at = (hhmmss: string) => new Date(`2024-05-06T${hhmmss}Z`);

  it('is the oldest worker’s first share, unless the history began in an earlier half hour', () => {
    expect(accountStart(at('12:00:55'), at('12:00:00'))).toEqual(at('12:00:55'));
    // Workers removed, their shares kept in the half-hour rows: the account is as old as those.
    expect(accountStart(at('12:00:55'), at('09:00:00'))).toEqual(at('09:00:00'));
    expect(accountStart(null, at('09:00:00'))).toEqual(at('09:00:00'));
    expect(accountStart(at('12:00:55'), null)).toEqual(at('12:00:55'));
    expect(accountStart(null, null)).toBeNull();
  });
});
