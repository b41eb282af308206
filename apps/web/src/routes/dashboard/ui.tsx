import type { PageWindow } from '@lodestone/domain';
import { type ReactNode, useId } from 'react';
import { secondaryButtonClass } from '../../components/form';

/** Small presentational pieces shared by the dashboard's tabs. */

export const tableClass = 'min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800';
export const headerCellClass =
  'px-3 py-2.5 text-left text-xs font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase dark:text-slate-400';
export const cellClass = 'px-3 py-2.5 whitespace-nowrap tabular-nums';

/** A titled white card, like the account screens' panels. */
export function Section({
  title,
  actions,
  children,
  testId,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const headingId = useId();
  return (
    <section
      data-testid={testId}
      aria-labelledby={headingId}
      className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
          {title}
        </h2>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** One figure of the Mining tab's four cards. */
export function StatCard({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5 dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-sm text-slate-500 dark:text-slate-400">{label}</dt>
      <dd
        data-testid={testId}
        className="mt-1 text-xl font-semibold text-slate-900 tabular-nums sm:text-2xl dark:text-white"
      >
        {value}
      </dd>
    </div>
  );
}

/** Prev, 'Page X of Y', Next (spec 4: Prev disabled on page 1, Next on the last). */
export function Pager({
  window: paging,
  onPage,
  testId,
  label,
}: {
  window: PageWindow;
  onPage: (page: number) => void;
  testId: string;
  label: string;
}) {
  return (
    <nav aria-label={`${label} pages`} className="mt-4 flex items-center justify-between gap-2 text-sm">
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={!paging.hasPrev}
        onClick={() => onPage(paging.page - 1)}
      >
        Prev
      </button>
      <span data-testid={testId} aria-live="polite" className="text-slate-600 dark:text-slate-300">
        Page {paging.page} of {paging.pageCount}
      </span>
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={!paging.hasNext}
        onClick={() => onPage(paging.page + 1)}
      >
        Next
      </button>
    </nav>
  );
}

/** Loading and failure of one block of the dashboard (the failure is already logged by the query client). */
export function QueryState({ isPending, error, what }: { isPending: boolean; error: Error | null; what: string }) {
  if (isPending) {
    return (
      <p role="status" className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">
        Loading {what}…
      </p>
    );
  }
  if (error) {
    return (
      <p role="alert" className="py-6 text-center text-sm text-red-700 dark:text-red-400">
        {`The ${what} could not be loaded: ${error.message.replace(/\.$/, '')}. Trying again every 30 seconds.`}
      </p>
    );
  }
  return null;
}

/** A row spanning the whole table: empty lists and "no match". */
export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-3 py-8 text-center text-slate-500 dark:text-slate-400">
        {children}
      </td>
    </tr>
  );
}

/** A column heading of DataTable; numbers are right-aligned. */
export interface Column {
  label: string;
  align?: 'right';
}

/**
 * A scrolling table with one heading row and its rows, or one `empty` row spanning the table when
 * there are none.
 */
export function DataTable<T>({
  testId,
  columns,
  rows,
  empty,
  row,
  className = 'mt-3',
}: {
  testId: string;
  columns: readonly Column[];
  rows: readonly T[];
  empty: ReactNode;
  row: (item: T) => ReactNode;
  className?: string;
}) {
  return (
    <div className={className ? `${className} overflow-x-auto` : 'overflow-x-auto'}>
      <table className={tableClass} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c.label}
                scope="col"
                className={c.align === 'right' ? `${headerCellClass} text-right` : headerCellClass}
              >
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.length === 0 ? <EmptyRow colSpan={columns.length}>{empty}</EmptyRow> : rows.map(row)}
        </tbody>
      </table>
    </div>
  );
}
