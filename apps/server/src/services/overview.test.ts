import type { OverviewAccount } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { overviewRow, overviewTotals } from './overview.js';

const row = (over: Partial<OverviewAccount>): OverviewAccount => ({
  account_name: 'miner',
  hashrate: 0,
  hashrate_units: 'H/s',
  hashrate_avg: 0,
  hashrate_avg_units: 'H/s',
  active_workers: 0,
  total_workers: 0,
  low_workers: 0,
  offline_workers: 0,
  estimated_revenue: 0,
  ...over,
});

describe('overviewRow', () => {
  it('takes the summary’s cards and counts the workers that are low and offline', () => {
    const summary = {
      hashrate: 1.5,
      hashrate_units: 'Mh/s',
      hashrate_avg: 900,
      hashrate_avg_units: 'Kh/s',
      window_minutes: 10,
      active_workers: 3,
      total_workers: 5,
      estimated_revenue: 12.34,
    };
    const states = ['online', 'low', 'offline', 'offline', 'online'] as const;
    expect(
      overviewRow(
        'miner01',
        summary,
        states.map((state) => ({ state })),
      ),
    ).toEqual({
      account_name: 'miner01',
      hashrate: 1.5,
      hashrate_units: 'Mh/s',
      hashrate_avg: 900,
      hashrate_avg_units: 'Kh/s',
      active_workers: 3,
      total_workers: 5,
      low_workers: 1,
      offline_workers: 2,
      estimated_revenue: 12.34,
    });
  });
});

describe('overviewTotals', () => {
  it('is zeros in H/s for no accounts', () => {
    expect(overviewTotals([])).toEqual({
      hashrate: 0,
      hashrate_units: 'H/s',
      hashrate_avg: 0,
      hashrate_avg_units: 'H/s',
      active_workers: 0,
      total_workers: 0,
      low_workers: 0,
      offline_workers: 0,
      estimated_revenue: 0,
    });
  });

  it('adds hashrates of different units in H/s and shows the sum in the unit that suits it', () => {
    const totals = overviewTotals([
      row({ hashrate: 999.99, hashrate_units: 'Kh/s', hashrate_avg: 1.23, hashrate_avg_units: 'Gh/s' }),
      row({ hashrate: 10, hashrate_units: 'H/s', hashrate_avg: 770, hashrate_avg_units: 'Mh/s' }),
    ]);
    // 999,990 + 10 = 1,000,000 H/s: one unit up. 1,230,000,000 + 770,000,000 = 2 Gh/s.
    expect(totals).toMatchObject({ hashrate: 1, hashrate_units: 'Mh/s', hashrate_avg: 2, hashrate_avg_units: 'Gh/s' });
    // 999,990 + 4 = 999,994 H/s reads 999.99 Kh/s; + 5 rounds half up to the next unit.
    expect(overviewTotals([row({ hashrate: 999.99, hashrate_units: 'Kh/s' }), row({ hashrate: 4 })])).toMatchObject({
      hashrate: 999.99,
      hashrate_units: 'Kh/s',
    });
    expect(overviewTotals([row({ hashrate: 999.99, hashrate_units: 'Kh/s' }), row({ hashrate: 5 })])).toMatchObject({
      hashrate: 1,
      hashrate_units: 'Mh/s',
    });
  });

  it('sums worker counts, and revenue to the exact cent where floats would drift', () => {
    const rows = [
      row({ active_workers: 1, total_workers: 3, low_workers: 1, offline_workers: 2, estimated_revenue: 0.1 }),
      row({ active_workers: 2, total_workers: 2, low_workers: 0, offline_workers: 0, estimated_revenue: 0.2 }),
      row({ active_workers: 0, total_workers: 4, low_workers: 0, offline_workers: 4, estimated_revenue: 0.7 }),
    ];
    // In floats 0.1 + 0.2 + 0.7 is 0.30000000000000004 + 0.7, and 0.1 + 0.7 alone is 0.7999999999999999.
    expect(overviewTotals(rows)).toMatchObject({
      active_workers: 3,
      total_workers: 9,
      low_workers: 1,
      offline_workers: 6,
      estimated_revenue: 1,
    });
    expect(overviewTotals([row({ estimated_revenue: 0.1 }), row({ estimated_revenue: 0.7 })]).estimated_revenue).toBe(
      0.8,
    );
  });

  it('refuses a unit the display rule does not name rather than guess its size', () => {
    expect(() => overviewTotals([row({ hashrate: 1, hashrate_units: 'Qh/s' })])).toThrow(RangeError);
  });
});
