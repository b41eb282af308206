import { type ReactNode, useEffect } from 'react';
import { OfflineNotice } from '../../components/OfflineNotice';
import { registerServiceWorker } from '../../sw/register';
import { type TabId, TabList, useTabIds } from './Tabs';

/**
 * The frame both dashboards share: heading and controls, an optional banner, the tab list and the
 * selected tab's panel. Only the selected panel is mounted, so changing tab loads that tab afresh
 * (docs/dashboard.md, The screens).
 */
export function DashboardFrame({
  title,
  subtitle,
  controls,
  banner,
  tab,
  onTab,
  mining,
  revenue,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  controls?: ReactNode;
  banner?: ReactNode;
  tab?: TabId;
  onTab?: (tab: TabId) => void;
  mining?: ReactNode;
  revenue?: ReactNode;
  children?: ReactNode;
}) {
  const ids = useTabIds();
  // The worker is for the dashboards: registered when one is first opened, so a visitor who never opens one does
  // not download the dashboards' files (docs/dashboard.md, Installing the dashboard). Production builds only: Vite's
  // dev server has no built files to store, and tests have no worker.
  useEffect(() => {
    if (import.meta.env.PROD) registerServiceWorker();
  }, []);
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:py-10" data-testid="dashboard">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 dark:text-white">{title}</h1>
          {subtitle && <p className="mt-1 text-slate-600 dark:text-slate-400">{subtitle}</p>}
        </div>
        {controls}
      </header>
      <OfflineNotice />
      {banner && <div className="mt-6">{banner}</div>}
      {tab && onTab && (
        <>
          <div className="mt-6">
            <TabList selected={tab} onSelect={onTab} ids={ids} />
          </div>
          <div
            role="tabpanel"
            id={ids.panel(tab)}
            aria-labelledby={ids.tab(tab)}
            data-testid={`panel-${tab}`}
            className="mt-6"
          >
            {tab === 'mining' ? mining : revenue}
          </div>
        </>
      )}
      {children && <div className="mt-6">{children}</div>}
    </div>
  );
}
