import type { OverviewResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../../api/queryKeys';
import { countTestIds, failQuery, renderPage, textOf } from '../../../testing/renderPage';
import OverviewPage from './OverviewPage';

const ANSWER: OverviewResponse = {
  algorithm: 'scrypt',
  window_minutes: 10,
  accounts: [
    {
      account_name: 'miner01',
      hashrate: 416.1,
      hashrate_units: 'Kh/s',
      hashrate_avg: 7.56,
      hashrate_avg_units: 'Kh/s',
      active_workers: 1,
      total_workers: 3,
      low_workers: 0,
      offline_workers: 2,
      estimated_revenue: 271.54,
    },
    {
      account_name: 'miner02',
      hashrate: 1.5,
      hashrate_units: 'Mh/s',
      hashrate_avg: 455,
      hashrate_avg_units: 'Kh/s',
      active_workers: 2,
      total_workers: 3,
      low_workers: 1,
      offline_workers: 1,
      estimated_revenue: 1145.95,
    },
  ],
  totals: {
    hashrate: 1.92,
    hashrate_units: 'Mh/s',
    hashrate_avg: 462.56,
    hashrate_avg_units: 'Kh/s',
    active_workers: 3,
    total_workers: 6,
    low_workers: 1,
    offline_workers: 3,
    estimated_revenue: 1417.49,
  },
};

// Nothing stored in a Node render: the page's algorithm is the default, SCRYPT.
const key = queryKeys.overview('scrypt');

describe('the All accounts page', () => {
  it('says what it loads while it loads, and why it failed when it did', () => {
    expect(textOf(renderPage(<OverviewPage />))).toContain('Loading accounts overview…');
    const failed = textOf(renderPage(<OverviewPage />, { seed: (c) => failQuery(c, key, 'Server unavailable.') }));
    expect(failed).toContain(
      'The accounts overview could not be loaded: Server unavailable. Trying again every 30 seconds.',
    );
  });

  it('shows the totals and a row per account, low and offline counts marked when above 0', () => {
    const html = renderPage(<OverviewPage />, { seed: (c) => c.setQueryData(key, ANSWER) });
    const text = textOf(html);
    expect(text).toContain('Current Hashrate (last 10 min) 1.92 Mh/s');
    expect(text).toContain('Average Hashrate (last 24 h) 462.56 Kh/s');
    expect(text).toContain('Active Workers 3 / 6');
    expect(text).toContain('Low / Offline 1 / 3');
    expect(text).toContain('Estimated 24h revenue $1,417.49');
    expect(countTestIds(html, 'overview-row')).toBe(2);
    expect(text).toContain('miner01 416.10 Kh/s 7.56 Kh/s 1 / 3 0 2 $271.54');
    expect(text).toContain('miner02 1.50 Mh/s 455.00 Kh/s 2 / 3 1 1 $1,145.95');
    // miner01's offline 2 and miner02's low 1 and offline 1 stand out; miner01's low 0 does not.
    expect(html.match(/text-red-700/g)).toHaveLength(2);
    expect(html.match(/text-amber-700 dark:text-amber-400">1</g)).toHaveLength(1);
  });

  it('says so when the user has no account', () => {
    const empty = { ...ANSWER, accounts: [], totals: { ...ANSWER.totals, total_workers: 0 } };
    expect(textOf(renderPage(<OverviewPage />, { seed: (c) => c.setQueryData(key, empty) }))).toContain(
      'You have no mining account yet.',
    );
  });
});
