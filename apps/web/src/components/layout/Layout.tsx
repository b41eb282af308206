import { Suspense, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useSite } from '../../api/queries';
import { setLoginRedirect } from '../../api/unauthorized';
import { useLogout } from '../../api/useLogout';
import { useIsLoggedIn } from '../../state/hooks';
import { BannerBar } from './BannerBar';
import { type Chrome, ChromeContext } from './chrome';
import { ImpersonationBanner } from './ImpersonationBanner';
import { PageBoundary } from './PageBoundary';
import { hidesSiteChrome } from './paths';
import { ScrollToTop } from './ScrollToTop';
import { SiteFooter } from './SiteFooter';
import { SiteNav } from './SiteNav';

/** The shared layout around every route: banner (home), nav, page, footer. */
export function Layout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const site = useSite().data;
  const [isLoggedIn] = useIsLoggedIn();
  const [onHome, setOnHome] = useState(false);
  const [heroInView, setHeroInView] = useState(false);
  const chrome = useMemo<Chrome>(() => ({ onHome, heroInView, setOnHome, setHeroInView }), [onHome, heroInView]);
  const bare = hidesSiteChrome(pathname);

  // A 401 from any call goes to /login through the router (docs/website.md, Session); see api/unauthorized.ts.
  useEffect(() => setLoginRedirect(() => navigate('/login')), [navigate]);

  // Logout (docs/website.md, Session): result true → "/" with the flag cleared; false → /dashboard (useLogout.ts).
  const endSession = useLogout();
  const logout = async () => {
    try {
      await endSession();
    } catch (error) {
      // A 401 has already cleared the flag and gone to /login; anything else leaves the session as it is.
      console.error('Logout failed:', error);
    }
  };

  // An admin logged in as a user sees so on every page, bare ones too (docs/admin.md, Logging in as a user).
  const impersonation = <ImpersonationBanner isLoggedIn={isLoggedIn} onLogout={logout} />;

  return (
    <ChromeContext.Provider value={chrome}>
      <ScrollToTop />
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-amber-500 px-4 py-2 font-semibold text-slate-950 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <div className="flex min-h-dvh flex-col">
        {!bare && onHome && <BannerBar />}
        {bare ? (
          impersonation
        ) : (
          <SiteNav
            poolName={site?.pool_name}
            isLoggedIn={isLoggedIn}
            overHero={onHome && heroInView}
            showAlgorithmSelector={!onHome}
            onLogout={logout}
            notice={impersonation}
          />
        )}
        <main id="main" className="flex-1">
          <PageBoundary key={pathname}>
            <Suspense fallback={<PageLoading />}>
              <Outlet />
            </Suspense>
          </PageBoundary>
        </main>
        {!bare && <SiteFooter site={site} />}
      </div>
    </ChromeContext.Provider>
  );
}

function PageLoading() {
  return (
    <p role="status" className="px-4 py-24 text-center text-slate-500 dark:text-slate-400">
      Loading…
    </p>
  );
}
