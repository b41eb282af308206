import { type KeyboardEvent, type PointerEvent, useEffect, useId, useRef, useState } from 'react';
import { areaPath, chartPoints, formatTick, labelIndexes, linePath, nearestIndex, yAxisMax, yTicks } from './chart';

/**
 * A line chart drawn as plain SVG: the site has no chart library, and two small line charts do not
 * justify one (every script must also pass the strict CSP, no inline styles from a library). The
 * y-axis reaches the highest value + 30% (spec 9). Pointer hover or ←/→ on the focused chart reads
 * out one point; screen readers get the label, the latest and the highest value.
 */
const HEIGHT = 240;
const MARGIN = { top: 12, right: 16, bottom: 28, left: 64 };
/** Room one x label needs (a date, "2025-06-15"), so labels never overlap on a phone. */
const LABEL_SPACING = 96;

export function LineChart({
  label,
  x,
  y,
  testId,
  formatValue = (v) => v.toLocaleString('en-US', { maximumFractionDigits: 2 }),
}: {
  label: string;
  x: readonly string[];
  y: readonly number[];
  testId?: string;
  formatValue?: (value: number) => string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  const [active, setActive] = useState<number | null>(null);
  const titleId = useId();

  // Draw at the container's real width so text never stretches; follow resizes (phones rotate).
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(240, Math.floor(element.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const max = yAxisMax(y);
  const points = chartPoints(y, innerWidth, innerHeight, max);
  const activePoint = active === null ? undefined : points[active];
  const latest = y.at(-1);
  const highest = y.length > 0 ? Math.max(...y) : undefined;

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    if (y.length === 0) return;
    const rect = event.currentTarget.getBoundingClientRect();
    setActive(nearestIndex(event.clientX - rect.left - MARGIN.left, innerWidth, y.length));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (y.length === 0) return;
    const last = y.length - 1;
    const current = active ?? last;
    const next =
      event.key === 'ArrowLeft'
        ? Math.max(0, current - 1)
        : event.key === 'ArrowRight'
          ? Math.min(last, current + 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setActive(next);
  };

  return (
    <figure data-testid={testId} aria-labelledby={titleId} className="min-w-0">
      <figcaption id={titleId} className="text-sm font-semibold text-slate-700 dark:text-slate-300">
        {label}
      </figcaption>
      <p className="sr-only">
        {y.length === 0
          ? 'No data yet.'
          : `${y.length} points from ${x[0]} to ${x.at(-1)}. Latest ${formatValue(latest ?? 0)}, highest ${formatValue(highest ?? 0)}. Use the arrow keys on the chart to read each point.`}
      </p>
      <div
        ref={box}
        // The arrow keys move along the points like a slider over them, and say which point is read.
        role="slider"
        aria-label={`${label}: use the arrow keys to read each point`}
        aria-valuemin={0}
        aria-valuemax={Math.max(0, y.length - 1)}
        aria-valuenow={active ?? Math.max(0, y.length - 1)}
        aria-valuetext={
          y.length === 0
            ? 'No data'
            : `${x[active ?? y.length - 1] ?? ''}: ${formatValue(y[active ?? y.length - 1] ?? 0)}`
        }
        tabIndex={y.length > 0 ? 0 : -1}
        onKeyDown={onKeyDown}
        onBlur={() => setActive(null)}
        className="relative mt-2 rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500"
      >
        <svg
          width={width}
          height={HEIGHT}
          role="presentation"
          className="block max-w-full touch-pan-y select-none"
          onPointerMove={onPointerMove}
          onPointerLeave={() => setActive(null)}
        >
          <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
            <YGrid max={max} innerWidth={innerWidth} innerHeight={innerHeight} />
            {labelIndexes(x.length, Math.max(2, Math.floor(innerWidth / LABEL_SPACING))).map((i) => (
              <text
                key={i}
                x={points[i]?.x ?? 0}
                y={innerHeight + 18}
                textAnchor={i === 0 ? 'start' : i === x.length - 1 ? 'end' : 'middle'}
                className="fill-slate-500 text-[11px] dark:fill-slate-400"
              >
                {x[i]}
              </text>
            ))}
            {points.length > 0 && (
              <>
                <path d={areaPath(points, innerHeight)} className="fill-amber-500/15 stroke-none" />
                <path d={linePath(points)} fill="none" strokeWidth={2} className="stroke-amber-500" />
              </>
            )}
            {activePoint && (
              <>
                <line
                  x1={activePoint.x}
                  x2={activePoint.x}
                  y1={0}
                  y2={innerHeight}
                  className="stroke-slate-400 dark:stroke-slate-500"
                />
                <circle
                  cx={activePoint.x}
                  cy={activePoint.y}
                  r={4}
                  className="fill-amber-500 stroke-white dark:stroke-slate-900"
                />
              </>
            )}
          </g>
        </svg>
        {y.length === 0 && (
          <p className="absolute inset-0 flex items-center justify-center text-sm text-slate-500 dark:text-slate-400">
            No data yet.
          </p>
        )}
        {/* Seen by pointer users; screen readers hear the same through the slider's value text. */}
        <p
          aria-hidden="true"
          data-testid={testId ? `${testId}-readout` : undefined}
          className={`pointer-events-none absolute top-1 right-2 rounded-md bg-white/90 px-2 py-1 text-xs text-slate-700 shadow-sm dark:bg-slate-800/90 dark:text-slate-200 ${
            active === null ? 'hidden' : ''
          }`}
        >
          {active !== null && `${x[active] ?? ''}: ${formatValue(y[active] ?? 0)}`}
        </p>
      </div>
    </figure>
  );
}

/** The horizontal grid lines and y-axis labels every line chart of the site draws. */
export function YGrid({ max, innerWidth, innerHeight }: { max: number; innerWidth: number; innerHeight: number }) {
  return (
    <>
      {yTicks(max).map((tick) => {
        const ty = innerHeight - (tick / max) * innerHeight;
        return (
          <g key={tick}>
            <line
              x1={0}
              x2={innerWidth}
              y1={ty}
              y2={ty}
              className="stroke-slate-200 dark:stroke-slate-800"
              strokeDasharray={tick === 0 ? undefined : '3 3'}
            />
            <text
              x={-8}
              y={ty}
              dy="0.32em"
              textAnchor="end"
              className="fill-slate-500 text-[11px] tabular-nums dark:fill-slate-400"
            >
              {formatTick(tick, max)}
            </text>
          </g>
        );
      })}
    </>
  );
}
