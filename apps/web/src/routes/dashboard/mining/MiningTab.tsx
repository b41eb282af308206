import type { MiningWorker } from '@lodestone/contract';
import type { AlgorithmKey } from '@lodestone/domain';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { type DashboardSource, removeOfflineWorkers, removeWorker } from '../../../api/dashboard';
import { serverErrorText } from '../../../api/errors';
import { FormMessage, inputClass, primaryButtonClass, secondaryButtonClass } from '../../../components/form';
import { TrashIcon } from '../../../components/icons';
import { ChartSection } from '../charts/ChartSection';
import { browserTimeZone, formatHashrate, formatUsd, rejectedPercent } from '../format';
import { SearchIcon, SortIcon } from '../icons';
import { MESSAGES } from '../messages';
import { useMiningChart, useMiningSummary, useWorkers } from '../queries';
import { cellClass, EmptyRow, headerCellClass, Pager, QueryState, Section, StatCard, tableClass } from '../ui';
import { nextSort, type SortColumn, type SortState, workersView } from './workers';

/** What only the miner may do on this tab; the observer dashboard passes none (read-only). */
export interface MiningActions {
  account: string;
  setUpWorkers: () => void;
}

/**
 * The Mining tab (spec "Dashboard"): four cards, the hashrate chart, Search, 'Remove Offline
 * Workers' and the workers table. Figures are the server's; the page only formats, sorts and pages.
 */
export function MiningTab({
  source,
  algorithm,
  actions,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  actions?: MiningActions;
}) {
  const [timezone] = useState(browserTimeZone);
  return (
    <div className="space-y-6">
      <SummaryCards source={source} algorithm={algorithm} />
      <HashrateChart source={source} algorithm={algorithm} timezone={timezone} />
      <Workers source={source} algorithm={algorithm} actions={actions} />
    </div>
  );
}

function SummaryCards({ source, algorithm }: { source: DashboardSource; algorithm: AlgorithmKey }) {
  const summary = useMiningSummary(source, algorithm);
  const data = summary.data;
  if (!data) return <QueryState isPending={summary.isPending} error={summary.error} what="mining summary" />;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" data-testid="mining-cards">
      <StatCard
        label="Current Hashrate"
        testId="card-hashrate"
        value={formatHashrate(data.hashrate, data.hashrate_units)}
      />
      <StatCard
        label="Average Hashrate"
        testId="card-hashrate-avg"
        value={formatHashrate(data.hashrate_avg, data.hashrate_avg_units)}
      />
      <StatCard label="Active Workers" testId="card-workers" value={`${data.active_workers} / ${data.total_workers}`} />
      <StatCard label="Estimated 24h revenue" testId="card-revenue" value={formatUsd(data.estimated_revenue)} />
    </dl>
  );
}

function HashrateChart({
  source,
  algorithm,
  timezone,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  timezone: string;
}) {
  return (
    <ChartSection
      title="Hashrate"
      testId="hashrate-chart"
      what="hashrate chart"
      chart={useMiningChart(source, algorithm, timezone)}
      formatValue={(v) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}
    />
  );
}

const COLUMNS: { column: SortColumn; label: string }[] = [
  { column: 'name', label: 'Name' },
  { column: 'hashrate', label: 'Current Hashrate' },
  { column: 'hashrate_avg', label: 'Average Hashrate' },
  { column: 'accepted', label: 'Accepted Shares' },
];

function Workers({
  source,
  algorithm,
  actions,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  actions: MiningActions | undefined;
}) {
  const workers = useWorkers(source, algorithm);
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState | null>(null);
  const [page, setPage] = useState(1);
  const searchId = useId();

  // Spec 4: worker removal and offline-worker removal are followed by a full page reload.
  const removeOffline = useMutation({
    mutationFn: () => removeOfflineWorkers(actions?.account ?? '', algorithm),
    onSuccess: () => window.location.reload(),
  });
  const removeOne = useMutation({
    mutationFn: (id: string) => removeWorker(actions?.account ?? '', algorithm, id),
    onSuccess: () => window.location.reload(),
  });
  const removeError = removeOffline.error ?? removeOne.error;

  const all = workers.data ?? [];
  const view = workersView(all, query, sort, page);
  const columnCount = actions ? 6 : 5;

  return (
    <Section
      title="Workers"
      testId="workers"
      actions={
        <>
          <div className="relative">
            <label htmlFor={searchId} className="sr-only">
              Search workers
            </label>
            <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
            <input
              id={searchId}
              type="search"
              placeholder="Search"
              data-testid="workers-search"
              className={`${inputClass} w-56 pl-9`}
              value={query}
              onChange={(event) => {
                setQuery(event.target.value);
                // Spec: a new search starts at page 1.
                setPage(1);
              }}
            />
          </div>
          {actions && (
            <button
              type="button"
              className={secondaryButtonClass}
              data-testid="remove-offline"
              disabled={removeOffline.isPending}
              onClick={() => removeOffline.mutate()}
            >
              {removeOffline.isPending ? 'Removing…' : 'Remove Offline Workers'}
            </button>
          )}
        </>
      }
    >
      {removeError && (
        <div className="mb-3">
          <FormMessage error={serverErrorText(removeError, MESSAGES.removeFailed)} />
        </div>
      )}
      {workers.data ? (
        <>
          <div className="overflow-x-auto">
            <table className={tableClass} data-testid="workers-table">
              <thead>
                <tr>
                  {COLUMNS.map(({ column, label }) => {
                    const direction = sort?.column === column ? sort.direction : null;
                    return (
                      <th
                        key={column}
                        scope="col"
                        aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
                        className={`${headerCellClass} ${column === 'name' ? '' : 'text-right'}`}
                      >
                        <button
                          type="button"
                          data-testid={`sort-${column}`}
                          onClick={() => setSort(nextSort(sort, column))}
                          className="inline-flex items-center gap-1 rounded uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-amber-500 dark:hover:text-white"
                        >
                          {label}
                          <SortIcon sort={direction} className="size-3.5" />
                        </button>
                      </th>
                    );
                  })}
                  <th scope="col" className={`${headerCellClass} text-right`}>
                    Rejected Shares
                  </th>
                  {actions && (
                    <th scope="col" className={`${headerCellClass} text-right`}>
                      Remove
                    </th>
                  )}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {all.length === 0 ? (
                  <EmptyRow colSpan={columnCount}>
                    <p>No workers on this algorithm yet.</p>
                    {actions && (
                      <button
                        type="button"
                        className={`${primaryButtonClass} mt-3`}
                        data-testid="set-up-workers"
                        onClick={actions.setUpWorkers}
                      >
                        Set up Workers
                      </button>
                    )}
                  </EmptyRow>
                ) : view.rows.length === 0 ? (
                  <EmptyRow colSpan={columnCount}>No worker matches “{query.trim()}”.</EmptyRow>
                ) : (
                  view.rows.map((worker) => (
                    <WorkerRowView
                      key={worker.id}
                      worker={worker}
                      onRemove={actions ? () => removeOne.mutate(worker.id) : undefined}
                      removing={removeOne.isPending && removeOne.variables === worker.id}
                    />
                  ))
                )}
              </tbody>
            </table>
          </div>
          <Pager window={view.window} onPage={setPage} testId="workers-page" label="Workers" />
        </>
      ) : (
        <QueryState isPending={workers.isPending} error={workers.error} what="workers" />
      )}
    </Section>
  );
}

function WorkerRowView({
  worker,
  onRemove,
  removing,
}: {
  worker: MiningWorker;
  onRemove: (() => void) | undefined;
  removing: boolean;
}) {
  return (
    <tr data-testid="worker-row">
      <th scope="row" className={`${cellClass} text-left font-semibold`} data-testid="worker-name">
        {worker.name}
      </th>
      <td className={`${cellClass} text-right`}>{formatHashrate(worker.hashrate, worker.hashrate_units)}</td>
      <td className={`${cellClass} text-right`}>{formatHashrate(worker.hashrate_avg, worker.hashrate_avg_units)}</td>
      <td className={`${cellClass} text-right`} data-testid="worker-accepted">
        {worker.valid_shares.toLocaleString('en-US')}
      </td>
      <td
        className={`${cellClass} text-right`}
        data-testid="worker-rejected"
        title={`${worker.invalid_shares} invalid, ${worker.stale_shares} stale`}
      >
        {rejectedPercent(worker.valid_shares, worker.invalid_shares, worker.stale_shares)}
      </td>
      {onRemove && (
        <td className={`${cellClass} text-right`}>
          <button
            type="button"
            aria-label={`Remove worker ${worker.name}`}
            title="Remove this worker"
            data-testid="remove-worker"
            disabled={removing}
            onClick={onRemove}
            className="inline-flex size-8 items-center justify-center rounded-lg text-slate-500 hover:bg-red-50 hover:text-red-600 disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-amber-500 dark:hover:bg-red-950/40"
          >
            <TrashIcon className="size-4" />
          </button>
        </td>
      )}
    </tr>
  );
}
