/**
 * The workers table's two filters beside its search (docs/dashboard.md, Worker groups): by state and by group. Each
 * choice shows how many workers it would keep under the other filter, so "Offline (3)" in group `rack1-` means three
 * of rack 1's machines are down. Structural types, so the contract's worker fits without a copy of it here.
 */

/** A worker's health as the server judges it (docs/dashboard.md, Workers). */
export type WorkerState = 'online' | 'low' | 'offline';

export type StateFilter = 'all' | WorkerState;

export const STATE_FILTERS: readonly { value: StateFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'online', label: 'Online' },
  { value: 'low', label: 'Low' },
  { value: 'offline', label: 'Offline' },
];

/** Every group, the workers without one (no label and no name prefix), or one group by name. */
export type GroupFilter = { kind: 'all' } | { kind: 'ungrouped' } | { kind: 'group'; group: string };

export interface WorkerFilters {
  state: StateFilter;
  group: GroupFilter;
}

export const NO_FILTERS: WorkerFilters = { state: 'all', group: { kind: 'all' } };

interface Filterable {
  state: WorkerState;
  group: string | null;
}

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

/** A group choice as a <select> value: a prefix keeps a label named "all" apart from the "all groups" choice. */
export function groupFilterValue(filter: GroupFilter): string {
  return filter.kind === 'group' ? `group:${filter.group}` : filter.kind;
}

export function parseGroupFilter(value: string): GroupFilter {
  if (value.startsWith('group:')) return { kind: 'group', group: value.slice('group:'.length) };
  return value === 'ungrouped' ? { kind: 'ungrouped' } : { kind: 'all' };
}
