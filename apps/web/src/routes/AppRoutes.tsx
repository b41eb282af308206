import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Layout } from '../components/layout/Layout';
import { HomePage } from './home/HomePage';
import { PAGES } from './pages';

const NotBuiltYet = lazy(() => import('../components/NotBuiltYet'));

/**
 * The spec's route table. Home is bundled with the app; every other screen is loaded on demand.
 * Static paths win over the `:source` catch-all, which renders home for any other single segment
 * (the referral landings arrive with their own issue); anything deeper goes back to "/".
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<HomePage />} />
        {PAGES.map(({ path, title, page: Page }) => (
          <Route key={path} path={path} element={Page ? <Page /> : <NotBuiltYet title={title} />} />
        ))}
        <Route path="api" element={<Navigate to="/overview" replace />} />
        <Route path=":source" element={<HomePage />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Routes>
  );
}
