import { describe, expect, it } from 'vitest';
import { PAGES } from './pages';

describe('route table', () => {
  it('registers every screen of the site', () => {
    const paths = PAGES.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'stats',
        'blocks',
        'profitability',
        'payouts',
        'faq',
        'lottery',
        'get-started',
        'login',
        'register',
        'dashboard',
        'dashboard/overview',
        'dashboard/:observerKey',
        'settings',
        'privacy',
        'terms',
        'referrals',
        'forgotPassword',
        'newPassword',
        'signature/:signature',
        'logo',
        'coupon',
        'unsubscribe',
        'powerbridge',
        'sats4soup',
        'overview',
        'endpoints/get-pool-data',
        'endpoints/get-pools-profits',
        'endpoints/get-user-data',
        'admin/users',
        'admin/logs',
        'admin/balance',
        'admin/treasury',
      ]),
    );
  });

  it('has one entry per path, each with a title', () => {
    const paths = PAGES.map((p) => p.path.toLowerCase());
    expect(new Set(paths).size).toBe(paths.length);
    for (const page of PAGES) expect(page.title.trim()).not.toBe('');
  });

  it('leaves "/" and "/api" to the router itself (home and the redirect)', () => {
    expect(PAGES.some((p) => p.path === '' || p.path === 'api')).toBe(false);
  });
});
