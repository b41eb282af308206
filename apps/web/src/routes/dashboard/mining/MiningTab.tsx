import type { MiningWorker } from '@lodestone/contract';
import type { AlgorithmKey } from '@lodestone/domain';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { type DashboardSource, type DashboardView, removeOfflineWorkers, removeWorker } from '../../../api/dashboard';
import { serverErrorText } from '../../../api/errors';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { type Column, DataTable } from '../../../components/DataTable';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../../../components/form';
import { TrashIcon } from '../../../components/icons';
import { LoadState } from '../../../components/LoadState';
import { Pager, Section, StatCard } from '../../../components/sections';
import { browserTimeZone, formatHashrate, formatLocalDateTime, formatUsd, rejectedPercent } from '../../../lib/format';
import { type ChartRange, ChartSection } from '../charts/ChartSection';
import { SearchIcon, SortIcon } from '../icons';
import { MESSAGES } from '../messages';
import { DASHBOARD_RETRY, useMiningChart, useMiningSummary, useWorkers } from '../queries';
import { removeOfflineQuestion, removeWorkerQuestion } from './removal';
import { lastShareText, nextSort, type SortColumn, type SortState, statusText, workersView } from './workers';

/** What only the miner may do on this tab; the observer dashboard passes none (read-only). */
export interface MiningActions {
  account: string;
  setUpWorkers: () => void;
}

/**
 * The Mining tab (docs/dashboard.md, The screens): four cards, the hashrate chart over the page's chosen period,
 * Search, 'Remove Offline Workers' and the workers table. Figures are the server's; the page only formats, sorts and
 * pages.
 */
export function MiningTab({
  source,
  algorithm,
  chartRange,
  actions,
}: {
  source: DashboardSource;
  algorithm: AlgorithmKey;
  chartRange: ChartRange;
  actions?: MiningActions;
}) {
  const [timezone] = useState(browserTimeZone);
  return (
    <div className="space-y-6">
      <SummaryCards source={source} algorithm={algorithm} />
      <HashrateChart source={source} algorithm={algorithm} timezone={timezone} range={chartRange} />
      <Workers source={source} algorithm={algorithm} actions={actions} />
    </div>
  );
}

function SummaryCards({ source, algorithm }: { source: DashboardSource; algorithm: AlgorithmKey }) {
  const summary = useMiningSummary(source, algorithm);
  const data = summary.data;
  if (!data)
    return (
      <LoadState retry={DASHBOARD_RETRY} isPending={summary.isPending} error={summary.error} what="mining summary" />
    );
  return (
    <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4" data-testid="mining-cards">
      <StatCard
        label="Current Hashrate"
        hint={`last ${data.window_minutes} min`}
        testId="card-hashrate"
        value={formatHashrate(data.hashrate, data.hashrate_units)}
      />
      <StatCard
        label="Average Hashrate"
        hint="last 24 h"
        testId="card-hashrate-avg"
        value={formatHashrate(data.hashrate_avg, data.hashrate_avg_units)}
      />
      <StatCard label="Active Workers" testId="card-workers" value={`${data.active_workers} / ${data.total_workers}`} />
      <StatCard label="Estimated 24h revenue" testId="card-revenue" value={formatUsd(data.estimated_revenue)} />
    </dl>
  );
}

function HashrateChart({ source, algorithm, timezone, range }: DashboardView & { range: ChartRange }) {
  return (
    <ChartSection
      title="Hashrate"
      testId="hashrate-chart"
      what="hashrate chart"
      chart={useMiningChart(source, algorithm, range.period, timezone)}
      range={range}
      formatValue={(v) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}
    />
  );
}

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

  const summary = useMiningSummary(source, algorithm).data;

  // Each removal is confirmed first (docs/dashboard.md, Workers); once done, the page reloads in full.
  const [confirming, setConfirming] = useState<{ worker: MiningWorker } | 'offline' | null>(null);
  const removeOffline = useMutation({
    mutationFn: () => removeOfflineWorkers(actions?.account ?? '', algorithm),
    onSuccess: () => window.location.reload(),
  });
  const removeOne = useMutation({
    mutationFn: (id: string) => removeWorker(actions?.account ?? '', algorithm, id),
    onSuccess: () => window.location.reload(),
  });
  const closeConfirmation = () => {
    removeOffline.reset();
    removeOne.reset();
    setConfirming(null);
  };

  const all = workers.data ?? [];
  // Ages ("12 min ago") are of the moment the list was read, so they agree with its hashrates.
  const now = new Date(workers.dataUpdatedAt || Date.now()).toISOString();
  const view = workersView(all, query, sort, page, now);

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
                // A new search starts at page 1.
                setPage(1);
              }}
            />
          </div>
          {actions && (
            <button
              type="button"
              className={secondaryButtonClass}
              data-testid="remove-offline"
              onClick={() => setConfirming('offline')}
            >
              Remove Offline Workers
            </button>
          )}
        </>
      }
    >
      {confirming && (
        <RemovalConfirmation
          question={
            confirming === 'offline'
              ? removeOfflineQuestion(summary && summary.total_workers - summary.active_workers)
              : removeWorkerQuestion(confirming.worker.name)
          }
          removal={confirming === 'offline' ? removeOffline : removeOne}
          onConfirm={() => (confirming === 'offline' ? removeOffline.mutate() : removeOne.mutate(confirming.worker.id))}
          onClose={closeConfirmation}
        />
      )}
      {workers.data ? (
        <>
          <DataTable
            testId="workers-table"
            className=""
            columns={workerColumns({
              sort,
              onSort: (column) => setSort(nextSort(sort, column)),
              onRemove: actions ? (worker) => setConfirming({ worker }) : undefined,
              removing: (worker) => removeOne.isPending && removeOne.variables === worker.id,
              now,
            })}
            rows={view.rows}
            rowKey={(worker) => worker.id}
            rowTestId="worker-row"
            empty={
              all.length === 0 ? (
                <>
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
                </>
              ) : (
                `No worker matches “${query.trim()}”.`
              )
            }
          />
          <Pager window={view.window} onPage={setPage} testId="workers-page" label="Workers" />
        </>
      ) : (
        <LoadState retry={DASHBOARD_RETRY} isPending={workers.isPending} error={workers.error} what="workers" />
      )}
    </Section>
  );
}

/** 'Remove …?' before a removal: Cancel removes nothing; the removal's failure is shown in the dialog. */
function RemovalConfirmation({
  question,
  removal,
  onConfirm,
  onClose,
}: {
  question: { title: string; text: string };
  removal: { isPending: boolean; error: Error | null };
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmModal
      title={question.title}
      confirmLabel="Remove"
      pendingLabel="Removing…"
      danger
      pending={removal.isPending}
      error={removal.error ? serverErrorText(removal.error, MESSAGES.removeFailed) : null}
      onConfirm={onConfirm}
      onClose={onClose}
      testId="remove-workers-modal"
    >
      <p>{question.text}</p>
    </ConfirmModal>
  );
}

/**
 * A sortable heading: the column's name and the sort it is in (ascending first, then toggle: docs/website.md, Lists,
 * refresh and copying).
 */
function SortHeading({
  column,
  label,
  sort,
  onSort,
}: {
  column: SortColumn;
  label: string;
  sort: SortState | null;
  onSort: (column: SortColumn) => void;
}) {
  const direction = sort?.column === column ? sort.direction : null;
  return (
    <button
      type="button"
      data-testid={`sort-${column}`}
      onClick={() => onSort(column)}
      className="inline-flex items-center gap-1 rounded uppercase hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-amber-500 dark:hover:text-white"
    >
      {label}
      <SortIcon sort={direction} className="size-3.5" />
    </button>
  );
}

const ariaSort = (sort: SortState | null, column: SortColumn): 'none' | 'ascending' | 'descending' =>
  sort?.column !== column ? 'none' : sort.direction === 'asc' ? 'ascending' : 'descending';

/**
 * The workers table: Name, the two hashrates and Accepted Shares sort; on a phone each worker is a
 * card headed by its name, and the sort buttons stay above the cards.
 */
function workerColumns({
  sort,
  onSort,
  onRemove,
  removing,
  now,
}: {
  sort: SortState | null;
  onSort: (column: SortColumn) => void;
  onRemove: ((worker: MiningWorker) => void) | undefined;
  removing: (worker: MiningWorker) => boolean;
  /** The moment the list was read (ISO): what the Last Share ages count from. */
  now: string;
}): Column<MiningWorker>[] {
  const sortable = (column: SortColumn, label: string) => ({
    label,
    heading: <SortHeading column={column} label={label} sort={sort} onSort={onSort} />,
    ariaSort: ariaSort(sort, column),
  });
  const columns: Column<MiningWorker>[] = [
    {
      ...sortable('name', 'Name'),
      rowHeader: true,
      phone: 'primary',
      testId: 'worker-name',
      cell: (worker) => worker.name,
    },
    {
      label: 'Status',
      testId: 'worker-status',
      cell: (worker) => (
        <span
          className={`inline-flex items-center gap-1.5 whitespace-nowrap ${worker.online ? 'text-emerald-700 dark:text-emerald-400' : 'text-slate-500 dark:text-slate-400'}`}
        >
          <span
            aria-hidden="true"
            className={`size-2 rounded-full ${worker.online ? 'bg-emerald-500' : 'bg-slate-400'}`}
          />
          {statusText(worker)}
        </span>
      ),
    },
    {
      ...sortable('hashrate', 'Current Hashrate'),
      align: 'right',
      testId: 'worker-hashrate',
      cell: (worker) => formatHashrate(worker.hashrate, worker.hashrate_units),
    },
    {
      ...sortable('hashrate_avg', 'Average Hashrate'),
      align: 'right',
      cell: (worker) => formatHashrate(worker.hashrate_avg, worker.hashrate_avg_units),
    },
    {
      ...sortable('accepted', 'Accepted Shares'),
      align: 'right',
      testId: 'worker-accepted',
      cell: (worker) => worker.valid_shares.toLocaleString('en-US'),
    },
    {
      label: 'Rejected Shares',
      align: 'right',
      testId: 'worker-rejected',
      title: (worker) => `${worker.invalid_shares} invalid, ${worker.stale_shares} stale`,
      cell: (worker) => rejectedPercent(worker.valid_shares, worker.invalid_shares, worker.stale_shares),
    },
    {
      label: 'Last Share',
      align: 'right',
      testId: 'worker-last-share',
      title: (worker) =>
        worker.last_share_at === null
          ? 'No accepted share recorded'
          : `Last accepted share ${formatLocalDateTime(Date.parse(worker.last_share_at))}`,
      cell: (worker) => <span className="whitespace-nowrap">{lastShareText(worker, now)}</span>,
    },
  ];
  if (!onRemove) return columns;
  return [
    ...columns,
    {
      label: 'Remove',
      align: 'right',
      cell: (worker) => (
        <button
          type="button"
          aria-label={`Remove worker ${worker.name}`}
          title="Remove this worker"
          data-testid="remove-worker"
          disabled={removing(worker)}
          onClick={() => onRemove(worker)}
          className="inline-flex size-8 items-center justify-center rounded-lg text-slate-500 hover:bg-red-50 hover:text-red-600 disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-amber-500 dark:hover:bg-red-950/40"
        >
          <TrashIcon className="size-4" />
        </button>
      ),
    },
  ];
}
