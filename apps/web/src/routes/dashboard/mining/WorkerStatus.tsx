import { statusText, type WorkerRow } from '@lodestone/domain';

const LOOK: Record<WorkerRow['state'], { text: string; dot: string }> = {
  online: { text: 'text-emerald-700 dark:text-emerald-400', dot: 'bg-emerald-500' },
  low: { text: 'text-amber-700 dark:text-amber-400', dot: 'bg-amber-500' },
  offline: { text: 'text-slate-500 dark:text-slate-400', dot: 'bg-slate-400' },
};

/** A worker's state as the Status column and its own view show it: a coloured dot and the words. */
export function WorkerStatus({ state, testId }: { state: WorkerRow['state']; testId?: string }) {
  const look = LOOK[state];
  return (
    <span data-testid={testId} className={`inline-flex items-center gap-1.5 whitespace-nowrap ${look.text}`}>
      <span aria-hidden="true" className={`size-2 rounded-full ${look.dot}`} />
      {statusText({ state })}
    </span>
  );
}
