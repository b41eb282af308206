import type { DashboardView } from '../../../api/dashboard';
import { formatUsd } from '../../../lib/format';
import { type DashboardChartKind, useDashboardChart } from '../queries';
import { type ChartRange, ChartSection } from './ChartSection';

/** What each of the dashboard's charts is called and how it writes a value. */
const CHARTS: Record<DashboardChartKind, { title: string; what: string; formatValue: (value: number) => string }> = {
  hashrate: {
    title: 'Hashrate',
    what: 'hashrate chart',
    formatValue: (v) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  },
  revenue: { title: 'Revenue', what: 'revenue chart', formatValue: (v) => formatUsd(v) },
};

/**
 * One of the dashboard's charts over the page's chosen period (the Mining tab's hashrate, the Revenue tab's revenue),
 * test id `{chart}-chart`. A component of its own, so the chart's refreshes redraw only the chart.
 */
export function DashboardChart({
  chart,
  range,
  source,
  algorithm,
  timezone,
}: DashboardView & { chart: DashboardChartKind; range: ChartRange }) {
  const { title, what, formatValue } = CHARTS[chart];
  return (
    <ChartSection
      title={title}
      testId={`${chart}-chart`}
      what={what}
      chart={useDashboardChart(chart, source, algorithm, range.period, timezone)}
      range={range}
      formatValue={formatValue}
    />
  );
}
