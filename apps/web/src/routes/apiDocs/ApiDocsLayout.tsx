import { type ReactNode, useEffect, useId, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { focusRing } from '../../components/form';
import { ChevronDownIcon, CloseIcon, MenuIcon } from '../../components/icons';
import { ENDPOINTS } from './endpoints';

const itemClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2 text-sm ${focusRing} ${
    isActive
      ? 'bg-amber-100 font-semibold text-amber-900 dark:bg-amber-500/15 dark:text-amber-300'
      : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
  }`;

/**
 * The API docs' frame (docs/website.md, API docs): a sidebar with the overview and a collapsible Endpoints
 * group; below the large breakpoint the sidebar folds into a menu button. The menu closes itself
 * when a page is chosen.
 */
export function ApiDocsLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [endpointsOpen, setEndpointsOpen] = useState(true);
  const groupId = useId();
  const sidebarId = useId();

  // A page was chosen from the menu (or Back was pressed): fold the phone menu again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every change of page, by design.
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:flex lg:gap-10 lg:py-12" data-testid="api-docs">
      <div className="mb-6 lg:hidden">
        <button
          type="button"
          data-testid="api-docs-menu"
          aria-expanded={menuOpen}
          aria-controls={sidebarId}
          onClick={() => setMenuOpen((o) => !o)}
          className={`inline-flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm font-semibold text-slate-800 dark:border-slate-700 dark:text-slate-100 ${focusRing}`}
        >
          {menuOpen ? <CloseIcon className="size-5" /> : <MenuIcon className="size-5" />}
          API menu
        </button>
      </div>
      <nav
        id={sidebarId}
        aria-label="API documentation"
        data-testid="api-docs-sidebar"
        className={`${menuOpen ? 'block' : 'hidden'} mb-8 shrink-0 rounded-xl border border-slate-200 p-3 lg:sticky lg:top-24 lg:mb-0 lg:block lg:w-64 lg:self-start dark:border-slate-800`}
      >
        <ul className="space-y-1">
          <li>
            <NavLink to="/overview" className={itemClass}>
              Overview
            </NavLink>
          </li>
          <li>
            <button
              type="button"
              aria-expanded={endpointsOpen}
              aria-controls={groupId}
              data-testid="api-docs-endpoints"
              onClick={() => setEndpointsOpen((o) => !o)}
              className={`flex w-full items-center justify-between rounded-md px-3 py-2 text-left text-sm font-semibold text-slate-900 hover:bg-slate-100 dark:text-white dark:hover:bg-slate-800 ${focusRing}`}
            >
              Endpoints
              <ChevronDownIcon className={`size-4 transition-transform ${endpointsOpen ? 'rotate-180' : ''}`} />
            </button>
            <ul
              id={groupId}
              hidden={!endpointsOpen}
              className="mt-1 space-y-1 border-l border-slate-200 pl-2 dark:border-slate-800"
            >
              {ENDPOINTS.map((e) => (
                <li key={e.route}>
                  <NavLink to={`/${e.route}`} className={itemClass}>
                    {e.title}
                  </NavLink>
                </li>
              ))}
            </ul>
          </li>
        </ul>
      </nav>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
