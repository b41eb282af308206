import type { ChartPeriod, ChartResponse } from '@lodestone/contract';
import { useState } from 'react';
import { TimeSeriesChart } from '../../../components/charts/TimeSeriesChart';
import { LoadState } from '../../../components/LoadState';
import { Section } from '../../../components/sections';
import { TimeRangeSelector } from '../../../components/TimeRangeSelector';
import { DASHBOARD_RETRY } from '../queries';

/** A chart's chosen period and how the time-range selector changes it. */
export interface ChartRange {
  period: ChartPeriod;
  onPeriod: (period: ChartPeriod) => void;
}

/** The ranges of a dashboard's two charts. */
export interface ChartRanges {
  hashrate: ChartRange;
  revenue: ChartRange;
}

/**
 * The periods of a dashboard's two charts (docs/dashboard.md, Chart ranges), each starting at what the chart showed
 * before ranges existed: 24 hours of hashrate, 30 days of revenue. Held by the page, so they outlive a change of tab
 * (which mounts the tab afresh) or of account, and never stored: the next visit starts at the defaults.
 */
export function useChartRanges(): ChartRanges {
  const [hashrate, setHashrate] = useState<ChartPeriod>('24h');
  const [revenue, setRevenue] = useState<ChartPeriod>('30d');
  return {
    hashrate: { period: hashrate, onPeriod: setHashrate },
    revenue: { period: revenue, onPeriod: setRevenue },
  };
}

/**
 * A titled card with one chart call's time-series chart, or its loading / error state, and the time-range selector
 * of its period. While another period loads, the last chart stays, marked busy. The section's test id is
 * `{testId}-section`, the chart's `{testId}`.
 */
export function ChartSection({
  title,
  testId,
  what,
  chart,
  range,
  periods,
  formatValue,
}: {
  title: string;
  testId: string;
  /** What the loading and error states name ("hashrate chart"). */
  what: string;
  chart: { data: ChartResponse | undefined; isPending: boolean; isPlaceholderData: boolean; error: Error | null };
  range: ChartRange;
  /** The periods the selector offers, when fewer than all three. */
  periods?: readonly ChartPeriod[];
  formatValue: (value: number) => string;
}) {
  return (
    <Section
      title={title}
      testId={`${testId}-section`}
      actions={<TimeRangeSelector value={range.period} onSelect={range.onPeriod} periods={periods} />}
    >
      {chart.data ? (
        <TimeSeriesChart
          title={chart.data.label}
          x={chart.data.x_axis}
          series={[{ label: chart.data.label, values: chart.data.y_axis }]}
          testId={testId}
          formatValue={formatValue}
          busy={chart.isPlaceholderData}
        />
      ) : (
        <LoadState retry={DASHBOARD_RETRY} isPending={chart.isPending} error={chart.error} what={what} />
      )}
    </Section>
  );
}
