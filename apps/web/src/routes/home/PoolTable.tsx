import type { PoolAlgorithmStats, PoolStatsResponse } from '@lodestone/contract';
import { ALGORITHMS, type Algorithm, fixed } from '@lodestone/domain';
import type { KeyboardEvent, ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { POOL_STATS_REFRESH_MS, usePoolStats } from '../../api/queries';
import { AlgorithmLogo } from '../../components/AlgorithmLogo';
import { type Column, DataTable } from '../../components/DataTable';
import { formatTimeOfDay } from '../../lib/dates';
import { setSelectedAlgorithm } from '../../state/hooks';

/** Hashrate with 2 decimals, profit with 5 (docs/website.md, Figures). */
const HASHRATE_DECIMALS = 2;
const PROFIT_DECIMALS = 5;

/** Roomier than the other tables: the home page shows only this one. On a phone each algorithm is a card. */
const CELL = 'px-2 py-3 whitespace-nowrap tabular-nums sm:px-4';
const HEADER_CELL =
  'px-2 py-3 text-left text-xs sm:px-4 font-semibold sm:tracking-wider text-slate-500 uppercase dark:text-slate-400';
const ROW_CLASS =
  'cursor-pointer text-slate-800 hover:bg-amber-50 focus-visible:bg-amber-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-amber-500 dark:text-slate-200 dark:hover:bg-slate-900 dark:focus-visible:bg-slate-900';

/**
 * The pool table (docs/website.md, Home): one row per algorithm in the usual order, refreshed every 30 s. A row
 * (click, or Enter/Space when focused) selects its algorithm and opens the statistics page.
 */
export function PoolTable() {
  const { data, error, isPending, isError, dataUpdatedAt } = usePoolStats();
  const navigate = useNavigate();

  const open = (algorithm: Algorithm) => {
    setSelectedAlgorithm(algorithm.name);
    navigate('/stats');
  };

  const onRowKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, algorithm: Algorithm) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      open(algorithm);
    }
  };

  const refreshSeconds = POOL_STATS_REFRESH_MS / 1000;
  const reason = error?.message.replace(/\.$/, '');
  let status: string;
  if (isPending) status = 'Loading pool statistics…';
  else if (isError && data)
    status = `The last update failed: ${reason}. Showing the figures from ${formatTimeOfDay(dataUpdatedAt)}; trying again every ${refreshSeconds} seconds.`;
  else if (isError)
    status = `Pool statistics could not be loaded: ${reason}. Trying again every ${refreshSeconds} seconds.`;
  else status = `Updated every ${refreshSeconds} seconds. Select an algorithm for its detailed statistics.`;

  return (
    <section
      id="pool-stats"
      aria-labelledby="pool-stats-title"
      className="mx-auto max-w-7xl scroll-mt-20 px-4 py-16 sm:px-6"
    >
      <h2
        id="pool-stats-title"
        className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white"
      >
        Pool statistics
      </h2>
      <p
        role={isError ? 'alert' : 'status'}
        className={`mt-2 text-sm ${isError ? 'text-red-700 dark:text-red-400' : 'text-slate-600 dark:text-slate-400'}`}
      >
        {status}
      </p>
      <DataTable
        testId="pool-table"
        busy={isPending}
        caption="Pool hashrate, miners and profitability per algorithm. Each row opens that algorithm's statistics."
        columns={columns(data)}
        rows={ALGORITHMS}
        rowKey={(algorithm) => algorithm.key}
        rowTestId={(algorithm) => `pool-row-${algorithm.key}`}
        rowProps={(algorithm) => ({
          tabIndex: 0,
          onClick: () => open(algorithm),
          onKeyDown: (event) => onRowKeyDown(event, algorithm),
          className: ROW_CLASS,
        })}
        className="mt-6 rounded-xl border border-slate-200 shadow-sm dark:border-slate-800"
        headClassName="bg-slate-50 dark:bg-slate-900"
        bodyClassName="divide-y divide-slate-200 bg-white @max-md:p-3 dark:divide-slate-800 dark:bg-slate-950"
        headerCellClassName={HEADER_CELL}
        cellClassName={CELL}
        stackBelow="sm"
      />
    </section>
  );
}

/** One element: on a phone the cell is a flex line, and the figure and its unit must stay together. */
function withUnits(value: string, units: string) {
  return (
    <span>
      {value} <span className="text-slate-500 dark:text-slate-400">{units}</span>
    </span>
  );
}

/** The algorithm and its four figures; a dash until (or unless) there is data. */
function columns(data: PoolStatsResponse | undefined): Column<Algorithm>[] {
  const figure = (algorithm: Algorithm, show: (stats: PoolAlgorithmStats) => ReactNode) => {
    const stats = data?.[algorithm.key];
    return stats ? show(stats) : '—';
  };
  return [
    {
      label: 'Algorithm',
      rowHeader: true,
      phone: 'primary',
      cell: (algorithm) => (
        <span className="flex items-center gap-2 sm:gap-3">
          <AlgorithmLogo algorithm={algorithm.name} className="size-5 sm:size-6" />
          {algorithm.name}
        </span>
      ),
    },
    {
      label: 'Hashrate',
      testId: 'hashrate',
      cell: (a) => figure(a, (s) => withUnits(fixed(s.hashrate, HASHRATE_DECIMALS), s.hashrate_units)),
    },
    { label: 'Miners', testId: 'miners', cell: (a) => figure(a, (s) => s.miners.toLocaleString('en-US')) },
    {
      label: 'Profit / day',
      testId: 'profit',
      cell: (a) => figure(a, (s) => withUnits(fixed(s.profit, PROFIT_DECIMALS), s.profit_units)),
    },
    {
      label: 'Average profit (24 h)',
      testId: 'profit-avg',
      phone: 'hide',
      className: 'hidden md:table-cell',
      cell: (a) => figure(a, (s) => withUnits(fixed(s.profit_avg, PROFIT_DECIMALS), s.profit_units)),
    },
  ];
}
