import type { PoolAlgorithmStats } from '@lodestone/contract';
import { ALGORITHMS, type Algorithm, fixed } from '@lodestone/domain';
import type { KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { POOL_STATS_REFRESH_MS, usePoolStats } from '../../api/queries';
import { AlgorithmLogo } from '../../components/AlgorithmLogo';
import { phoneCell, stackClasses } from '../../components/DataTable';
import { formatTimeOfDay } from '../../lib/dates';
import { setSelectedAlgorithm } from '../../state/hooks';

/** Spec 9: hashrate with 2 decimals, profit with 5. */
const HASHRATE_DECIMALS = 2;
const PROFIT_DECIMALS = 5;

const cell = 'px-2 py-3 whitespace-nowrap sm:px-4';
/** On a phone each algorithm is a card (the same cards as every table's, components/DataTable.tsx). */
const stack = stackClasses('sm');
const headerCell =
  'px-2 py-3 text-left text-xs sm:px-4 font-semibold sm:tracking-wider text-slate-500 uppercase dark:text-slate-400';

/**
 * The pool table (spec "Home"): one row per algorithm in spec order, refreshed every 30 s. A row
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
      <div
        className={`mt-6 overflow-x-auto rounded-xl border border-slate-200 shadow-sm dark:border-slate-800 ${stack.frame}`}
      >
        <table
          data-testid="pool-table"
          aria-busy={isPending}
          className={`min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800 ${stack.table}`}
        >
          <caption className="sr-only">
            Pool hashrate, miners and profitability per algorithm. Each row opens that algorithm's statistics.
          </caption>
          <thead className="bg-slate-50 dark:bg-slate-900">
            <tr>
              <th scope="col" className={headerCell}>
                Algorithm
              </th>
              <th scope="col" className={headerCell}>
                Hashrate
              </th>
              <th scope="col" className={headerCell}>
                Miners
              </th>
              <th scope="col" className={headerCell}>
                Profit / day
              </th>
              <th scope="col" className={`${headerCell} hidden md:table-cell`}>
                Average profit (24 h)
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200 bg-white @max-md:p-3 dark:divide-slate-800 dark:bg-slate-950">
            {ALGORITHMS.map((algorithm) => (
              <tr
                key={algorithm.key}
                data-testid={`pool-row-${algorithm.key}`}
                tabIndex={0}
                onClick={() => open(algorithm)}
                onKeyDown={(event) => onRowKeyDown(event, algorithm)}
                className="cursor-pointer text-slate-800 hover:bg-amber-50 focus-visible:bg-amber-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-amber-500 dark:text-slate-200 dark:hover:bg-slate-900 dark:focus-visible:bg-slate-900"
              >
                <th scope="row" className={`${cell} text-left font-semibold`} {...phoneCell('Algorithm', 'primary')}>
                  <span className="flex items-center gap-2 sm:gap-3">
                    <AlgorithmLogo algorithm={algorithm.name} className="size-5 sm:size-6" />
                    {algorithm.name}
                  </span>
                </th>
                <StatsCells stats={data?.[algorithm.key]} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The four figures of one row; a dash until (or unless) there is data. */
function StatsCells({ stats }: { stats: PoolAlgorithmStats | undefined }) {
  // One element: on a phone the cell is a flex line, and the figure and its unit must stay together.
  const withUnits = (value: string, units: string) => (
    <span>
      {value} <span className="text-slate-500 dark:text-slate-400">{units}</span>
    </span>
  );
  return (
    <>
      <td data-testid="hashrate" className={`${cell} tabular-nums`} {...phoneCell('Hashrate')}>
        {stats ? withUnits(fixed(stats.hashrate, HASHRATE_DECIMALS), stats.hashrate_units) : '—'}
      </td>
      <td data-testid="miners" className={`${cell} tabular-nums`} {...phoneCell('Miners')}>
        {stats ? stats.miners.toLocaleString('en-US') : '—'}
      </td>
      <td data-testid="profit" className={`${cell} tabular-nums`} {...phoneCell('Profit / day')}>
        {stats ? withUnits(fixed(stats.profit, PROFIT_DECIMALS), stats.profit_units) : '—'}
      </td>
      <td
        data-testid="profit-avg"
        className={`${cell} hidden tabular-nums md:table-cell`}
        {...phoneCell('Average profit (24 h)', 'hide')}
      >
        {stats ? withUnits(fixed(stats.profit_avg, PROFIT_DECIMALS), stats.profit_units) : '—'}
      </td>
    </>
  );
}
