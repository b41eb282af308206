import { useEffect, useRef, useState } from 'react';
import { chartPoints, labelIndexes, linePath, yAxisMax } from '../dashboard/charts/chart';
import { YGrid } from '../dashboard/charts/LineChart';
import type { GraphSeries } from './sampleData';

const HEIGHT = 260;
const MARGIN = { top: 12, right: 16, bottom: 28, left: 40 };
const COLOURS = ['stroke-amber-500', 'stroke-sky-500', 'stroke-rose-500'] as const;
const SWATCHES = ['bg-amber-500', 'bg-sky-500', 'bg-rose-500'] as const;

/**
 * Mined blocks per day, one line per team, drawn with the dashboard chart's geometry (the y-axis
 * reaches the highest value + 30%, spec 9). The figures are also listed in a table for screen
 * readers, since three lines cannot be read out point by point.
 */
export function TeamsChart({ series }: { series: readonly GraphSeries[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(240, Math.floor(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const days = series[0]?.points.map((p) => p.day) ?? [];
  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const max = yAxisMax(series.flatMap((s) => s.points.map((p) => p.minedBlocks)));
  const firstPoints = chartPoints(
    days.map(() => 0),
    innerWidth,
    innerHeight,
    max,
  );

  return (
    <figure data-testid="lottery-graph">
      <figcaption className="text-sm font-semibold text-slate-700 dark:text-slate-300">Mined blocks per day</figcaption>
      <ul className="mt-2 flex flex-wrap gap-4 text-sm text-slate-700 dark:text-slate-300">
        {series.map((s, i) => (
          <li key={s.name} className="flex items-center gap-2">
            <span aria-hidden="true" className={`h-1 w-5 rounded ${SWATCHES[i % SWATCHES.length]}`} />
            {s.name}
          </li>
        ))}
      </ul>
      <div ref={box} className="mt-2">
        <svg width={width} height={HEIGHT} aria-hidden="true" className="block max-w-full">
          <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
            <YGrid max={max} innerWidth={innerWidth} innerHeight={innerHeight} />
            {labelIndexes(days.length, Math.max(2, Math.floor(innerWidth / 64))).map((i) => (
              <text
                key={i}
                x={firstPoints[i]?.x ?? 0}
                y={innerHeight + 18}
                textAnchor={i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle'}
                className="fill-slate-500 text-[11px] dark:fill-slate-400"
              >
                {days[i]}
              </text>
            ))}
            {series.map((s, i) => (
              <path
                key={s.name}
                d={linePath(
                  chartPoints(
                    s.points.map((p) => p.minedBlocks),
                    innerWidth,
                    innerHeight,
                    max,
                  ),
                )}
                fill="none"
                strokeWidth={2}
                className={COLOURS[i % COLOURS.length]}
              />
            ))}
          </g>
        </svg>
      </div>
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
    </figure>
  );
}
