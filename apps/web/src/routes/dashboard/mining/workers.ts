import type { SortColumn, SortState } from '@lodestone/domain';

/**
 * A click on a header: a new column starts ascending, the same column flips. (The table's other rules are the
 * domain's, packages/domain/src/workerList.ts, which the server pages with.)
 */
export function nextSort(current: SortState | null, column: SortColumn): SortState {
  if (current?.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: 'asc' };
}
