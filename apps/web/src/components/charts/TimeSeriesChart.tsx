import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './timeSeriesChart.css';
import { useTheme } from '../../state/theme';
import { labelIndexes, yAxisMax, yTickLabels } from './axis';

/**
 * Every time-series chart of the site (pool hashrate, average profit, the dashboard's hashrate and
 * revenue, the lottery's teams): uPlot on a canvas, at its container's width (followed with a
 * ResizeObserver, down to a 375 px phone). The y-axis reaches the highest value + 30% (docs/website.md, Figures); its
 * labels are scaled by thousands ('15 G') and the axis is as wide as its widest label, so no label
 * is ever cut. Pointer hover, or ←/→ on the focused chart, reads out one point: its x label and
 * every series' value; screen readers get the title, the latest and the highest value. The canvas
 * is drawn in the theme's colours (timeSeriesChart.css) and again when the theme changes.
 */
export interface ChartSeries {
  /** The series' name with its unit, as the read-out shows it ('AVG Profit (BTC/TH/s)'). */
  label: string;
  values: readonly number[];
}

/** The series' line colours in order (Tailwind amber-500, sky-500, rose-500): clear on both themes. */
const SERIES_COLOURS = ['#f59e0b', '#0ea5e9', '#f43f5e'] as const;
const FONT_SIZE = 11;
/** Tick length and the gap between a tick and its label, CSS px. */
const TICK = 4;
const GAP = 6;
/** Breathing room between a label and the canvas edge, CSS px. */
const EDGE = 4;
const X_AXIS_HEIGHT = 28;

const defaultFormat = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });

let measuringContext: CanvasRenderingContext2D | null = null;
/** The width of `text` drawn in `font`, CSS px. */
function textWidth(text: string, font: string): number {
  measuringContext ??= document.createElement('canvas').getContext('2d');
  if (!measuringContext) return text.length * FONT_SIZE;
  measuringContext.font = font;
  return measuringContext.measureText(text).width;
}

export function TimeSeriesChart({
  title,
  x,
  series,
  testId,
  formatValue = defaultFormat,
  height = 240,
  busy = false,
}: {
  /** The caption above the chart; for one series, its label (it names the unit). */
  title: string;
  /** The x label of each point ('14:30', '2025-06-15'). */
  x: readonly string[];
  series: readonly ChartSeries[];
  testId?: string;
  /** A value as the read-out writes it (the figure's precision, docs/website.md, Figures). */
  formatValue?: (value: number) => string;
  height?: number;
  /** What is drawn is the last answer while the next one loads (another period): marked busy and faded. */
  busy?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [active, setActive] = useState<number | null>(null);
  const [theme] = useTheme();
  const titleId = useId();
  // The chart is drawn again only when what it shows changes, not on every render of its page.
  const dataKey = JSON.stringify({ x, series: series.map((s) => [s.label, s.values]) });

  // biome-ignore lint/correctness/useExhaustiveDependencies: the theme's colours are read from CSS variables (getComputedStyle), which React cannot see; the theme is a dependency so the canvas is drawn again in them.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const data = JSON.parse(dataKey) as { x: string[]; series: [string, (number | null)[]][] };
    const labels = data.x;
    const style = getComputedStyle(element);
    const colour = (name: string) => style.getPropertyValue(name).trim();
    const font = `${FONT_SIZE}px ${style.fontFamily}`;
    const axisColour = colour('--ls-chart-axis');
    const gridColour = colour('--ls-chart-grid');
    const xLabelWidth = Math.max(0, ...labels.map((label) => textWidth(label, font)));
    const lastHalf = textWidth(labels.at(-1) ?? '', font) / 2;
    const top = yAxisMax(data.series.flatMap(([, values]) => values.map((v) => v ?? 0)));
    const widthOf = () => Math.max(1, Math.floor(element.clientWidth));
    const rightPadding = Math.ceil(lastHalf + EDGE);
    // The y-axis's width as last measured, to know the plot's width when the x labels are picked.
    let yAxisWidth = 40;

    const options: uPlot.Options = {
      width: widthOf(),
      height,
      // Room on the right for half the last x label, which is centred on the last point.
      padding: [12, rightPadding, 0, 0],
      legend: { show: false },
      cursor: {
        y: false,
        drag: { x: false, y: false, setScale: false },
        points: { size: 8, width: 2, stroke: colour('--ls-chart-ring') },
      },
      scales: {
        x: { time: false, range: () => (labels.length > 1 ? [0, labels.length - 1] : [-1, 1]) },
        y: { range: () => [0, top] },
      },
      axes: [
        {
          font,
          stroke: axisColour,
          size: X_AXIS_HEIGHT,
          gap: GAP,
          grid: { show: false },
          ticks: { stroke: gridColour, width: 1, size: TICK },
          // Only whole points get a label, as many as fit side by side without touching.
          splits: (u) =>
            labelIndexes(labels.length, Math.floor((u.width - yAxisWidth - rightPadding) / (xLabelWidth + 24))),
          values: (_u, splits) => splits.map((i) => labels[i] ?? ''),
        },
        {
          font,
          stroke: axisColour,
          gap: GAP,
          grid: { stroke: gridColour, width: 1, dash: [3, 3] },
          ticks: { show: false },
          values: (_u, splits) => yTickLabels(splits),
          // As wide as the widest label (and half the widest x label, which may sit on the first point).
          size: (_u, values) => {
            yAxisWidth = Math.ceil(
              Math.max(xLabelWidth / 2, ...(values ?? []).map((v) => textWidth(v, font))) + GAP + EDGE,
            );
            return yAxisWidth;
          },
        },
      ],
      series: [
        {},
        ...data.series.map(([label], i) => ({
          label,
          stroke: SERIES_COLOURS[i % SERIES_COLOURS.length],
          width: 2,
          // A lone point has no line to show it; otherwise the line is enough (hover marks the point).
          points: { show: labels.length === 1 },
          ...(data.series.length === 1 ? { fill: colour('--ls-chart-fill') } : {}),
        })),
      ],
      hooks: { setCursor: [(u) => setActive(u.cursor.idx ?? null)] },
    };
    const u = new uPlot(
      options,
      [labels.map((_, i) => i), ...data.series.map(([, values]) => values)] as uPlot.AlignedData,
      element,
    );
    plot.current = u;
    const observer = new ResizeObserver(() => {
      if (u.width !== widthOf()) u.setSize({ width: widthOf(), height });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      u.destroy();
      plot.current = null;
      setActive(null);
    };
  }, [dataKey, height, theme]);

  const length = x.length;
  const values = series[0]?.values ?? [];
  const latest = values.at(-1);
  const highest = values.length > 0 ? Math.max(...values) : undefined;
  const shown = active ?? Math.max(0, length - 1);
  const readout = (index: number) => series.map((s) => `${s.label}: ${formatValue(s.values[index] ?? 0)}`);

  const moveTo = (index: number | null) => {
    const u = plot.current;
    if (!u) return;
    if (index === null) {
      u.setCursor({ left: -10, top: -10 });
      return;
    }
    const top = Math.max(...series.map((s) => s.values[index] ?? 0));
    u.setCursor({ left: u.valToPos(index, 'x'), top: u.valToPos(top, 'y') });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (length === 0) return;
    const last = length - 1;
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
    moveTo(next);
  };

  return (
    <figure
      data-testid={testId}
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      className={`ls-chart min-w-0 transition-opacity ${busy ? 'opacity-60' : ''}`}
    >
      <figcaption id={titleId} className="text-sm font-semibold text-slate-700 dark:text-slate-300">
        {title}
      </figcaption>
      {series.length > 1 && (
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700 dark:text-slate-300">
          {series.map((s, i) => (
            <li key={s.label} className="flex items-center gap-2">
              <span
                aria-hidden="true"
                className="h-1 w-5 rounded"
                style={{ backgroundColor: SERIES_COLOURS[i % SERIES_COLOURS.length] }}
              />
              {s.label}
            </li>
          ))}
        </ul>
      )}
      <p className="sr-only">
        {length === 0
          ? 'No data yet.'
          : series.length === 1
            ? `${length} points from ${x[0]} to ${x.at(-1)}. Latest ${formatValue(latest ?? 0)}, highest ${formatValue(highest ?? 0)}. Use the arrow keys on the chart to read each point.`
            : `${length} points from ${x[0]} to ${x.at(-1)}. Use the arrow keys on the chart to read each point.`}
      </p>
      <div
        // The arrow keys move along the points like a slider over them, and say which point is read.
        role="slider"
        aria-label={`${title}: use the arrow keys to read each point`}
        aria-valuemin={0}
        aria-valuemax={Math.max(0, length - 1)}
        aria-valuenow={shown}
        aria-valuetext={length === 0 ? 'No data' : `${x[shown] ?? ''}: ${readout(shown).join(', ')}`}
        tabIndex={length > 0 ? 0 : -1}
        onKeyDown={onKeyDown}
        onBlur={() => moveTo(null)}
        className="relative mt-2 rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500"
      >
        <div ref={box} data-testid={testId ? `${testId}-plot` : undefined} className="w-full min-w-0 overflow-hidden" />
        {length === 0 && (
          <p className="absolute inset-0 flex items-center justify-center text-sm text-slate-500 dark:text-slate-400">
            No data yet.
          </p>
        )}
        {/* Seen by pointer users; screen readers hear the same through the slider's value text. */}
        <div
          aria-hidden="true"
          data-testid={testId ? `${testId}-readout` : undefined}
          className={`pointer-events-none absolute top-1 right-2 max-w-[calc(100%-1rem)] rounded-md bg-white/90 px-2 py-1 text-xs text-slate-700 tabular-nums shadow-sm dark:bg-slate-800/90 dark:text-slate-200 ${
            active === null ? 'hidden' : ''
          }`}
        >
          {active !== null && (
            <>
              <p className="font-semibold">{x[active] ?? ''}</p>
              {readout(active).map((line) => (
                <p key={line}>{line}</p>
              ))}
            </>
          )}
        </div>
      </div>
    </figure>
  );
}
