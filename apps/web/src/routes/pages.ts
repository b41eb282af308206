import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/**
 * Every screen of the spec's route table other than home, with its title. A screen that is not built
 * yet has no `page` and shows the shared NotBuiltYet notice; building it means adding
 * `page: lazy(() => import('./stats/StatsPage'))` here. Paths are relative to the site root.
 */
export interface PageRoute {
  path: string;
  title: string;
  page?: LazyExoticComponent<ComponentType>;
}

export const PAGES: readonly PageRoute[] = [
  { path: 'stats', title: 'Detailed Pool Statistics' },
  { path: 'profitability', title: 'Mining Profitability' },
  { path: 'payouts', title: 'Pool Payouts' },
  { path: 'faq', title: 'Frequently Asked Questions' },
  { path: 'lottery', title: 'Lottery' },
  { path: 'get-started', title: 'Getting Started', page: lazy(() => import('./getStarted/GetStartedPage')) },
  { path: 'login', title: 'Login', page: lazy(() => import('./account/LoginPage')) },
  { path: 'register', title: 'Register', page: lazy(() => import('./account/RegisterPage')) },
  { path: 'dashboard', title: 'Dashboard' },
  { path: 'dashboard/:observerKey', title: 'Observer Dashboard' },
  { path: 'settings', title: 'Settings', page: lazy(() => import('./account/settings/SettingsPage')) },
  { path: 'privacy', title: 'Privacy Policy' },
  { path: 'terms', title: 'Terms of Service' },
  { path: 'referrals', title: 'Referrals', page: lazy(() => import('./account/ReferralsPage')) },
  { path: 'forgotPassword', title: 'Forgot Password', page: lazy(() => import('./account/ForgotPasswordPage')) },
  { path: 'newPassword', title: 'Reset Password', page: lazy(() => import('./account/ResetPasswordPage')) },
  { path: 'signature/:signature', title: 'Signature Verification' },
  { path: 'logo', title: 'Logo' },
  { path: 'coupon', title: 'Coupon', page: lazy(() => import('./account/CouponPage')) },
  { path: 'powerbridge', title: 'Power Bridge' },
  { path: 'sats4soup', title: 'Sats4Soup' },
  { path: 'overview', title: 'API Overview' },
  { path: 'endpoints/get-pool-data', title: 'Get Pool Data' },
  { path: 'endpoints/get-pools-profits', title: 'Get Pools Profits' },
  { path: 'endpoints/get-user-data', title: 'Get User Data' },
  { path: 'admin/users', title: 'List of Users' },
  { path: 'admin/logs', title: 'User Logs' },
  { path: 'admin/balance', title: 'Balance Admin' },
];
