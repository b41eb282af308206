import { describe, expect, it } from 'vitest';
import {
  applyWorkerFilters,
  filterWorkers,
  type GroupFilter,
  groupFilterValue,
  groupOptions,
  lastShareText,
  NO_FILTERS,
  parseGroupFilter,
  sortWorkers,
  stateCounts,
  statusText,
  type WorkerRow,
  workersView,
} from './workerList.js';
import type { WorkerState } from './workerState.js';

const NOW = '2026-05-06T12:00:00.000Z';

const worker = (name: string, over: Partial<WorkerRow> = {}): WorkerRow => ({
  id: name,
  name,
  hashrate: 1,
  hashrate_units: 'Mh/s',
  hashrate_avg: 1,
  hashrate_avg_units: 'Mh/s',
  valid_shares: 10,
  invalid_shares: 0,
  stale_shares: 0,
  state: 'online',
  last_share_at: '2026-05-06T11:59:40.000Z',
  label: null,
  group: null,
  ...over,
});

const ALL = { state: 'all', group: { kind: 'all' }, query: '' } as const;

describe('workers table', () => {
  it('sorts names naturally and hashrates across units', () => {
    const rows = [
      worker('rig10', { hashrate: 900, hashrate_units: 'Kh/s', valid_shares: 5 }),
      worker('rig2', { hashrate: 2, hashrate_units: 'Mh/s', valid_shares: 50 }),
      worker('Rig1', { hashrate: 1.5, hashrate_units: 'Mh/s', valid_shares: 7 }),
    ];
    expect(sortWorkers(rows, { column: 'name', direction: 'asc' }).map((w) => w.name)).toEqual([
      'Rig1',
      'rig2',
      'rig10',
    ]);
    expect(sortWorkers(rows, { column: 'hashrate', direction: 'asc' }).map((w) => w.name)).toEqual([
      'rig10',
      'Rig1',
      'rig2',
    ]);
    expect(sortWorkers(rows, { column: 'accepted', direction: 'desc' }).map((w) => w.name)).toEqual([
      'rig2',
      'Rig1',
      'rig10',
    ]);
    // No column chosen: natural name order, not the server's byte order (rig1, rig10, rig11, rig2).
    expect(sortWorkers(rows, null).map((w) => w.name)).toEqual(['Rig1', 'rig2', 'rig10']);
  });

  it('keeps the server order for ties', () => {
    const rows = [worker('b'), worker('a'), worker('c')];
    expect(sortWorkers(rows, { column: 'hashrate_avg', direction: 'asc' }).map((w) => w.name)).toEqual(['b', 'a', 'c']);
  });

  it('searches every shown column, case-insensitively', () => {
    const rows = [
      worker('Alpha', { hashrate: 3.5, hashrate_units: 'Gh/s' }),
      worker('beta', { valid_shares: 1234 }),
      worker('gamma', { valid_shares: 2, invalid_shares: 1, stale_shares: 1 }),
    ];
    expect(filterWorkers(rows, 'ALP', NOW).map((w) => w.name)).toEqual(['Alpha']);
    expect(filterWorkers(rows, 'gh/s', NOW).map((w) => w.name)).toEqual(['Alpha']);
    expect(filterWorkers(rows, '1234', NOW).map((w) => w.name)).toEqual(['beta']);
    expect(filterWorkers(rows, '50.00%', NOW).map((w) => w.name)).toEqual(['gamma']);
    expect(filterWorkers(rows, '  ', NOW).length).toBe(3);
  });

  it('shows each worker’s state and last accepted share, and the search finds them as shown', () => {
    const rows = [
      worker('rig1'),
      worker('rig2', { state: 'offline', last_share_at: '2026-05-06T09:00:00.000Z' }),
      worker('rig3', { state: 'offline', last_share_at: null }),
      worker('rig4', { state: 'low' }),
      // The state, not the window's share, decides: a slow rig without a share in the window is not yet offline.
      worker('rig5', { state: 'online', last_share_at: '2026-05-06T11:45:00.000Z' }),
    ];
    expect(rows.map(statusText)).toEqual(['Online', 'Offline', 'Offline', 'Low hashrate', 'Online']);
    expect(rows.map((w) => lastShareText(w, NOW))).toEqual(['20 s ago', '3 h ago', '—', '20 s ago', '15 min ago']);
    expect(filterWorkers(rows, 'offline', NOW).map((w) => w.name)).toEqual(['rig2', 'rig3']);
    expect(filterWorkers(rows, 'LOW HASH', NOW).map((w) => w.name)).toEqual(['rig4']);
    expect(filterWorkers(rows, 'online', NOW).map((w) => w.name)).toEqual(['rig1', 'rig5']);
    expect(filterWorkers(rows, '3 h ago', NOW).map((w) => w.name)).toEqual(['rig2']);
  });

  it('filters by state and group before the search, and pages what is left', () => {
    const rows = [
      ...Array.from({ length: 12 }, (_, i) =>
        worker(`rack1-${i + 1}`, { group: 'rack1-', state: i < 2 ? 'offline' : 'online' }),
      ),
      worker('rack2-1', { group: 'rack2-', state: 'low' }),
      worker('spare', { state: 'offline' }),
    ];
    const rack1 = workersView(rows, { ...ALL, group: { kind: 'group', group: 'rack1-' } }, null, 2, NOW);
    expect(rack1.matching).toHaveLength(12);
    expect(rack1.window).toMatchObject({ page: 2, pageCount: 2 });
    expect(rack1.rows.map((w) => w.name)).toEqual(['rack1-11', 'rack1-12']);
    const offline = workersView(rows, { ...ALL, state: 'offline' }, { column: 'name', direction: 'desc' }, 1, NOW);
    expect(offline.rows.map((w) => w.name)).toEqual(['spare', 'rack1-2', 'rack1-1']);
    const searched = workersView(
      rows,
      { state: 'offline', group: { kind: 'group', group: 'rack1-' }, query: '-2' },
      null,
      1,
      NOW,
    );
    expect(searched.matching.map((w) => w.name)).toEqual(['rack1-2']);
    expect(workersView(rows, { ...ALL, group: { kind: 'ungrouped' } }, null, 1, NOW).matching).toHaveLength(1);
  });

  it('pages by 10, clamped, after search and sort', () => {
    const rows = Array.from({ length: 23 }, (_, i) => worker(`w${String(i + 1).padStart(2, '0')}`));
    const first = workersView(rows, ALL, { column: 'name', direction: 'desc' }, 1, NOW);
    expect(first.rows.map((w) => w.name).slice(0, 2)).toEqual(['w23', 'w22']);
    expect(first.window).toMatchObject({ page: 1, pageCount: 3, hasPrev: false, hasNext: true });
    const last = workersView(rows, ALL, null, 99, NOW);
    expect(last.window).toMatchObject({ page: 3, hasNext: false });
    expect(last.rows).toHaveLength(3);
    const searched = workersView(rows, { ...ALL, query: 'w1' }, null, 3, NOW);
    expect(searched.matching).toHaveLength(10);
    expect(searched.window.page).toBe(1);
  });
});

const w = (name: string, state: WorkerState, group: string | null) => ({ name, state, group });
const ROWS = [
  w('rack1-a', 'online', 'rack1-'),
  w('rack1-b', 'offline', 'rack1-'),
  w('rack10-a', 'low', 'rack10-'),
  w('rack2-a', 'online', 'rack2-'),
  w('spare', 'offline', null),
  w('lab', 'online', 'Basement'),
];
const ALL_GROUPS: GroupFilter = { kind: 'all' };

describe('worker filters', () => {
  it('keep workers by state and by group, both at once', () => {
    expect(applyWorkerFilters(ROWS, NO_FILTERS)).toEqual(ROWS);
    expect(applyWorkerFilters(ROWS, { state: 'offline', group: ALL_GROUPS }).map((r) => r.name)).toEqual([
      'rack1-b',
      'spare',
    ]);
    expect(
      applyWorkerFilters(ROWS, { state: 'offline', group: { kind: 'group', group: 'rack1-' } }).map((r) => r.name),
    ).toEqual(['rack1-b']);
    expect(applyWorkerFilters(ROWS, { state: 'all', group: { kind: 'ungrouped' } }).map((r) => r.name)).toEqual([
      'spare',
    ]);
  });

  it('count each state within the chosen group', () => {
    expect(stateCounts(ROWS, ALL_GROUPS)).toEqual({ all: 6, online: 3, low: 1, offline: 2 });
    expect(stateCounts(ROWS, { kind: 'group', group: 'rack1-' })).toEqual({ all: 2, online: 1, low: 0, offline: 1 });
    expect(stateCounts(ROWS, { kind: 'ungrouped' })).toEqual({ all: 1, online: 0, low: 0, offline: 1 });
    expect(stateCounts([], ALL_GROUPS)).toEqual({ all: 0, online: 0, low: 0, offline: 0 });
  });

  it('list the groups in natural order with their counts in the chosen state, the ungrouped last', () => {
    const options = groupOptions(ROWS, 'all', ALL_GROUPS).map((o) => `${o.label} (${o.count})`);
    expect(options).toEqual([
      'All groups (6)',
      'Basement (1)',
      'rack1- (2)',
      'rack2- (1)',
      'rack10- (1)',
      'Ungrouped (1)',
    ]);
    // A group with no worker in the state stays a choice, at 0.
    const online = groupOptions(ROWS, 'online', ALL_GROUPS).map((o) => `${o.label} (${o.count})`);
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
      ALL_GROUPS,
      { kind: 'ungrouped' },
      { kind: 'group', group: 'rack1-' },
      { kind: 'group', group: 'all' },
      { kind: 'group', group: 'group:odd' },
    ];
    for (const choice of choices) expect(parseGroupFilter(groupFilterValue(choice))).toEqual(choice);
    expect(groupFilterValue({ kind: 'group', group: 'all' })).not.toBe(groupFilterValue(ALL_GROUPS));
    expect(parseGroupFilter('nonsense')).toEqual(ALL_GROUPS);
  });
});
