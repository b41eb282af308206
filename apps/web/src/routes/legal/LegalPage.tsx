import type { ReactNode } from 'react';
import { useSite } from '../../api/queries';
import { NOT_CONFIGURED, supportEmail } from '../../lib/contacts';

/** The frame of the two legal pages: a readable column, numbered sections, the operator's contact. */
export function LegalPage({
  title,
  updated,
  children,
  testId,
}: {
  title: string;
  updated: string;
  children: ReactNode;
  testId: string;
}) {
  return (
    <article data-testid={testId} className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">{title}</h1>
      <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">Last updated: {updated}</p>
      <div className="mt-8 space-y-8 text-slate-700 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_li]:ml-5 [&_li]:list-disc [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:space-y-1 dark:text-slate-300 dark:[&_h2]:text-white">
        {children}
      </div>
    </article>
  );
}

/** The operator's name and support address from the site configuration (GET /v1/site). */
export function useOperator(): {
  poolName: string;
  email: ReactNode;
  feePercent: number | undefined;
  soloFeePercent: number | undefined;
} {
  const site = useSite().data;
  const contact = supportEmail(site);
  return {
    poolName: site?.pool_name ?? 'the pool',
    email:
      contact?.configured && contact.href ? (
        <a href={contact.href} className="font-medium text-amber-700 hover:underline dark:text-amber-400">
          {contact.text}
        </a>
      ) : contact && !contact.configured ? (
        // Still the built-in placeholder: say so rather than print a made-up address.
        <em>the operator's support e-mail ({NOT_CONFIGURED} yet: SUPPORT_EMAIL)</em>
      ) : (
        'the support address in the page footer'
      ),
    feePercent: site?.fee_percent,
    soloFeePercent: site?.solo_fee_percent,
  };
}
