import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Layout } from '../components/layout/Layout';
import { HomePage } from './home/HomePage';
import { REFERRAL_SOURCES } from './landing/sources';
import { PAGES } from './pages';

const ReferralLanding = lazy(() => import('./landing/ReferralLanding'));

/**
 * The site's route table. Home is bundled with the app; every other screen is loaded on demand.
 * Static paths win over the `:source` catch-all, which renders home for any other single segment
 * except the referral landings, which record their source and go to "/"; anything deeper goes back to "/".
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        {PAGES.map(({ path, page: Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="api" element={<Navigate to="/overview" replace />} />
        {REFERRAL_SOURCES.map((source) => (
          <Route key={source} path={source} element={<ReferralLanding source={source} />} />
        ))}
        <Route path=":source" element={<HomePage />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
