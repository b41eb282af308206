import { type PageWindow, pageOf } from '@lodestone/domain';
import { ageText, formatHashrate, hashrateInBaseUnits, rejectedPercent } from '../../../lib/format';
import { applyWorkerFilters, type WorkerFilters, type WorkerState } from './workerFilters';

/**
 * The workers table's rules (docs/website.md, Lists, refresh and copying): the first four columns sort, ascending first
 * and then toggling; the search keeps rows where any shown value contains the text, whatever the case; pages of 10.
 * Structural types, so the contract's Worker fits without a copy of it here.
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
  online: boolean;
  state: WorkerState;
  last_share_at: string | null;
  label: string | null;
  group: string | null;
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

/** A click on a header: a new column starts ascending, the same column flips. */
export function nextSort(current: SortState | null, column: SortColumn): SortState {
  if (current?.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: 'asc' };
}

/** The texts a row shows at `now` (ISO), in column order: what the search looks in. */
export function workerCells(worker: WorkerRow, now: string): string[] {
  return [
    worker.name,
    statusText(worker),
    formatHashrate(worker.hashrate, worker.hashrate_units),
    formatHashrate(worker.hashrate_avg, worker.hashrate_avg_units),
    // Both as shown (1,234) and as typed (1234).
    worker.valid_shares.toLocaleString('en-US'),
    String(worker.valid_shares),
    rejectedPercent(worker.valid_shares, worker.invalid_shares, worker.stale_shares),
    lastShareText(worker, now),
  ];
}

export function filterWorkers<T extends WorkerRow>(rows: readonly T[], query: string, now: string): T[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...rows];
  return rows.filter((row) => workerCells(row, now).some((cell) => cell.toLowerCase().includes(needle)));
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function compare(a: WorkerRow, b: WorkerRow, column: SortColumn): number {
  switch (column) {
    case 'name':
      return collator.compare(a.name, b.name);
    case 'hashrate':
      return hashrateInBaseUnits(a.hashrate, a.hashrate_units) - hashrateInBaseUnits(b.hashrate, b.hashrate_units);
    case 'hashrate_avg':
      return (
        hashrateInBaseUnits(a.hashrate_avg, a.hashrate_avg_units) -
        hashrateInBaseUnits(b.hashrate_avg, b.hashrate_avg_units)
      );
    case 'accepted':
      return a.valid_shares - b.valid_shares;
  }
}

/**
 * A sorted copy; ties keep the server's order (the sort is stable), so equal rows never jump around.
 * With no column chosen, names in natural order (rig1, rig2, rig10), as a person numbers machines.
 */
export function sortWorkers<T extends WorkerRow>(rows: readonly T[], sort: SortState | null): T[] {
  if (!sort) return [...rows].sort((a, b) => compare(a, b, 'name'));
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => sign * compare(a, b, sort.column));
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
