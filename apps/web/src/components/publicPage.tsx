import type { ReactNode } from 'react';

/** Pieces shared by the public pages (stats, profitability, payouts, FAQ, campaign and legal pages). */

/** The page's title (its fixed text) and an optional line under it. */
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
