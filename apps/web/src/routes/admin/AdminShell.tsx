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
  { to: '/admin/treasury', label: 'Treasury' },
] as const;

/**
 * The frame of the admin screens: the session check first (visitors → /login, other users → /),
 * then the page with links between the tools. Nothing of a screen renders, and none of its
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
