import type { PoolProfitsResponse } from '@lodestone/contract';
import { pageOf } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { COMPARISON_PAGE_SIZE, comparisonRows, formatComparison, formatProfitability } from './comparison';

describe('comparison column', () => {
  it('positive is up (green), negative down (red), zero right, with 1 decimal', () => {
    expect(formatComparison(2.14)).toEqual({ text: '2.1%', direction: 'up' });
    expect(formatComparison(-5)).toEqual({ text: '-5.0%', direction: 'down' });
    expect(formatComparison(0)).toEqual({ text: '0.0%', direction: 'flat' });
  });

  it('a figure that rounds to zero points right, never up or down', () => {
    expect(formatComparison(0.04)).toEqual({ text: '0.0%', direction: 'flat' });
    expect(formatComparison(-0.04)).toEqual({ text: '0.0%', direction: 'flat' });
    expect(formatComparison(0.05)).toEqual({ text: '0.1%', direction: 'up' });
  });

  it('no figure (our pool has no profitability for the period) is a dash', () => {
    expect(formatComparison(null)).toEqual({ text: '—', direction: null });
  });
});

describe('profitability column', () => {
  it('has 5 decimals and the unit', () => {
    expect(formatProfitability(0.000123456, 'BTC/TH/s')).toBe('0.00012 BTC/TH/s');
    expect(formatProfitability(0.048, 'BTC/PH/s')).toBe('0.04800 BTC/PH/s');
  });
});

describe('periods and paging', () => {
  const row = (name: string): PoolProfitsResponse['profit_table_24h'][number] => [name, 'https://x', 1, 'BTC/TH/s', 0];
  const data = {
    profit_table_24h: [row('a')],
    profit_table_7d: [row('b')],
    profit_table_30d: Array.from({ length: 23 }, (_, i) => row(`p${i}`)),
  } as PoolProfitsResponse;

  it('picks the table of the period', () => {
    expect(comparisonRows(data, '24h')[0]?.[0]).toBe('a');
    expect(comparisonRows(data, '7d')[0]?.[0]).toBe('b');
    expect(comparisonRows(data, '30d')).toHaveLength(23);
  });

  it('pages 10 rows at a time, clamped to the last page', () => {
    const rows = comparisonRows(data, '30d');
    const third = pageOf(rows, COMPARISON_PAGE_SIZE, 3);
    expect(third.rows.map((r) => r[0])).toEqual(['p20', 'p21', 'p22']);
    expect(third.window).toMatchObject({ page: 3, pageCount: 3, hasPrev: true, hasNext: false });
    expect(pageOf(rows, COMPARISON_PAGE_SIZE, 9).window.page).toBe(3);
  });
});
