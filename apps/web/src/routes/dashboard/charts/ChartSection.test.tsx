import type { ChartPeriod, ChartResponse } from '@lodestone/contract';
import type { QueryClient } from '@tanstack/react-query';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { DashboardSource } from '../../../api/dashboard';
import { queryKeys } from '../../../api/queryKeys';
import { countTestIds, renderPage, textOf } from '../../../testing/renderPage';
import { MiningTab } from '../mining/MiningTab';
import ObserverDashboardPage from '../ObserverDashboardPage';
import { RevenueTab } from '../revenue/RevenueTab';
import { type ChartRange, useChartRanges } from './ChartSection';

/**
 * The dashboards' chart ranges (docs/dashboard.md, Chart ranges): each chart has the time-range selector, starts at
 * the period it showed before (hashrate 24 hours, revenue 30 days), and draws the answer of the chosen period's key.
 * The browser tests (e2e/chartRanges.e2e.test.ts) choose periods; here a screen renders with one chosen.
 */
const OBSERVER_KEY = 'obs-key';
const source: DashboardSource = { kind: 'observer', observerKey: OBSERVER_KEY };
// Unit tests run in UTC (vitest.config.ts), the zone the tabs read from the browser.
const TZ = 'UTC';

/** An answer of `period` whose labels are that period's form (MM-DD HH:mm for 7 days). */
const ANSWERS: Record<ChartPeriod, { x: string[]; y: number[] }> = {
  '24h': { x: ['11:00', '11:30'], y: [1, 2] },
  '7d': { x: ['05-05 08:00', '05-05 12:00', '05-05 16:00'], y: [3, 4, 5] },
  '30d': { x: ['2026-05-04', '2026-05-05'], y: [6, 7] },
};
const chart = (period: ChartPeriod, label: string): ChartResponse => ({
  x_axis: ANSWERS[period].x,
  y_axis: ANSWERS[period].y,
  label,
});

/** Every period's answer of a chart in the cache, so only the key decides which one is drawn. */
function seedCharts(client: QueryClient, key: (period: ChartPeriod) => readonly unknown[], label: string): void {
  for (const period of ['24h', '7d', '30d'] as const) client.setQueryData(key(period), chart(period, label));
}
const seedMining = (client: QueryClient) =>
  seedCharts(client, (p) => queryKeys.miningChart(source, 'scrypt', TZ, p), 'Hashrate (Mh/s)');
const seedRevenue = (client: QueryClient) =>
  seedCharts(client, (p) => queryKeys.revenueChart(source, 'scrypt', TZ, p), 'Revenue (USD)');

/** What the chart with `testId` says to a reader, and what its time-range button says. */
function chartOf(html: string, testId: string): { chart: string; range: string } {
  const section = html.match(new RegExp(`<section data-testid="${testId}-section".*?</section>`))?.[0] ?? '';
  const range = section.match(/<button[^>]*data-testid="time-range"[^>]*>(.*?)<\/button>/)?.[1] ?? '';
  return { chart: textOf(section), range: textOf(range) };
}

const fixed = (period: ChartPeriod): ChartRange => ({ period, onPeriod: () => undefined });

/** The Revenue tab with the dashboards' own ranges, as the pages hold them. */
function RevenueWithDefaultRange() {
  return <RevenueTab source={source} algorithm="scrypt" chartRange={useChartRanges().revenue} />;
}

describe('the hashrate chart', () => {
  it('opens on 24 hours on the observer dashboard, with the time-range selector, drawing the 24-hour answer', () => {
    const html = renderPage(
      <Routes>
        <Route path="/dashboard/:observerKey" element={<ObserverDashboardPage />} />
      </Routes>,
      { path: `/dashboard/${OBSERVER_KEY}`, seed: seedMining },
    );
    const { chart, range } = chartOf(html, 'hashrate-chart');
    expect(range).toBe('Time range: 24h');
    expect(countTestIds(html, 'time-range')).toBe(1);
    expect(chart).toContain('Hashrate (Mh/s) 2 points from 11:00 to 11:30.');
  });

  it('loads the chosen period when only another period is in the cache', () => {
    const html = renderPage(<MiningTab source={source} algorithm="scrypt" chartRange={fixed('7d')} />, {
      seed: (client) => client.setQueryData(queryKeys.miningChart(source, 'scrypt', TZ, '24h'), chart('24h', 'H')),
    });
    expect(chartOf(html, 'hashrate-chart').chart).toContain('Loading hashrate chart…');
    expect(countTestIds(html, 'hashrate-chart')).toBe(0);
  });
});

describe('the revenue chart', () => {
  it('opens on 30 days, with the time-range selector, drawing the 30-day answer', () => {
    const html = renderPage(<RevenueWithDefaultRange />, { seed: seedRevenue });
    const { chart, range } = chartOf(html, 'revenue-chart');
    expect(range).toBe('Time range: 30 days');
    expect(chart).toContain('Revenue (USD) 2 points from 2026-05-04 to 2026-05-05.');
  });
});

describe('a chosen period', () => {
  const tab = {
    hashrate: (period: ChartPeriod) => <MiningTab source={source} algorithm="scrypt" chartRange={fixed(period)} />,
    revenue: (period: ChartPeriod) => <RevenueTab source={source} algorithm="scrypt" chartRange={fixed(period)} />,
  };

  it.each([
    ['hashrate', '7d', 'Time range: 7 days', '3 points from 05-05 08:00 to 05-05 16:00.'],
    ['hashrate', '30d', 'Time range: 30 days', '2 points from 2026-05-04 to 2026-05-05.'],
    ['revenue', '24h', 'Time range: 24h', '2 points from 11:00 to 11:30.'],
    ['revenue', '7d', 'Time range: 7 days', '3 points from 05-05 08:00 to 05-05 16:00.'],
  ] as const)('the %s chart draws the answer of %s', (name, period, button, points) => {
    const html = renderPage(tab[name](period), {
      seed: (client) => {
        seedMining(client);
        seedRevenue(client);
      },
    });
    const { chart, range } = chartOf(html, `${name}-chart`);
    expect(range).toBe(button);
    expect(chart).toContain(points);
  });
});
