import type { PageWindow } from '@lodestone/domain';
import { Fragment, type ReactNode, useId } from 'react';
import { secondaryButtonClass } from './form';

/** Small presentational pieces shared by the dashboard's tabs and the public statistics screens. */

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

/**
 * One figure of a grid of cards (the Mining tab's four, the stats page's eight). On a phone a card is
 * half the screen: a figure and its unit may go on two lines, but a number is never broken, and the
 * card never grows past its column (which would widen the page).
 */
export function StatCard({
  label,
  value,
  testId,
  hint,
  wrap = 'unit',
}: {
  label: string;
  value: string;
  testId: string;
  /** What the figure is measured over ("last 24 h"), beside the label. */
  hint?: string;
  /**
   * Where the figure may wrap: `unit`, only between a number and its unit ("512.35 / Th/s"); `words`, at any of its
   * spaces, for figures that are phrases ("1 in 5.97 / million days"). No word ever breaks.
   */
  wrap?: 'unit' | 'words';
}) {
  const space = value.indexOf(' ');
  const parts =
    space < 0 ? [value] : wrap === 'words' ? value.split(' ') : [value.slice(0, space), value.slice(space + 1)];
  return (
    <div className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5 dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-sm text-slate-500 dark:text-slate-400">
        {label}
        {hint && (
          <>
            {' '}
            <span className="text-xs text-slate-400 dark:text-slate-500">({hint})</span>
          </>
        )}
      </dt>
      <dd
        data-testid={testId}
        className="mt-1 text-lg font-semibold text-slate-900 tabular-nums sm:text-2xl dark:text-white"
      >
        {parts.map((part, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
          <Fragment key={i}>
            {i > 0 && ' '}
            <span className="whitespace-nowrap">{part}</span>
          </Fragment>
        ))}
      </dd>
    </div>
  );
}

/**
 * Prev, 'Page X of Y', Next (Prev disabled on page 1, Next on the last: docs/website.md, Lists, refresh and copying).
 */
export function Pager({
  window: paging,
  onPage,
  testId,
  label,
  navTestId,
  previousLabel = 'Prev',
  nextLabel = 'Next',
}: {
  window: PageWindow;
  onPage: (page: number) => void;
  /** The 'Page X of Y' text's test id; `navTestId` is the whole pager's. */
  testId: string;
  label: string;
  navTestId?: string;
  previousLabel?: string;
  nextLabel?: string;
}) {
  return (
    <nav
      aria-label={`${label} pages`}
      data-testid={navTestId}
      className="mt-4 flex items-center justify-between gap-2 text-sm"
    >
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={!paging.hasPrev}
        onClick={() => onPage(paging.page - 1)}
      >
        {previousLabel}
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
        {nextLabel}
      </button>
    </nav>
  );
}
