import type { ChartResponse } from '@lodestone/contract';
import { QueryState, Section } from '../ui';
import { LineChart } from './LineChart';

/**
 * A titled card with one chart call's line chart, or its loading / error state. The section's test
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
        <LineChart
          label={chart.data.label}
          x={chart.data.x_axis}
          y={chart.data.y_axis}
          testId={testId}
          formatValue={formatValue}
        />
      ) : (
        <QueryState isPending={chart.isPending} error={chart.error} what={what} />
      )}
    </Section>
  );
}
