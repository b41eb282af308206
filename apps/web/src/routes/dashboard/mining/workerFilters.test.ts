import { describe, expect, it } from 'vitest';
import {
  applyWorkerFilters,
  type GroupFilter,
  groupFilterValue,
  groupOptions,
  NO_FILTERS,
  parseGroupFilter,
  stateCounts,
  type WorkerState,
} from './workerFilters';

const w = (name: string, state: WorkerState, group: string | null) => ({ name, state, group });
const ROWS = [
  w('rack1-a', 'online', 'rack1-'),
  w('rack1-b', 'offline', 'rack1-'),
  w('rack10-a', 'low', 'rack10-'),
  w('rack2-a', 'online', 'rack2-'),
  w('spare', 'offline', null),
  w('lab', 'online', 'Basement'),
];
const ALL: GroupFilter = { kind: 'all' };

describe('worker filters', () => {
  it('keep workers by state and by group, both at once', () => {
    expect(applyWorkerFilters(ROWS, NO_FILTERS)).toEqual(ROWS);
    expect(applyWorkerFilters(ROWS, { state: 'offline', group: ALL }).map((r) => r.name)).toEqual(['rack1-b', 'spare']);
    expect(
      applyWorkerFilters(ROWS, { state: 'offline', group: { kind: 'group', group: 'rack1-' } }).map((r) => r.name),
    ).toEqual(['rack1-b']);
    expect(applyWorkerFilters(ROWS, { state: 'all', group: { kind: 'ungrouped' } }).map((r) => r.name)).toEqual([
      'spare',
    ]);
  });

  it('count each state within the chosen group', () => {
    expect(stateCounts(ROWS, ALL)).toEqual({ all: 6, online: 3, low: 1, offline: 2 });
    expect(stateCounts(ROWS, { kind: 'group', group: 'rack1-' })).toEqual({ all: 2, online: 1, low: 0, offline: 1 });
    expect(stateCounts(ROWS, { kind: 'ungrouped' })).toEqual({ all: 1, online: 0, low: 0, offline: 1 });
    expect(stateCounts([], ALL)).toEqual({ all: 0, online: 0, low: 0, offline: 0 });
  });

  it('list the groups in natural order with their counts in the chosen state, the ungrouped last', () => {
    const options = groupOptions(ROWS, 'all', ALL).map((o) => `${o.label} (${o.count})`);
    expect(options).toEqual([
      'All groups (6)',
      'Basement (1)',
      'rack1- (2)',
      'rack2- (1)',
      'rack10- (1)',
      'Ungrouped (1)',
    ]);
    // A group with no worker in the state stays a choice, at 0.
    const online = groupOptions(ROWS, 'online', ALL).map((o) => `${o.label} (${o.count})`);
    expect(online).toEqual([
      'All groups (3)',
      'Basement (1)',
      'rack1- (1)',
      'rack2- (1)',
      'rack10- (0)',
      'Ungrouped (0)',
    ]);
  });

  it('keep the chosen group a choice when no worker is in it any more, and offer no ungrouped when none is', () => {
    const grouped = ROWS.filter((r) => r.group !== null);
    const options = groupOptions(grouped, 'all', { kind: 'group', group: 'old-label' });
    expect(options.map((o) => o.label)).toEqual(['All groups', 'Basement', 'old-label', 'rack1-', 'rack2-', 'rack10-']);
    expect(options.find((o) => o.label === 'old-label')?.count).toBe(0);
    expect(groupOptions(grouped, 'all', { kind: 'ungrouped' }).at(-1)).toEqual({
      filter: { kind: 'ungrouped' },
      label: 'Ungrouped',
      count: 0,
    });
  });

  it('write a group choice as a select value and read it back, a label named "all" included', () => {
    const choices: GroupFilter[] = [
      ALL,
      { kind: 'ungrouped' },
      { kind: 'group', group: 'rack1-' },
      { kind: 'group', group: 'all' },
      { kind: 'group', group: 'group:odd' },
    ];
    for (const choice of choices) expect(parseGroupFilter(groupFilterValue(choice))).toEqual(choice);
    expect(groupFilterValue({ kind: 'group', group: 'all' })).not.toBe(groupFilterValue(ALL));
    expect(parseGroupFilter('nonsense')).toEqual(ALL);
  });
});
