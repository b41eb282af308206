import { ageText, formatHashrate, hashrateInBaseUnits, rejectedPercent } from './format.js';
import { type PageWindow, pageOf } from './pagination.js';
import type { WorkerState } from './workerState.js';

/**
 * The workers table's rules (docs/website.md, Lists, refresh and copying; docs/dashboard.md, Workers and Worker
 * groups): the state and group filters, the search in any shown value whatever the case, the first four columns
 * sorting, pages of 10, and the counts each filter choice shows. The server pages the list of a large farm with them
 * (GET /v1/user/mining/workers/page), so its pages are the ones the dashboard would make of the whole list.
 * Structural types, so the contract's worker fits without a copy of it here.
 */
export const WORKERS_PAGE_SIZE = 10;

export interface WorkerRow {
  id: string | number;
  name: string;
  hashrate: number;
  hashrate_units: string;
  hashrate_avg: number;
  hashrate_avg_units: string;
  valid_shares: number;
  invalid_shares: number;
  stale_shares: number;
  state: WorkerState;
  last_share_at: string | null;
  label: string | null;
  group: string | null;
}

export type StateFilter = 'all' | WorkerState;

/** Every group, the workers without one (no label and no name prefix), or one group by name. */
export type GroupFilter = { kind: 'all' } | { kind: 'ungrouped' } | { kind: 'group'; group: string };

export interface WorkerFilters {
  state: StateFilter;
  group: GroupFilter;
}

export const NO_FILTERS: WorkerFilters = { state: 'all', group: { kind: 'all' } };

type Filterable = Pick<WorkerRow, 'state' | 'group'>;

function keepsState(worker: Filterable, state: StateFilter): boolean {
  return state === 'all' || worker.state === state;
}

function keepsGroup(worker: Filterable, group: GroupFilter): boolean {
  switch (group.kind) {
    case 'all':
      return true;
    case 'ungrouped':
      return worker.group === null;
    case 'group':
      return worker.group === group.group;
  }
}

export function applyWorkerFilters<T extends Filterable>(rows: readonly T[], filters: WorkerFilters): T[] {
  return rows.filter((row) => keepsState(row, filters.state) && keepsGroup(row, filters.group));
}

/** How many workers each state choice keeps within the chosen group. */
export function stateCounts(rows: readonly Filterable[], group: GroupFilter): Record<StateFilter, number> {
  const counts: Record<StateFilter, number> = { all: 0, online: 0, low: 0, offline: 0 };
  for (const row of rows) {
    if (!keepsGroup(row, group)) continue;
    counts.all += 1;
    counts[row.state] += 1;
  }
  return counts;
}

export interface GroupOption {
  filter: GroupFilter;
  label: string;
  count: number;
}

/** Natural order, whatever the case: rig2 before rig10, as a person numbers machines. */
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The group choices with how many workers each keeps in the chosen state: all groups, each group in natural order
 * (rack2- before rack10-), then the ungrouped when there are any. The chosen group stays a choice at 0 (its workers
 * were relabelled), so the control never shows a value it does not offer.
 */
export function groupOptions(rows: readonly Filterable[], state: StateFilter, chosen: GroupFilter): GroupOption[] {
  const groups = new Map<string, number>();
  let all = 0;
  let ungrouped = 0;
  for (const row of rows) {
    if (row.group !== null && !groups.has(row.group)) groups.set(row.group, 0);
    if (!keepsState(row, state)) continue;
    all += 1;
    if (row.group === null) ungrouped += 1;
    else groups.set(row.group, (groups.get(row.group) ?? 0) + 1);
  }
  if (chosen.kind === 'group' && !groups.has(chosen.group)) groups.set(chosen.group, 0);
  const named = [...groups.entries()]
    .sort(([a], [b]) => collator.compare(a, b))
    .map(([group, count]) => ({ filter: { kind: 'group', group } as const, label: group, count }));
  const hasUngrouped = rows.some((row) => row.group === null) || chosen.kind === 'ungrouped';
  return [
    { filter: { kind: 'all' }, label: 'All groups', count: all },
    ...named,
    ...(hasUngrouped ? [{ filter: { kind: 'ungrouped' } as const, label: 'Ungrouped', count: ungrouped }] : []),
  ];
}

/** A group choice as text (a <select> value, a query parameter): a prefix keeps a label named "all" apart. */
export function groupFilterValue(filter: GroupFilter): string {
  return filter.kind === 'group' ? `group:${filter.group}` : filter.kind;
}

export function parseGroupFilter(value: string): GroupFilter {
  if (value.startsWith('group:')) return { kind: 'group', group: value.slice('group:'.length) };
  return value === 'ungrouped' ? { kind: 'ungrouped' } : { kind: 'all' };
}

const STATE_TEXT: Record<WorkerState, string> = { online: 'Online', low: 'Low hashrate', offline: 'Offline' };

/** The Status column: the worker's state in words ("Online", "Low hashrate", "Offline"). */
export function statusText(worker: Pick<WorkerRow, 'state'>): string {
  return STATE_TEXT[worker.state];
}

/** The Last Share column at `now` (ISO): "12 min ago", or "—" when no accepted share is recorded. */
export function lastShareText(worker: Pick<WorkerRow, 'last_share_at'>, now: string): string {
  return worker.last_share_at === null ? '—' : `${ageText(worker.last_share_at, now)} ago`;
}

export const SORTABLE_COLUMNS = ['name', 'hashrate', 'hashrate_avg', 'accepted'] as const;
export type SortColumn = (typeof SORTABLE_COLUMNS)[number];
export type SortDirection = 'asc' | 'desc';
export interface SortState {
  column: SortColumn;
  direction: SortDirection;
}

/** One formatter for every row: a list of 10,000 is searched many times faster than with toLocaleString per row. */
const thousands = new Intl.NumberFormat('en-US');

/** The texts a row shows at `now` (ISO), in column order: what the search looks in. */
const CELLS: readonly ((worker: WorkerRow, now: string) => string)[] = [
  (worker) => worker.name,
  (worker) => statusText(worker),
  (worker) => formatHashrate(worker.hashrate, worker.hashrate_units),
  (worker) => formatHashrate(worker.hashrate_avg, worker.hashrate_avg_units),
  // Both as shown (1,234) and as typed (1234).
  (worker) => thousands.format(worker.valid_shares),
  (worker) => String(worker.valid_shares),
  (worker) => rejectedPercent(worker.valid_shares, worker.invalid_shares, worker.stale_shares),
  (worker, now) => lastShareText(worker, now),
];

export function filterWorkers<T extends WorkerRow>(rows: readonly T[], query: string, now: string): T[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...rows];
  // Cell by cell, stopping at the first that holds it: a search for a name prefix formats no hashrate or age.
  return rows.filter((row) => CELLS.some((cell) => cell(row, now).toLowerCase().includes(needle)));
}

/** The number a column other than the name sorts by. */
function sortNumber(worker: WorkerRow, column: Exclude<SortColumn, 'name'>): number {
  switch (column) {
    case 'hashrate':
      return hashrateInBaseUnits(worker.hashrate, worker.hashrate_units);
    case 'hashrate_avg':
      return hashrateInBaseUnits(worker.hashrate_avg, worker.hashrate_avg_units);
    case 'accepted':
      return worker.valid_shares;
  }
}

/**
 * A sorted copy; ties keep the given order (the sort is stable), so equal rows never jump around.
 * With no column chosen, names in natural order (rig1, rig2, rig10).
 */
export function sortWorkers<T extends WorkerRow>(rows: readonly T[], sort: SortState | null): T[] {
  const sign = sort?.direction === 'desc' ? -1 : 1;
  if (!sort || sort.column === 'name') return [...rows].sort((a, b) => sign * collator.compare(a.name, b.name));
  // Each row's number worked out once, not at each of the ~130,000 comparisons that sort 10,000 rows.
  const column = sort.column;
  const keyed = rows.map((row) => ({ row, key: sortNumber(row, column) }));
  keyed.sort((a, b) => sign * (a.key - b.key));
  return keyed.map((k) => k.row);
}

/**
 * The filters, then the search, then the sort, then the requested page (clamped): what the table shows. `matching` is
 * every row the filters and search keep, in order: what "select all matching" selects.
 */
export function workersView<T extends WorkerRow>(
  rows: readonly T[],
  filters: WorkerFilters & { query: string },
  sort: SortState | null,
  page: number,
  now: string,
): { rows: T[]; window: PageWindow; matching: T[] } {
  const matching = sortWorkers(filterWorkers(applyWorkerFilters(rows, filters), filters.query, now), sort);
  return { ...pageOf(matching, WORKERS_PAGE_SIZE, page), matching };
}

/** What the workers table asks for: a page under its filters (the group as groupFilterValue writes it), search, sort. */
export interface WorkersPageAsk {
  page: number;
  sort: SortState | null;
  search: string;
  state: StateFilter;
  group: string;
}

/** The table's filters and search as the page asks them. */
export type WorkersFilterAsk = Pick<WorkersPageAsk, 'search' | 'state' | 'group'>;

/**
 * Every worker the filters and the search keep, in the table's first order (by name): what "select all matching"
 * selects (GET /user/mining/workers/matching).
 */
export function workersMatching<T extends WorkerRow>(all: readonly T[], ask: WorkersFilterAsk, readAt: string): T[] {
  const filters = { state: ask.state, group: parseGroupFilter(ask.group), query: ask.search };
  return workersView(all, filters, null, 1, readAt).matching;
}

/** The table's first look: page 1, by name, nothing filtered or searched. */
export const FIRST_WORKERS_PAGE: WorkersPageAsk = { page: 1, sort: null, search: '', state: 'all', group: 'all' };

/**
 * One page of the workers table with what its controls show (GET /user/mining/workers/page): the page's rows, the
 * page shown (the one asked for, clamped) and how many, how many workers match and how many there are, each state
 * choice's count within the chosen group and each group choice's within the chosen state. `readAt` (ISO) is the
 * instant the figures are of: the rows' ages are measured from it, the search finds them as shown.
 */
export function workersPageOf<T extends WorkerRow>(all: readonly T[], ask: WorkersPageAsk, readAt: string) {
  const group = parseGroupFilter(ask.group);
  const view = workersView(all, { state: ask.state, group, query: ask.search }, ask.sort, ask.page, readAt);
  return {
    workers: view.rows,
    page: view.window.page,
    pages: view.window.pageCount,
    matching: view.matching.length,
    total: all.length,
    states: stateCounts(all, group),
    groups: groupOptions(all, ask.state, group).map((option) => ({
      value: groupFilterValue(option.filter),
      label: option.label,
      count: option.count,
    })),
    read_at: readAt,
  };
}
