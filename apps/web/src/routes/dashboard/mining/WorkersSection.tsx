import type { MiningWorker } from '@lodestone/contract';
import {
  type AlgorithmKey,
  groupFilterValue,
  NO_FILTERS,
  pageWindow,
  type SortState,
  WORKERS_PAGE_SIZE,
  type WorkerFilters,
} from '@lodestone/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useLocation } from 'react-router';
import {
  type DashboardSource,
  getWorkersMatching,
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
import { DASHBOARD_RETRY, useMiningSummary, useWorkersPage } from '../queries';
import { LabelDialog, SelectionBar } from './BulkActions';
import type { MiningActions } from './MiningTab';
import { RemovalConfirmation } from './RemovalConfirmation';
import { removeOfflineQuestion, removeSelectedQuestion, removeWorkerQuestion } from './removal';
import { WorkerFilterControls } from './WorkerFilterControls';
import { workerColumns } from './workerColumns';
import { workerSearch } from './workerDetailTexts';

import { NO_SELECTION, type Selection, selectionOf, toggleSelected, withRows } from './workerSelection';
import { nextSort } from './workers';

/** How long the search waits for the typing to stop before it asks the server: one request per word, not per key. */
const SEARCH_PAUSE_MS = 250;

type Confirming = { kind: 'one'; worker: MiningWorker } | { kind: 'offline' } | { kind: 'selected' } | null;

/**
 * The workers table with its search, state and group filters, and for the miner the selection with its bulk actions
 * and the removals (docs/dashboard.md, Workers and Worker groups). The server filters, searches, sorts and pages
 * (GET /user/mining/workers/page, the table's rules in packages/domain workerList.ts): a farm of 10,000 machines reads
 * ten rows; the page asks and shows.
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
  const [query, setQuery] = useState('');
  const search = useSettled(query.trim(), SEARCH_PAUSE_MS);
  const [filters, setFilters] = useState<WorkerFilters>(NO_FILTERS);
  const [sort, setSort] = useState<SortState | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Selection>(NO_SELECTION);
  const [labelling, setLabelling] = useState(false);
  const searchId = useId();
  const location = useLocation();
  const queryClient = useQueryClient();
  const workers = useWorkersPage(source, algorithm, {
    page,
    sort,
    search,
    state: filters.state,
    group: groupFilterValue(filters.group),
  });

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
  // "Select all N matching": the server applies the table's filters and search once more, on this click, and names
  // every worker they keep.
  const selectMatching = useMutation({
    mutationFn: () =>
      getWorkersMatching(account, algorithm, { search, state: filters.state, group: groupFilterValue(filters.group) }),
    onSuccess: (matching) => setSelected((current) => withRows(current, matching.workers, true)),
  });
  const removal =
    confirming?.kind === 'offline' ? removeOffline : confirming?.kind === 'one' ? removeOne : removeChosen;
  const closeConfirmation = () => {
    removal.reset();
    setConfirming(null);
  };

  const answer = workers.data;
  const rows = answer?.workers ?? [];
  // Ages ("12 min ago") are of the moment the figures were read, so they agree with the hashrates.
  const now = answer?.read_at ?? new Date().toISOString();
  const chosen = [...selected.values()];
  // A new search or filter starts at page 1, with nothing selected: a selection belongs to what was looked at.
  const refine = (change: () => void) => {
    change();
    setPage(1);
    setSelected(NO_SELECTION);
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
            void queryClient.invalidateQueries({ queryKey: queryKeys.dashboard(source) });
          }}
        />
      )}
      {answer ? (
        <>
          <div className="mb-3">
            <WorkerFilterControls
              counts={answer.states}
              groups={answer.groups}
              filters={filters}
              onFilters={(next) => refine(() => setFilters(next))}
            />
          </div>
          {actions && (
            <SelectionBar
              selected={chosen.length}
              matching={answer.matching}
              onSelectMatching={() => selectMatching.mutate()}
              onClear={() => setSelected(NO_SELECTION)}
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
                onToggle: (worker) => setSelected(toggleSelected(selected, worker)),
                page: selectionOf(selected, rows),
                onPage: (on) => setSelected(withRows(selected, rows, on)),
              },
              onRemove: actions ? (worker) => setConfirming({ kind: 'one', worker }) : undefined,
              removing: (worker) => removeOne.isPending && removeOne.variables === worker.id,
              now,
            })}
            rows={rows}
            rowKey={(worker) => worker.id}
            rowTestId="worker-row"
            empty={
              answer.total === 0 ? (
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
              ) : search === '' ? (
                'No worker matches these filters.'
              ) : (
                `No worker matches “${search}”.`
              )
            }
          />
          <Pager
            window={pageWindow(answer.matching, WORKERS_PAGE_SIZE, answer.page)}
            onPage={setPage}
            testId="workers-page"
            label="Workers"
          />
        </>
      ) : (
        <LoadState retry={DASHBOARD_RETRY} isPending={workers.isPending} error={workers.error} what="workers" />
      )}
    </Section>
  );
}

/** `value` once it has stayed the same for `ms`: what a search box asks the server for while someone types. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
