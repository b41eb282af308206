import type { MiningWorker } from '@lodestone/contract';
import { lastShareText, type SortColumn, type SortState } from '@lodestone/domain';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { SoloBadge } from '../../../components/blockMarks';
import type { Column } from '../../../components/DataTable';
import { focusRing, linkClass } from '../../../components/form';
import { TrashIcon } from '../../../components/icons';
import { formatHashrate, formatLocalDateTime, rejectedPercent } from '../../../lib/format';
import { SortIcon } from '../icons';
import { WorkerStatus } from './WorkerStatus';
import type { Selection } from './workerSelection';

/** The miner's selection as the table draws it (the observer's table has none). */
export interface TableSelection {
  selected: Selection;
  onToggle: (worker: MiningWorker) => void;
  /** How much of the shown page is selected, and how the heading's box changes that. */
  page: 'all' | 'some' | 'none';
  onPage: (on: boolean) => void;
}

const checkboxClass = `size-4 shrink-0 rounded border-slate-300 accent-amber-500 ${focusRing}`;

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

/** The heading's box for the shown page; "some" is drawn half-checked, which only a property can say. */
function PageCheckbox({ page, onPage }: Pick<TableSelection, 'page' | 'onPage'>) {
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (box.current) box.current.indeterminate = page === 'some';
  }, [page]);
  return (
    <input
      ref={box}
      type="checkbox"
      aria-label="Select the workers on this page"
      data-testid="select-page"
      className={checkboxClass}
      checked={page === 'all'}
      onChange={(event) => onPage(event.target.checked)}
    />
  );
}

const ariaSort = (sort: SortState | null, column: SortColumn): 'none' | 'ascending' | 'descending' =>
  sort?.column !== column ? 'none' : sort.direction === 'asc' ? 'ascending' : 'descending';

/**
 * The workers table: Name, the two hashrates and Accepted Shares sort; a worker's name opens its own view; with a
 * selection each name has its box. On a phone each worker is a card headed by its box and name, and the sort buttons
 * stay above the cards.
 */
export function workerColumns({
  sort,
  onSort,
  openSearch,
  selection,
  onRemove,
  removing,
  now,
}: {
  sort: SortState | null;
  onSort: (column: SortColumn) => void;
  /** Where a worker's name leads: this page's search with the worker's view open. */
  openSearch: (worker: MiningWorker) => string;
  selection: TableSelection | undefined;
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
  const name = sortable('name', 'Name');
  const columns: Column<MiningWorker>[] = [
    {
      ...name,
      heading: selection ? (
        <span className="inline-flex items-center gap-3">
          <PageCheckbox page={selection.page} onPage={selection.onPage} />
          {name.heading}
        </span>
      ) : (
        name.heading
      ),
      rowHeader: true,
      phone: 'primary',
      testId: 'worker-name',
      cell: (worker) => (
        <span className="inline-flex min-w-0 items-center gap-3">
          {selection && (
            <input
              type="checkbox"
              aria-label={`Select ${worker.name}`}
              data-testid="select-worker"
              className={checkboxClass}
              checked={selection.selected.has(worker.id)}
              onChange={() => selection.onToggle(worker)}
            />
          )}
          <Link to={{ search: openSearch(worker) }} data-testid="open-worker" className={linkClass}>
            {worker.name}
          </Link>
          {worker.solo && (
            <SoloBadge
              testId="worker-solo"
              title="Mines on a solo port: the blocks it finds are yours, less the solo fee"
              tone="sky"
            />
          )}
        </span>
      ),
    },
    {
      label: 'Status',
      testId: 'worker-status',
      cell: (worker) => <WorkerStatus state={worker.state} />,
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
