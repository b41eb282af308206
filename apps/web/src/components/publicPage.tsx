import type { ReactNode } from 'react';

/** Pieces shared by the public pages (stats, profitability, payouts, FAQ, campaign and legal pages). */

/** The page's title (its exact spec text) and an optional line under it. */
export function PageHeader({ title, children, actions }: { title: string; children?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">{title}</h1>
        {children && <div className="mt-2 text-slate-600 dark:text-slate-400">{children}</div>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </header>
  );
}

/**
 * Loading and failure of one block of a public page. The failure names the reason (the query client
 * has already logged it) and says what happens next, so an empty block never reads as "no data".
 */
export function LoadState({
  isPending,
  error,
  what,
  retry,
  testId,
}: {
  isPending: boolean;
  error: Error | null;
  what: string;
  /** What happens next, e.g. "Trying again every 30 seconds." Default: reload the page. */
  retry?: string;
  testId?: string;
}) {
  if (isPending) {
    return (
      <p
        role="status"
        data-testid={testId && `${testId}-loading`}
        className="py-6 text-center text-sm text-slate-500 dark:text-slate-400"
      >
        Loading {what}…
      </p>
    );
  }
  if (error) {
    return (
      <p
        role="alert"
        data-testid={testId && `${testId}-error`}
        className="py-6 text-center text-sm text-red-700 dark:text-red-400"
      >
        {`The ${what} could not be loaded: ${error.message.replace(/\.$/, '')}. ${retry ?? 'Please reload the page to try again.'}`}
      </p>
    );
  }
  return null;
}
