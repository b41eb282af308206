import type { ReactNode } from 'react';

/** A heading inside Payments and Earnings, with an optional action on its right. */
export function SubHeading({ title, action }: { title: string; action?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <h3 className="text-base font-semibold text-slate-900 dark:text-white">{title}</h3>
      {action}
    </div>
  );
}
