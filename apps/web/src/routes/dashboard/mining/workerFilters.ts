import type { StateFilter } from '@lodestone/domain';

/**
 * The workers table's two filters beside its search (docs/dashboard.md, Worker groups): by state and by group. The
 * rules are the domain's (packages/domain/src/workerList.ts); this holds the state choices' words.
 */
export const STATE_FILTERS: readonly { value: StateFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'online', label: 'Online' },
  { value: 'low', label: 'Low' },
  { value: 'offline', label: 'Offline' },
];
