import type { MiningWorkersPageResponse } from '@lodestone/contract';
import { groupFilterValue, parseGroupFilter, type WorkerFilters } from '@lodestone/domain';
import { useId } from 'react';
import { focusRing, inputClass } from '../../../components/form';
import { STATE_FILTERS } from './workerFilters';

/**
 * The state and group filters beside the workers' search (docs/dashboard.md, Worker groups): the states as a row of
 * toggle buttons with their counts, the groups as a list (a farm may have dozens).
 */
export function WorkerFilterControls({
  counts,
  groups,
  filters,
  onFilters,
}: {
  /** How many workers each choice keeps under the other filter, as the server counted them. */
  counts: MiningWorkersPageResponse['states'];
  groups: MiningWorkersPageResponse['groups'];
  filters: WorkerFilters;
  onFilters: (filters: WorkerFilters) => void;
}) {
  const groupId = useId();
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="worker-filters">
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset would bring its own frame and legend layout */}
      <div role="group" aria-label="Filter by state" className="inline-flex flex-wrap gap-1">
        {STATE_FILTERS.map((choice) => (
          <button
            key={choice.value}
            type="button"
            aria-pressed={filters.state === choice.value}
            data-testid={`state-filter-${choice.value}`}
            onClick={() => onFilters({ ...filters, state: choice.value })}
            className={`rounded-lg border px-2.5 py-1.5 text-sm whitespace-nowrap ${focusRing} ${
              filters.state === choice.value
                ? 'border-amber-500 bg-amber-50 font-semibold text-slate-900 dark:bg-amber-500/15 dark:text-white'
                : 'border-slate-300 text-slate-700 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800'
            }`}
          >
            {choice.label}{' '}
            <span className="tabular-nums text-slate-500 dark:text-slate-400">({counts[choice.value]})</span>
          </button>
        ))}
      </div>
      <label htmlFor={groupId} className="sr-only">
        Filter by group
      </label>
      <select
        id={groupId}
        data-testid="group-filter"
        className={`${inputClass} w-auto max-w-56`}
        value={groupFilterValue(filters.group)}
        onChange={(event) => onFilters({ ...filters, group: parseGroupFilter(event.target.value) })}
      >
        {groups.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label} ({option.count})
          </option>
        ))}
      </select>
    </div>
  );
}
