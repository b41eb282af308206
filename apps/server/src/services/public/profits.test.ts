import type { PoolComparison, ProfitHour } from '@lodestone/db';
import { type Algorithm, algorithmByKey, Exact } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import {
  comparisonRate,
  comparisonTable,
  meanSince,
  percentDifference,
  periodMeans,
  periodStart,
  presentPoolProfits,
  presentProfitChart,
} from './profits.js';

const scrypt = algorithmByKey('scrypt') as Algorithm;
const sha256 = algorithmByKey('sha256') as Algorithm;
const NOW = new Date('2025-06-15T12:30:00Z');
const own = { name: 'Lodestone', url: 'https://pool.example' };
const hour = (iso: string, sum: string, count = 1): ProfitHour => ({ hour: new Date(iso), sum, count });

function other(over: Partial<PoolComparison>): PoolComparison {
  return {
    algorithm: 'scrypt',
    poolName: 'Other',
    poolUrl: 'https://other.example',
    hashrateUnit: 'TH/s',
    profit24h: null,
    profit7d: null,
    profit30d: null,
    updatedAt: NOW,
    ...over,
  };
}

describe('periods', () => {
  it('are the current UTC hour and the hours before it', () => {
    expect(periodStart(NOW, '24h').toISOString()).toBe('2025-06-14T13:00:00.000Z');
    expect(periodStart(NOW, '7d').toISOString()).toBe('2025-06-08T13:00:00.000Z');
    expect(periodStart(NOW, '30d').toISOString()).toBe('2025-05-16T13:00:00.000Z');
  });

  it('average the snapshots, not the hours, and know when there is nothing', () => {
    const hours = [
      hour('2025-06-10T00:00:00Z', '0.000000000000006', 3),
      hour('2025-06-15T12:00:00Z', '0.000000000000002', 1),
    ];
    // (6e-15 over 3 snapshots + 2e-15 over 1) / 4 = 2e-15
    expect(meanSince(hours, new Date('2025-06-01T00:00:00Z'))?.toString()).toBe('0.000000000000002');
    expect(meanSince(hours, new Date('2025-06-15T12:00:00Z'))?.toString()).toBe('0.000000000000002');
    expect(meanSince(hours, new Date('2025-06-15T13:00:00Z'))).toBeUndefined();
    const means = periodMeans({ now: NOW, hours, firstRate: hours[0]?.hour ?? null });
    expect(means['24h']?.toString()).toBe('0.000000000000002');
    expect(means['7d']?.toString()).toBe('0.000000000000002');
  });
});

describe('percentDifference', () => {
  const ours = Exact.of('0.002');
  it('is (theirs − ours) / ours × 100, positive when the other pool pays more', () => {
    expect(percentDifference(Exact.of('0.0021'), ours)).toBe(5);
    expect(percentDifference(Exact.of('0.0019'), ours)).toBe(-5);
    expect(percentDifference(ours, ours)).toBe(0);
  });

  it('rounds half away from zero to 0.1 and never answers -0', () => {
    expect(percentDifference(Exact.of('0.002001'), ours)).toBe(0.1); // 0.05%
    expect(percentDifference(Exact.of('0.0019990'), ours)).toBe(-0.1); // -0.05%
    expect(percentDifference(Exact.of('0.0019991'), ours)).toBe(0); // -0.045%
    expect(Object.is(percentDifference(Exact.of('0.0019999'), ours), 0)).toBe(true);
  });

  it('is null without a rate of ours', () => {
    expect(percentDifference(Exact.of('0.002'), undefined)).toBeNull();
    expect(percentDifference(Exact.of('0.002'), Exact.ZERO)).toBeNull();
  });
});

describe('comparison rows', () => {
  it('convert other pools’ units exactly', () => {
    const row = other({ hashrateUnit: 'GH/s', profit24h: '0.0000019' });
    expect(comparisonRate(row, '24h')?.shifted(12).toString()).toBe('0.0019');
    expect(comparisonRate(row, '7d')).toBeUndefined();
  });

  it('list our row and the pools with a figure, most profitable first, ours first among equals', () => {
    const rows = comparisonTable({
      algorithm: scrypt,
      period: '24h',
      ours: Exact.of('0.000000000000002'),
      own,
      others: [
        other({ poolName: 'Beta', profit24h: '0.0019' }),
        other({ poolName: 'Alpha', hashrateUnit: 'GH/s', profit24h: '0.0000021' }),
        other({ poolName: 'Same', profit24h: '0.002' }),
        other({ poolName: 'No24h', profit7d: '0.5' }),
      ],
    });
    expect(rows).toEqual([
      ['Alpha', 'https://other.example', 0.0021, 'BTC/TH/s', 5],
      ['Lodestone', 'https://pool.example', 0.002, 'BTC/TH/s', 0],
      ['Same', 'https://other.example', 0.002, 'BTC/TH/s', 0],
      ['Beta', 'https://other.example', 0.0019, 'BTC/TH/s', -5],
    ]);
  });

  it('show our row at 0 with no percentages while our rate is unknown', () => {
    const rows = comparisonTable({
      algorithm: sha256,
      period: '30d',
      ours: undefined,
      own,
      others: [other({ profit30d: '1' })],
    });
    expect(rows).toEqual([
      ['Other', 'https://other.example', 1000, 'BTC/PH/s', null],
      ['Lodestone', 'https://pool.example', 0, 'BTC/PH/s', null],
    ]);
  });
});

describe('presentPoolProfits', () => {
  it('gives the calculator the unit machines report, the rate in the profit unit, and the prices in USD', () => {
    const prices = new Map([
      ['LTC', { ticker: 'LTC', usd: '80', source: 't', takenAt: NOW }],
      ['BTC', { ticker: 'BTC', usd: '100000', source: 't', takenAt: NOW }],
      ['EUR', { ticker: 'EUR', usd: '1.08', source: 't', takenAt: NOW }],
    ]);
    const coin = (ticker: string, position: number) =>
      ({ ticker, position, payouts_enabled: true }) as unknown as Parameters<
        typeof presentPoolProfits
      >[0]['catalogue'][number];
    const answer = presentPoolProfits({
      algorithm: sha256,
      history: {
        now: NOW,
        hours: [hour('2025-06-15T12:00:00Z', '0.00000000000000004')],
        firstRate: new Date('2025-06-15T12:00:00Z'),
      },
      own,
      others: [],
      catalogue: [coin('BTC', 1), coin('LTC', 2), coin('DOGE', 3)],
      prices,
    });
    expect(answer).toMatchObject({
      // An S21 says 200 TH/s: the Hash Rate starts in TH/s; the rate reads per PH/s.
      calculator_units_factor: 12,
      profit_rate_units_factor: 15,
      calculator_units: 'TH/s',
      profit_rate_units: 'BTC/PH/s',
      prices: [
        { ticker: 'BTC', price: 100000 },
        { ticker: 'LTC', price: 80 },
      ],
      fiat_prices: { USD: 1, EUR: 1.08 },
      profit_24h: 0.04,
    });
    const noEuro = presentPoolProfits({
      algorithm: sha256,
      history: { now: NOW, hours: [], firstRate: null },
      own,
      others: [],
      catalogue: [],
      prices: new Map(),
    });
    expect(noEuro.fiat_prices).toEqual({ USD: 1 });
    expect(noEuro.profit_24h).toBe(0);
  });
});

describe('presentProfitChart', () => {
  const history = {
    now: NOW,
    hours: [
      hour('2025-05-20T00:00:00Z', '0.000000000000007'),
      hour('2025-06-14T11:00:00Z', '0.000000000000009'),
      hour('2025-06-14T20:00:00Z', '0.000000000000001'),
      hour('2025-06-15T12:00:00Z', '0.000000000000003'),
    ],
    // The pool knew rates long before the 30 days.
    firstRate: new Date('2025-01-01T00:00:00Z'),
  };

  it('24h: one point per hour of the period, labelled in the zone', () => {
    const chart = presentProfitChart(scrypt, history, '24h', 'Europe/Madrid');
    expect(chart.x_axis).toHaveLength(24);
    expect(chart.x_axis[0]).toBe('15:00'); // 13:00 UTC
    expect(chart.x_axis[23]).toBe('14:00');
    expect(chart.y_axis[7]).toBe(0.001); // 20:00 UTC
    expect(chart.y_axis[23]).toBe(0.003);
    expect(chart.y_axis.filter((v) => v > 0)).toHaveLength(2);
    expect(chart.label).toBe('AVG Profit (BTC/TH/s)');
  });

  it('7d: 42 four-hour points aligned on UTC', () => {
    const chart = presentProfitChart(scrypt, history, '7d', 'UTC');
    expect(chart.x_axis).toHaveLength(42);
    expect(chart.x_axis[41]).toBe('06-15 12:00');
    expect(chart.x_axis[0]).toBe('06-08 16:00');
    expect(chart.y_axis[chart.x_axis.indexOf('06-14 08:00')]).toBe(0.009);
    expect(chart.y_axis[chart.x_axis.indexOf('06-14 20:00')]).toBe(0.001);
  });

  it('30d: one point per calendar day of the zone, an hour counting on the day it starts', () => {
    const utc = presentProfitChart(scrypt, history, '30d', 'UTC');
    expect(utc.x_axis).toHaveLength(30);
    expect(utc.x_axis[0]).toBe('2025-05-17');
    expect(utc.x_axis[29]).toBe('2025-06-15');
    expect(utc.y_axis[utc.x_axis.indexOf('2025-05-20')]).toBe(0.007);
    expect(utc.y_axis[utc.x_axis.indexOf('2025-06-14')]).toBe(0.005); // (9 + 1) / 2
    expect(utc.y_axis[29]).toBe(0.003);
    const tokyo = presentProfitChart(scrypt, history, '30d', 'Asia/Tokyo');
    expect(tokyo.x_axis[29]).toBe('2025-06-15');
    expect(tokyo.y_axis[29]).toBe(0.002); // 20:00 UTC is 05:00 the next day in Tokyo: (1 + 3) / 2
    expect(tokyo.y_axis[28]).toBe(0.009);
  });

  it('starts at the point the pool’s first rate counts in; later hours without a rate still read 0', () => {
    // First rate at 20:10 UTC yesterday; the 11:00 hour before it cannot be (a seed that says so is ignored).
    const young = { ...history, hours: history.hours.slice(2), firstRate: new Date('2025-06-14T20:10:00Z') };
    const day = presentProfitChart(scrypt, young, '24h', 'UTC');
    expect(day.x_axis[0]).toBe('20:00');
    expect(day.x_axis).toHaveLength(17); // 20:00 … 12:00
    expect(day.y_axis[0]).toBe(0.001);
    expect(day.y_axis.at(-1)).toBe(0.003);
    expect(day.y_axis.slice(1, -1).every((v) => v === 0)).toBe(true);
    const week = presentProfitChart(scrypt, young, '7d', 'UTC');
    expect(week.x_axis).toEqual(['06-14 20:00', '06-15 00:00', '06-15 04:00', '06-15 08:00', '06-15 12:00']);
    expect(week.y_axis).toEqual([0.001, 0, 0, 0, 0.003]);
    const month = presentProfitChart(scrypt, young, '30d', 'UTC');
    expect(month.x_axis).toEqual(['2025-06-14', '2025-06-15']);
    expect(month.y_axis).toEqual([0.001, 0.003]);
    // In Tokyo 20:10 UTC is already the 15th.
    expect(presentProfitChart(scrypt, young, '30d', 'Asia/Tokyo').x_axis).toEqual(['2025-06-15']);
    // In India the 20:00 UTC hour starts on the 15th at 01:30, and counts there.
    expect(presentProfitChart(scrypt, young, '30d', 'Asia/Kolkata').x_axis).toEqual(['2025-06-15']);
  });

  it('has no points before the pool ever knew a rate', () => {
    for (const period of ['24h', '7d', '30d'] as const) {
      const chart = presentProfitChart(scrypt, { now: NOW, hours: [], firstRate: null }, period, 'UTC');
      expect(chart).toEqual({ x_axis: [], y_axis: [], label: 'AVG Profit (BTC/TH/s)' });
    }
  });
});
