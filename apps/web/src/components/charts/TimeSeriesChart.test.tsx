import { describe, expect, it } from 'vitest';
import { renderPage, textOf } from '../../testing/renderPage';
import { TimeSeriesChart } from './TimeSeriesChart';

/**
 * A chart's series starts at its first record (docs/decisions.md, Charts start at the first record): the API
 * answers fewer points for a pool or an account younger than the chart, and none before any record.
 */
const chart = (x: string[], values: number[]) =>
  textOf(
    renderPage(
      <TimeSeriesChart title="Hashrate (Mh/s)" x={x} series={[{ label: 'Hashrate (Mh/s)', values }]} testId="c" />,
    ),
  );

describe('TimeSeriesChart', () => {
  it('reads out a series that starts late from its first point, not from zeros before it', () => {
    const text = chart(['10:30', '11:00', '11:30', '12:00'], [65.536, 0, 0, 655.36]);
    expect(text).toContain('4 points from 10:30 to 12:00. Latest 655.36, highest 655.36.');
    expect(text).not.toContain('No data yet.');
  });

  it('says there is no data yet when the series has no points', () => {
    expect(chart([], [])).toContain('No data yet.');
  });
});
