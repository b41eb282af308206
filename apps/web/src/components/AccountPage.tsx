import type { ReactNode } from 'react';
import { useDocumentTitle } from '../lib/useDocumentTitle';

/** The frame of the logged-in account screens (settings, referrals, coupon) inside the site layout. */
export function AccountPage({
  title,
  intro,
  actions,
  children,
  width = 'max-w-5xl',
}: {
  title: string;
  intro?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  width?: string;
}) {
  useDocumentTitle(title);
  return (
    <div className={`mx-auto ${width} px-4 py-10 sm:px-6 lg:py-14`}>
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">{title}</h1>
          {intro && <p className="mt-2 max-w-2xl text-slate-600 dark:text-slate-400">{intro}</p>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </header>
      <div className="mt-8 space-y-8">{children}</div>
    </div>
  );
}

/** A titled card section. */
export function Panel({
  title,
  description,
  children,
  testId,
  actions,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  testId?: string;
  actions?: ReactNode;
}) {
  return (
    <section
      data-testid={testId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{title}</h2>
          {description && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** What a screen shows while its data loads, or when the call failed (already logged by the query client). */
export function LoadState({ isPending, error }: { isPending: boolean; error: Error | null }) {
  if (isPending) {
    return (
      <p role="status" className="py-12 text-center text-slate-500 dark:text-slate-400">
        Loading…
      </p>
    );
  }
  if (error) {
    return (
      <p role="alert" className="py-12 text-center text-red-600 dark:text-red-400">
        {error.message}
      </p>
    );
  }
  return null;
}
