import { describe, expect, it } from 'vitest';
import {
  accountHashrateSeries,
  accountStart,
  chartBuckets,
  estimatedRevenue,
  miningPeriods,
  parseWorkerId,
} from './mining.js';

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
    expect(estimatedRevenue({ ...base, profit: undefined })).toBe(0);
    expect(estimatedRevenue({ ...base, btcUsd: undefined })).toBe(0);
    expect(estimatedRevenue({ ...base, windowSeconds: 0 })).toBe(0);
    expect(estimatedRevenue({ ...base, windowDifficulty: '0' })).toBe(0);
  });
});

describe('the chart series', () => {
  it('has 48 half hours on UTC, the last one holding now, the current one divided by its elapsed part', () => {
    const now = new Date('2024-05-06T12:10:00Z');
    const buckets = chartBuckets(now);
    expect(buckets.starts).toHaveLength(48);
    expect(buckets.from).toEqual(new Date('2024-05-05T12:30:00Z'));
    expect(buckets.starts.at(-1)).toEqual(new Date('2024-05-06T12:00:00Z'));
    expect(buckets.to).toEqual(new Date('2024-05-06T12:30:00Z'));

    const series = accountHashrateSeries(
      [
        { start: new Date('2024-05-05T12:30:00Z'), acceptedDifficulty: '900' },
        { start: new Date('2024-05-06T11:30:00Z'), acceptedDifficulty: '1800' },
        { start: new Date('2024-05-06T12:00:00Z'), acceptedDifficulty: '600' },
      ],
      now,
      65_536,
    );
    expect(series.starts).toEqual(buckets.starts);
    expect(series.hashrates[0]).toBe('32768'); // 900 × 65,536 ÷ 1,800 s
    expect(series.hashrates[46]).toBe('65536'); // 1,800 × 65,536 ÷ 1,800 s
    expect(series.hashrates[47]).toBe('65536'); // 600 × 65,536 ÷ 600 s so far
    expect(series.hashrates.filter((h) => h === '0')).toHaveLength(45);
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
