import type { PoolProfitsResponse, ProfitPeriod } from '@lodestone/contract';
import { algorithmByName, pageOf } from '@lodestone/domain';
import { useState } from 'react';
import { usePoolProfits, useProfitChart } from '../../api/public';
import { AlgorithmPageHeader } from '../../components/AlgorithmPageHeader';
import { TimeSeriesChart } from '../../components/charts/TimeSeriesChart';
import { type Column, DataTable } from '../../components/DataTable';
import { LoadState } from '../../components/LoadState';
import { PayoutSchemes } from '../../components/PayoutSchemes';
import { Pager, Section } from '../../components/sections';
import { periodLabel, TimeRangeSelector } from '../../components/TimeRangeSelector';
import { browserTimeZone } from '../../lib/format';
import { safeExternalUrl } from '../../lib/links';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSelectedAlgorithm } from '../../state/hooks';
import { Calculator } from './Calculator';
import {
  COMPARISON_PAGE_SIZE,
  comparisonRows,
  DEFAULT_PERIOD,
  type Direction,
  formatComparison,
  formatProfitability,
} from './comparison';

/**
 * Profitability ('Mining Profitability'): the average-profit chart with its time range (default 30
 * days), the comparison table of that range, and the Mining Calculator, for the algorithm chosen in
 * the nav. Comparison rows are our own figure and other pools' published rates as the operator
 * entered them (docs/public-api.md); nothing here is estimated by the page.
 */
export default function ProfitabilityPage() {
  useDocumentTitle('Mining Profitability');
  const [algorithmName] = useSelectedAlgorithm();
  const algorithm = algorithmByName(algorithmName) ?? { key: 'scrypt' as const, name: 'SCRYPT' as const };
  const [period, setPeriod] = useState<ProfitPeriod>(DEFAULT_PERIOD);
  const [timezone] = useState(browserTimeZone);
  const profits = usePoolProfits(algorithm.key);

  return (
    <div className="mx-auto max-w-7xl space-y-8 px-4 py-12 sm:px-6" data-testid="profitability-page">
      <AlgorithmPageHeader title="Mining Profitability" algorithm={algorithm.name} testId="profitability-algorithm">
        : what the pool paid per unit of hashrate, next to other pools' published rates. Choose another algorithm in the
        menu bar.
      </AlgorithmPageHeader>

      <ProfitChart algorithmKey={algorithm.key} period={period} timezone={timezone} onPeriod={setPeriod} />

      <Section title={`Pool comparison (${periodLabel(period)})`} testId="comparison-section">
        {profits.data ? (
          <ComparisonTable key={`${algorithm.key}-${period}`} rows={comparisonRows(profits.data, period)} />
        ) : (
          <LoadState isPending={profits.isPending} error={profits.error} what="pool comparison" testId="comparison" />
        )}
      </Section>

      <PayoutSchemes algorithm={algorithm.key} section="How shares are valued" testId="profitability-schemes" />

      <Calculator key={algorithm.key} profits={profits.data} error={profits.error} />
    </div>
  );
}

function ProfitChart({
  algorithmKey,
  period,
  timezone,
  onPeriod,
}: {
  algorithmKey: Parameters<typeof useProfitChart>[0];
  period: ProfitPeriod;
  timezone: string;
  onPeriod: (period: ProfitPeriod) => void;
}) {
  const chart = useProfitChart(algorithmKey, period, timezone);
  return (
    <Section
      title="Average profit"
      testId="profit-chart-section"
      actions={<TimeRangeSelector value={period} onSelect={onPeriod} />}
    >
      {chart.data ? (
        <TimeSeriesChart
          testId="profit-chart"
          title={chart.data.label}
          x={chart.data.x_axis}
          series={[{ label: chart.data.label, values: chart.data.y_axis }]}
          formatValue={formatProfitPoint}
        />
      ) : (
        <LoadState isPending={chart.isPending} error={chart.error} what="profit chart" testId="profit-chart" />
      )}
    </Section>
  );
}

/** A point of the profit chart in the read-out: 5 decimals (docs/website.md, Figures), with thousands separators. */
function formatProfitPoint(value: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: 5, maximumFractionDigits: 5 });
}

const ARROWS: Record<Direction, { symbol: string; words: string; colour: string }> = {
  up: { symbol: '↑', words: 'higher than this pool', colour: 'text-green-700 dark:text-green-400' },
  down: { symbol: '↓', words: 'lower than this pool', colour: 'text-red-700 dark:text-red-400' },
  flat: { symbol: '→', words: 'same as this pool', colour: 'text-slate-600 dark:text-slate-300' },
};

type ComparisonRow = PoolProfitsResponse['profit_table_24h'][number];

/**
 * Pool Name, Pool URL, Profitability, Comparison. The URL is hidden on small screens (docs/website.md, Phones); on a
 * phone each pool is a card headed by its name.
 */
const COMPARISON_COLUMNS: readonly Column<ComparisonRow>[] = [
  { label: 'Pool Name', rowHeader: true, phone: 'primary', testId: 'pool-name', cell: ([name]) => name },
  {
    label: 'Pool URL',
    phone: 'hide',
    className: 'hidden sm:table-cell',
    testId: 'pool-url',
    cell: ([, url]) => <PoolLink url={url} />,
  },
  { label: 'Profitability', testId: 'profitability', cell: ([, , value, unit]) => formatProfitability(value, unit) },
  { label: 'Comparison', cell: ([, , , , percent]) => <ComparisonFigure percent={percent} /> },
];

function PoolLink({ url }: { url: string }) {
  const href = safeExternalUrl(url);
  if (!href) return url;
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="text-amber-700 hover:underline dark:text-amber-400"
    >
      {url}
    </a>
  );
}

/** The percent with its arrow: up (green) when the other pool published a higher rate than ours. */
function ComparisonFigure({ percent }: { percent: ComparisonRow[4] }) {
  const comparison = formatComparison(percent);
  const arrow = comparison.direction ? ARROWS[comparison.direction] : null;
  return (
    <span
      className={`font-semibold ${arrow?.colour ?? 'text-slate-500'}`}
      data-testid="comparison"
      data-direction={comparison.direction ?? undefined}
    >
      {arrow && (
        <span aria-hidden="true" className="mr-1">
          {arrow.symbol}
        </span>
      )}
      {comparison.text}
      {arrow && <span className="sr-only"> ({arrow.words})</span>}
    </span>
  );
}

function ComparisonTable({ rows }: { rows: PoolProfitsResponse['profit_table_24h'] }) {
  const [page, setPage] = useState(1);
  const view = pageOf(rows, COMPARISON_PAGE_SIZE, page);
  return (
    <>
      <DataTable
        testId="comparison-table"
        className=""
        caption="Profitability of this pool and of other pools, and how each compares with this pool."
        columns={COMPARISON_COLUMNS}
        rows={view.rows}
        rowKey={([name, url]) => `${name}-${url}`}
        rowTestId="comparison-row"
        empty="No profitability figures for this period yet."
      />
      <Pager window={view.window} onPage={setPage} testId="comparison-page" label="Pool comparison" />
    </>
  );
}
