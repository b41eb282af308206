import type { ChartResponse } from '@lodestone/contract';
import { TimeSeriesChart } from '../../../components/charts/TimeSeriesChart';
import { LoadState } from '../../../components/LoadState';
import { Section } from '../../../components/sections';
import { DASHBOARD_RETRY } from '../queries';

/**
 * A titled card with one chart call's time-series chart, or its loading / error state. The section's test
 * id is `{testId}-section`, the chart's `{testId}`.
 */
export function ChartSection({
  title,
  testId,
  what,
  chart,
  formatValue,
}: {
  title: string;
  testId: string;
  /** What the loading and error states name ("hashrate chart"). */
  what: string;
  chart: { data: ChartResponse | undefined; isPending: boolean; error: Error | null };
  formatValue: (value: number) => string;
}) {
  return (
    <Section title={title} testId={`${testId}-section`}>
      {chart.data ? (
        <TimeSeriesChart
          title={chart.data.label}
          x={chart.data.x_axis}
          series={[{ label: chart.data.label, values: chart.data.y_axis }]}
          testId={testId}
          formatValue={formatValue}
        />
      ) : (
        <LoadState retry={DASHBOARD_RETRY} isPending={chart.isPending} error={chart.error} what={what} />
      )}
    </Section>
  );
}
