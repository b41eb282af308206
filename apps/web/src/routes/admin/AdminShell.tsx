import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { useUserInfo } from '../../api/queries';
import { AccountPage, LoadState } from '../../components/AccountPage';
import { focusRing } from '../../components/form';
import { adminAccess, adminRedirect } from './access';

const TABS = [
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/logs', label: 'Logs' },
  { to: '/admin/balance', label: 'Balance' },
] as const;

/**
 * The frame of the admin screens: the session check first (visitors → /login, other users → /),
 * then the page with links between the three tools. Nothing of a screen renders, and none of its
 * calls run, before the check says admin.
 */
export function AdminShell({ title, children, width }: { title: string; children: ReactNode; width?: string }) {
  const info = useUserInfo();
  const navigate = useNavigate();
  const access = adminAccess(info);
  const redirect = adminRedirect(access);

  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect, navigate]);

  if (access !== 'admin') {
    return (
      <div className="mx-auto max-w-xl px-4 py-10">
        <LoadState isPending={access !== 'failed'} error={access === 'failed' ? info.error : null} />
      </div>
    );
  }
  return (
    <AccountPage
      title={title}
      width={width}
      actions={
        <nav aria-label="Admin tools" className="flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
          {TABS.map((tab) => (
            <NavLink
              key={tab.to}
              to={tab.to}
              className={({ isActive }) =>
                `rounded-md px-3 py-1.5 text-sm font-medium ${focusRing} ${
                  isActive
                    ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-900 dark:text-white'
                    : 'text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white'
                }`
              }
            >
              {tab.label}
            </NavLink>
          ))}
        </nav>
      }
    >
      {children}
    </AccountPage>
  );
}

/** Prev / 'Page X of Y' / Next, disabled at the ends (docs/website.md, Lists, refresh and copying). */
export function Pager({
  page,
  pageCount,
  onPage,
  previousLabel,
  nextLabel,
  testId,
}: {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  previousLabel: string;
  nextLabel: string;
  testId: string;
}) {
  const button = `rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 ${focusRing}`;
  return (
    <div data-testid={testId} className="mt-4 flex items-center justify-between gap-3">
      <button type="button" className={button} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {previousLabel}
      </button>
      <span data-testid={`${testId}-status`} className="text-sm text-slate-600 dark:text-slate-400">
        Page {page} of {pageCount}
      </span>
      <button type="button" className={button} disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        {nextLabel}
      </button>
    </div>
  );
}
