import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSite } from '../../api/queries';
import { BrandMark } from '../../components/BrandMark';
import { FormMessage, focusRing, linkClass, primaryButtonClass } from '../../components/form';
import { ThemeToggle } from '../../components/ThemeToggle';
import { useDocumentTitle } from '../../lib/useDocumentTitle';

/**
 * The frame of the pages shown without nav and footer (login, register, forgot and reset password):
 * the pool's mark linking home, a card with the title and the form, and a line of links below it.
 */
export function AuthShell({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  useDocumentTitle(title);
  const poolName = useSite().data?.pool_name;
  return (
    <div className="flex min-h-dvh flex-col items-center bg-slate-50 px-4 py-10 sm:py-16 dark:bg-slate-950">
      <div className="flex w-full max-w-md items-center justify-between">
        <Link to="/" className={`flex items-center gap-2 rounded-md ${focusRing}`} aria-label={poolName ?? 'Home'}>
          <BrandMark className="size-9" />
          <span className="text-lg font-bold tracking-tight text-slate-900 dark:text-white">{poolName}</span>
        </Link>
        <ThemeToggle className="text-slate-700 hover:bg-slate-200 dark:text-slate-200 dark:hover:bg-slate-800" />
      </div>
      <section className="mt-8 w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">{title}</h1>
        {subtitle && <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </section>
      {footer && (
        <div className="mt-6 w-full max-w-md space-y-2 text-center text-sm text-slate-600 dark:text-slate-400">
          {footer}
        </div>
      )}
    </div>
  );
}

/** A line of the footer: an optional lead-in, then the link. */
export function FooterLink({ lead, to, children }: { lead?: string; to: string; children: ReactNode }) {
  return (
    <p>
      {lead && <>{lead} </>}
      <Link to={to} className={linkClass}>
        {children}
      </Link>
    </p>
  );
}

/**
 * The foot of the card's form: its one message, then the full-width submit button, which says the second of `labels`
 * while the call runs; `instead` stands in for the button (the reset page's link to login).
 */
export function SubmitRow({
  message,
  pending,
  labels: [label, pendingLabel],
  instead,
}: {
  message: { error?: string | null; success?: string | null };
  pending: boolean;
  labels: readonly [string, string];
  instead?: ReactNode;
}) {
  return (
    <>
      <FormMessage error={message.error} success={message.success} />
      {instead ?? (
        <button type="submit" className={`${primaryButtonClass} w-full`} disabled={pending}>
          {pending ? pendingLabel : label}
        </button>
      )}
    </>
  );
}
