import type { MiningWorker } from '@lodestone/contract';
import type { AlgorithmKey } from '@lodestone/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useLocation } from 'react-router';
import {
  type DashboardSource,
  removeOfflineWorkers,
  removeSelectedWorkers,
  removeWorker,
} from '../../../api/dashboard';
import { queryKeys } from '../../../api/queryKeys';
import { DataTable } from '../../../components/DataTable';
import { inputClass, primaryButtonClass, secondaryButtonClass } from '../../../components/form';
import { LoadState } from '../../../components/LoadState';
import { Pager, Section } from '../../../components/sections';
import { SearchIcon } from '../icons';
import { DASHBOARD_RETRY, useMiningSummary, useWorkers } from '../queries';
import { LabelDialog, SelectionBar } from './BulkActions';
import type { MiningActions } from './MiningTab';
import { RemovalConfirmation } from './RemovalConfirmation';
import { removeOfflineQuestion, removeSelectedQuestion, removeWorkerQuestion } from './removal';
import { WorkerFilterControls } from './WorkerFilterControls';
import { workerColumns } from './workerColumns';
import { workerSearch } from './workerDetailTexts';
import { NO_FILTERS, type WorkerFilters } from './workerFilters';
import { selectedAmong, selectionOf, toggleSelected, withRows } from './workerSelection';
import { nextSort, type SortState, workersView } from './workers';

type Confirming = { kind: 'one'; worker: MiningWorker } | { kind: 'offline' } | { kind: 'selected' } | null;

/**
 * The workers table with its search, state and group filters, and for the miner the selection with its bulk actions
 * and the removals (docs/dashboard.md, Workers and Worker groups). Figures are the server's; the page only filters,
 * sorts and pages.
 */
export function WorkersSection({
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
  const [filters, setFilters] = useState<WorkerFilters>(NO_FILTERS);
  const [sort, setSort] = useState<SortState | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [labelling, setLabelling] = useState(false);
  const searchId = useId();
  const location = useLocation();
  const queryClient = useQueryClient();

  const summary = useMiningSummary(source, algorithm).data;

  // Each removal is confirmed first (docs/dashboard.md, Workers); once done, the page reloads in full, so every figure
  // of the tab (cards, chart, list) is read again without the removed workers.
  const [confirming, setConfirming] = useState<Confirming>(null);
  const account = actions?.account ?? '';
  const removeOffline = useMutation({
    mutationFn: () => removeOfflineWorkers(account, algorithm),
    onSuccess: () => window.location.reload(),
  });
  const removeOne = useMutation({
    mutationFn: (id: string) => removeWorker(account, algorithm, id),
    onSuccess: () => window.location.reload(),
  });
  const removeChosen = useMutation({
    mutationFn: (ids: string[]) => removeSelectedWorkers(account, algorithm, ids),
    onSuccess: () => window.location.reload(),
  });
  const removal =
    confirming?.kind === 'offline' ? removeOffline : confirming?.kind === 'one' ? removeOne : removeChosen;
  const closeConfirmation = () => {
    removal.reset();
    setConfirming(null);
  };

  const all = workers.data ?? [];
  // Ages ("12 min ago") are of the moment the list was read, so they agree with its hashrates.
  const now = new Date(workers.dataUpdatedAt || Date.now()).toISOString();
  const view = workersView(all, { ...filters, query }, sort, page, now);
  const chosen = selectedAmong(selected, view.matching);
  // A new search or filter starts at page 1.
  const refine = (change: () => void) => {
    change();
    setPage(1);
  };

  const questionOf = (asked: NonNullable<Confirming>) =>
    asked.kind === 'offline'
      ? removeOfflineQuestion(summary && summary.total_workers - summary.active_workers)
      : asked.kind === 'one'
        ? removeWorkerQuestion(asked.worker.name)
        : removeSelectedQuestion(chosen.map((w) => w.name));

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
              onChange={(event) => refine(() => setQuery(event.target.value))}
            />
          </div>
          {actions && (
            <button
              type="button"
              className={secondaryButtonClass}
              data-testid="remove-offline"
              onClick={() => setConfirming({ kind: 'offline' })}
            >
              Remove Offline Workers
            </button>
          )}
        </>
      }
    >
      {confirming && (
        <RemovalConfirmation
          question={questionOf(confirming)}
          removal={removal}
          onConfirm={() => {
            if (confirming.kind === 'offline') removeOffline.mutate();
            else if (confirming.kind === 'one') removeOne.mutate(confirming.worker.id);
            else removeChosen.mutate(chosen.map((w) => w.id));
          }}
          onClose={closeConfirmation}
        />
      )}
      {labelling && actions && (
        <LabelDialog
          account={actions.account}
          algorithm={algorithm}
          workers={chosen}
          onClose={() => setLabelling(false)}
          onLabelled={() => {
            setLabelling(false);
            void queryClient.invalidateQueries({ queryKey: queryKeys.workers(source, algorithm) });
          }}
        />
      )}
      {workers.data ? (
        <>
          <div className="mb-3">
            <WorkerFilterControls rows={all} filters={filters} onFilters={(next) => refine(() => setFilters(next))} />
          </div>
          {actions && (
            <SelectionBar
              selected={chosen.length}
              matching={view.matching.length}
              onSelectMatching={() => setSelected(withRows(selected, view.matching, true))}
              onClear={() => setSelected(new Set())}
              onLabel={() => setLabelling(true)}
              onRemove={() => setConfirming({ kind: 'selected' })}
            />
          )}
          <DataTable
            testId="workers-table"
            className=""
            columns={workerColumns({
              sort,
              onSort: (column) => setSort(nextSort(sort, column)),
              openSearch: (worker) => workerSearch(location.search, worker.id),
              selection: actions && {
                selected,
                onToggle: (worker) => setSelected(toggleSelected(selected, worker.id)),
                page: selectionOf(selected, view.rows),
                onPage: (on) => setSelected(withRows(selected, view.rows, on)),
              },
              onRemove: actions ? (worker) => setConfirming({ kind: 'one', worker }) : undefined,
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
              ) : query.trim() === '' ? (
                'No worker matches these filters.'
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
