import { type ReactNode, useEffect, useId, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { AlgorithmSelector } from '../AlgorithmSelector';
import { BrandMark } from '../BrandMark';
import { CloseIcon, LogoutIcon, MenuIcon, SettingsIcon } from '../icons';
import { ThemeToggle } from '../ThemeToggle';

interface Props {
  poolName: string | undefined;
  isLoggedIn: boolean;
  /** Transparent with light text while the home hero is under the bar; solid otherwise. */
  overHero: boolean;
  showAlgorithmSelector: boolean;
  onLogout: () => void;
  /** Shown above the bar, inside the sticky header, so it stays in sight (the admin-session banner). */
  notice?: ReactNode;
}

interface NavItem {
  to: string;
  label: string;
  loggedInOnly?: boolean;
}

const ITEMS: readonly NavItem[] = [
  { to: '/', label: 'Home' },
  { to: '/get-started', label: 'Getting Started', loggedInOnly: true },
  { to: '/stats', label: 'Stats' },
  { to: '/blocks', label: 'Blocks' },
  { to: '/profitability', label: 'Profitability' },
  { to: '/payouts', label: 'Payouts' },
];

const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-500';
const primaryButton = `inline-flex items-center justify-center rounded-lg bg-amber-500 px-4 py-2 text-sm font-semibold text-slate-950 shadow-sm hover:bg-amber-400 ${focusRing}`;

/** The top bar of every page but the bare ones (docs/website.md, Layout and navigation); a menu panel below 1024 px. */
export function SiteNav({ poolName, isLoggedIn, overHero, showAlgorithmSelector, onLogout, notice }: Props) {
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  const menuId = useId();
  const transparent = overHero && !menuOpen;

  // The menu closes on navigation and on Escape.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger.
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  const items = ITEMS.filter((item) => isLoggedIn || !item.loggedInOnly);
  const tone = transparent ? 'text-white' : 'text-slate-700 dark:text-slate-200';
  const hover = transparent ? 'hover:bg-white/10' : 'hover:bg-slate-100 dark:hover:bg-slate-800';
  const secondaryButton = `inline-flex items-center justify-center rounded-lg border px-4 py-2 text-sm font-semibold ${focusRing} ${
    transparent
      ? 'border-white/40 text-white hover:bg-white/10'
      : 'border-slate-300 text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800'
  }`;
  const iconButton = `inline-flex size-9 items-center justify-center rounded-lg ${hover} ${focusRing}`;

  const linkClass = (isActive: boolean) =>
    `rounded-md px-3 py-2 text-sm font-medium ${focusRing} ${hover} ${
      isActive ? (transparent ? 'text-amber-300' : 'text-amber-600 dark:text-amber-400') : ''
    }`;
  // The bar (wide screens) and the menu panel show the same links and actions.
  const links = (block: string) =>
    items.map((item) => (
      <li key={item.to}>
        <NavLink to={item.to} end={item.to === '/'} className={({ isActive }) => `${block}${linkClass(isActive)}`}>
          {item.label}
        </NavLink>
      </li>
    ));
  const accountActions = (
    <AccountActions
      isLoggedIn={isLoggedIn}
      onLogout={onLogout}
      secondaryButton={secondaryButton}
      iconButton={iconButton}
    />
  );

  return (
    <header className="sticky top-0 z-40">
      {notice}
      <nav
        data-testid="site-nav"
        data-variant={transparent ? 'transparent' : 'solid'}
        aria-label="Main"
        className={`transition-colors duration-300 ${tone} ${
          transparent
            ? 'border-b border-transparent bg-transparent'
            : 'border-b border-slate-200 bg-white/95 shadow-sm backdrop-blur dark:border-slate-800 dark:bg-slate-900/95'
        }`}
      >
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6">
          <Link
            to="/"
            className={`mr-2 flex items-center gap-2 rounded-md ${focusRing}`}
            aria-label={poolName ?? 'Pool'}
          >
            <BrandMark className="size-8" />
            <span className="hidden text-lg font-bold tracking-tight sm:inline">{poolName}</span>
          </Link>

          <ul className="hidden items-center gap-1 lg:flex">{links('')}</ul>

          <div className="ml-auto flex items-center gap-2">
            {showAlgorithmSelector && <AlgorithmSelector />}
            <div className="hidden items-center gap-2 lg:flex">{accountActions}</div>
            <ThemeToggle className={hover} />
            <button
              type="button"
              data-testid="hamburger"
              className={`${iconButton} lg:hidden`}
              aria-expanded={menuOpen}
              aria-controls={menuOpen ? menuId : undefined}
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? <CloseIcon className="size-6" /> : <MenuIcon className="size-6" />}
            </button>
          </div>
        </div>

        {menuOpen && (
          <div id={menuId} className="border-t border-slate-200 px-4 pt-2 pb-4 lg:hidden dark:border-slate-800">
            <ul className="flex flex-col gap-1">{links('block ')}</ul>
            <div className="mt-3 flex flex-wrap items-center gap-2 border-t border-slate-200 pt-3 dark:border-slate-800">
              {accountActions}
            </div>
          </div>
        )}
      </nav>
    </header>
  );
}

/** Logged out: Get Started and Login. Logged in: Dashboard, settings and logout. */
function AccountActions({
  isLoggedIn,
  onLogout,
  secondaryButton,
  iconButton,
}: {
  isLoggedIn: boolean;
  onLogout: () => void;
  secondaryButton: string;
  iconButton: string;
}) {
  if (isLoggedIn) {
    return (
      <>
        <Link to="/dashboard" data-testid="dashboard-link" className={primaryButton}>
          Dashboard
        </Link>
        <Link to="/settings" data-testid="settings-link" className={iconButton} aria-label="Settings" title="Settings">
          <SettingsIcon />
        </Link>
        <button
          type="button"
          data-testid="logout"
          onClick={onLogout}
          className={iconButton}
          aria-label="Log out"
          title="Log out"
        >
          <LogoutIcon />
        </button>
      </>
    );
  }
  return (
    <>
      <Link to="/register" data-testid="get-started-link" className={primaryButton}>
        Get Started
      </Link>
      <Link to="/login" data-testid="login-link" className={secondaryButton}>
        Login
      </Link>
    </>
  );
}
