import type { AlgorithmStatsResponse, ChartPeriod, ChartResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../api/queryKeys';
import { buildAlgorithmStats, LTC_NETWORK } from '../../testing/poolAnswers';
import { countTestIds, failQuery, renderPage, textOf } from '../../testing/renderPage';
import StatsPage from './StatsPage';

const STATS: AlgorithmStatsResponse = buildAlgorithmStats({
  networks: [
    {
      ...LTC_NETWORK,
      merged: false,
      blocks: 14,
    },
    {
      coin: 'DOGE',
      height: 5_600_000,
      difficulty: 0.000244140625,
      hashrate: null,
      hashrate_units: 'Th/s',
      reward: '10000',
      observed_at: '2026-05-06T11:59:00.000Z',
      merged: true,
      blocks: 3,
    },
  ],
});

const statsPage = (stats: AlgorithmStatsResponse) =>
  renderPage(<StatsPage />, { path: '/stats', seed: (c) => c.setQueryData(queryKeys.algorithmStats('scrypt'), stats) });

/** Each network row: its coin (from its test id) and its text. */
function networkRows(html: string): { coin: string | undefined; text: string }[] {
  return [...html.matchAll(/<tr data-testid="network-([A-Z0-9]+)">(.*?)<\/tr>/g)].map((m) => ({
    coin: m[1],
    text: textOf(m[2] ?? ''),
  }));
}

describe('the stats page, Network section', () => {
  it('lists each network, own coin first, then the merge-mined ones, with their figures', () => {
    const rows = networkRows(statsPage(STATS));
    expect(rows.map((row) => row.coin)).toEqual(['LTC', 'DOGE']);
    expect(rows[0]?.text).toBe('LTC 28,123,456.79 1.23 Ph/s 6.25123456 LTC 2800123 14 All blocks of LTC');
    expect(rows[1]?.text).toBe('DOGE merge-mined 0.0002441 — 10000.00000000 DOGE 5600000 3 All blocks of DOGE');
  });

  it('links each network to the Blocks page of its coin', () => {
    const html = statsPage(STATS);
    const links = [...html.matchAll(/<a [^>]*data-testid="network-blocks-link"[^>]*>/g)].map((m) => m[0]);
    expect(links).toHaveLength(2);
    expect(links[0]).toContain('href="/blocks?coin=LTC"');
    expect(links[1]).toContain('href="/blocks?coin=DOGE"');
  });

  it('keeps the eight cells of the pool beside it', () => {
    const html = statsPage(STATS);
    expect(countTestIds(html, 'stats-cells')).toBe(1);
    expect(textOf(html)).toContain('Blocks found 17');
  });

  it('says so when the pool has not mined a network of the algorithm yet', () => {
    const html = statsPage({ ...STATS, networks: [] });
    expect(textOf(html)).toContain('The pool has not mined on a network of this algorithm yet.');
    expect(countTestIds(html, 'network-blocks-link')).toBe(0);
  });

  it('shows a dash, not an empty network, while the statistics load or when they failed', () => {
    const loading = renderPage(<StatsPage />, { path: '/stats' });
    expect(textOf(loading)).toContain('Loading pool statistics…');
    expect(textOf(loading)).not.toContain('has not mined');
    const failed = renderPage(<StatsPage />, {
      path: '/stats',
      seed: (c) => failQuery(c, queryKeys.algorithmStats('scrypt'), 'Service unavailable'),
    });
    expect(textOf(failed)).toContain('The pool statistics could not be loaded: Service unavailable.');
    expect(textOf(failed)).not.toContain('has not mined');
    expect(countTestIds(failed, 'network-blocks-link')).toBe(0);
  });
});

describe('the stats page, Pool hashrate chart', () => {
  const DAY: ChartResponse = { x_axis: ['11:00', '11:30', '12:00'], y_axis: [2, 2.5, 2], label: 'Hashrate (Th/s)' };
  const WEEK: ChartResponse = { x_axis: ['05-05 08:00', '05-05 12:00'], y_axis: [2, 2.5], label: 'Hashrate (Th/s)' };
  /** The page with the statistics and the chart answers of `charts` in the cache, and its chart section. */
  const chartSection = (charts: Partial<Record<ChartPeriod, ChartResponse>>) => {
    const html = renderPage(<StatsPage />, {
      path: '/stats',
      seed: (c) => {
        c.setQueryData(queryKeys.algorithmStats('scrypt'), STATS);
        // Unit tests run in UTC (vitest.config.ts), the zone the page reads from the browser.
        for (const [period, chart] of Object.entries(charts))
          c.setQueryData(queryKeys.statsChart('scrypt', 'UTC', period as ChartPeriod), chart);
      },
    });
    return html.match(/<section data-testid="stats-chart-section".*?<\/section>/)?.[0] ?? '';
  };

  it('opens on 24 hours, with the time-range selector, and draws the answer of the 24-hour key', () => {
    const section = chartSection({ '24h': DAY, '7d': WEEK });
    expect(countTestIds(section, 'time-range')).toBe(1);
    expect(textOf(section.match(/<button[^>]*data-testid="time-range"[^>]*>(.*?)<\/button>/)?.[1] ?? '')).toBe(
      'Time range: 24h',
    );
    expect(textOf(section)).toContain('Hashrate (Th/s) 3 points from 11:00 to 12:00.');
    expect(textOf(section)).not.toContain('05-05');
  });

  it("waits for the 24-hour answer: another period's is not drawn in its place", () => {
    const section = chartSection({ '7d': WEEK });
    expect(textOf(section)).toContain('Loading hashrate chart…');
    expect(countTestIds(section, 'stats-chart')).toBe(0);
  });
});
