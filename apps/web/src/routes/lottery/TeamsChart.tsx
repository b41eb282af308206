import { TimeSeriesChart } from '../../components/charts/TimeSeriesChart';
import { DataTable } from '../../components/DataTable';
import type { GraphSeries } from './sampleData';

/**
 * Mined blocks per day, one line per team, on the site's time-series chart (the y-axis reaches the
 * highest value + 30%, docs/website.md, Figures). The figures are also listed in a table for screen readers, since
 * three lines are long to read out point by point.
 */
export function TeamsChart({ series }: { series: readonly GraphSeries[] }) {
  const days = series[0]?.points.map((p) => p.day) ?? [];
  return (
    <div data-testid="lottery-graph">
      <TimeSeriesChart
        title="Mined blocks per day"
        testId="lottery-chart"
        x={days}
        series={series.map((s) => ({ label: s.name, values: s.points.map((p) => p.minedBlocks) }))}
        formatValue={(v) => v.toLocaleString('en-US')}
        height={260}
      />
      <DataTable
        caption="Mined blocks per day and team"
        columns={[
          { label: 'Day', rowHeader: true, cell: (d: number) => days[d] },
          ...series.map((s) => ({ label: s.name, cell: (d: number) => s.points[d]?.minedBlocks ?? 0 })),
        ]}
        rows={days.map((_, d) => d)}
        rowKey={(d) => days[d] ?? d}
        className="sr-only"
        stackBelow={false}
      />
    </div>
  );
}
