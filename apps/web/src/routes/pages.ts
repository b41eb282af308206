import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * Every screen of the site other than home, with its title and its lazily loaded page.
 * Paths are relative to the site root.
 */
export interface PageRoute {
  path: string;
  title: string;
  page: LazyExoticComponent<ComponentType>;
}

export const PAGES: readonly PageRoute[] = [
  { path: 'stats', title: 'Detailed Pool Statistics', page: lazy(() => import('./stats/StatsPage')) },
  { path: 'blocks', title: 'Pool Blocks', page: lazy(() => import('./blocks/BlocksPage')) },
  {
    path: 'profitability',
    title: 'Mining Profitability',
    page: lazy(() => import('./profitability/ProfitabilityPage')),
  },
  { path: 'payouts', title: 'Pool Payouts', page: lazy(() => import('./payouts/PayoutsPage')) },
  { path: 'faq', title: 'Frequently Asked Questions', page: lazy(() => import('./faq/FaqPage')) },
  { path: 'lottery', title: 'Lottery', page: lazy(() => import('./lottery/LotteryPage')) },
  { path: 'get-started', title: 'Getting Started', page: lazy(() => import('./getStarted/GetStartedPage')) },
  { path: 'login', title: 'Login', page: lazy(() => import('./account/LoginPage')) },
  { path: 'register', title: 'Register', page: lazy(() => import('./account/RegisterPage')) },
  { path: 'dashboard', title: 'Dashboard', page: lazy(() => import('./dashboard/DashboardPage')) },
  { path: 'dashboard/overview', title: 'All accounts', page: lazy(() => import('./dashboard/overview/OverviewPage')) },
  {
    path: 'dashboard/:observerKey',
    title: 'Observer Dashboard',
    page: lazy(() => import('./dashboard/ObserverDashboardPage')),
  },
  { path: 'settings', title: 'Settings', page: lazy(() => import('./account/settings/SettingsPage')) },
  { path: 'privacy', title: 'Privacy Policy', page: lazy(() => import('./legal/PrivacyPage')) },
  { path: 'terms', title: 'Terms of Service', page: lazy(() => import('./legal/TermsPage')) },
  { path: 'referrals', title: 'Referrals', page: lazy(() => import('./account/ReferralsPage')) },
  { path: 'forgotPassword', title: 'Forgot Password', page: lazy(() => import('./account/ForgotPasswordPage')) },
  { path: 'newPassword', title: 'Reset Password', page: lazy(() => import('./account/ResetPasswordPage')) },
  {
    path: 'signature/:signature',
    title: 'Signature Verification',
    page: lazy(() => import('./signature/SignaturePage')),
  },
  { path: 'logo', title: 'Logo', page: lazy(() => import('./logo/LogoPage')) },
  { path: 'coupon', title: 'Coupon', page: lazy(() => import('./account/CouponPage')) },
  { path: 'unsubscribe', title: 'Unsubscribe', page: lazy(() => import('./account/UnsubscribePage')) },
  { path: 'powerbridge', title: 'Power Bridge', page: lazy(() => import('./powerBridge/PowerBridgePage')) },
  { path: 'sats4soup', title: 'Sats4Soup', page: lazy(() => import('./sats4soup/Sats4SoupPage')) },
  { path: 'overview', title: 'API Overview', page: lazy(() => import('./apiDocs/OverviewPage')) },
  { path: 'endpoints/get-pool-data', title: 'Get Pool Data', page: lazy(() => import('./apiDocs/GetPoolDataPage')) },
  {
    path: 'endpoints/get-pools-profits',
    title: 'Get Pools Profits',
    page: lazy(() => import('./apiDocs/GetPoolsProfitsPage')),
  },
  { path: 'endpoints/get-user-data', title: 'Get User Data', page: lazy(() => import('./apiDocs/GetUserDataPage')) },
  // Admins only: each screen sends visitors to /login and other users to / (routes/admin/access.ts).
  { path: 'admin/users', title: 'List of Users', page: lazy(() => import('./admin/UsersPage')) },
  { path: 'admin/logs', title: 'User logs', page: lazy(() => import('./admin/LogsPage')) },
  { path: 'admin/balance', title: 'Balance Admin', page: lazy(() => import('./admin/BalancePage')) },
  { path: 'admin/treasury', title: 'Treasury', page: lazy(() => import('./admin/TreasuryPage')) },
];
