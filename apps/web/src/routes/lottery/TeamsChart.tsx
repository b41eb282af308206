import { TimeSeriesChart } from '../../components/charts/TimeSeriesChart';
import type { GraphSeries } from './sampleData';

/**
 * Mined blocks per day, one line per team, on the site's time-series chart (the y-axis reaches the
 * highest value + 30%, spec 9). The figures are also listed in a table for screen readers, since
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
      <table className="sr-only">
        <caption>Mined blocks per day and team</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {series.map((s) => (
              <th key={s.name} scope="col">
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((day, d) => (
            <tr key={day}>
              <th scope="row">{day}</th>
              {series.map((s) => (
                <td key={s.name}>{s.points[d]?.minedBlocks ?? 0}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
