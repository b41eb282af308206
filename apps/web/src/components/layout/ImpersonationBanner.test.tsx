import type { UserInfo } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../api/queryKeys';
import { countTestIds, renderPage, textOf } from '../../testing/renderPage';
import { ImpersonationBanner } from './ImpersonationBanner';
import { SiteNav } from './SiteNav';

const miner = (impersonated: boolean): UserInfo => ({
  result: true,
  email: 'miner01@example.org',
  accounts: [{ username: 'miner01', created_at: '2025-06-01T00:00:00.000Z' }],
  two_factor_enabled: false,
  is_admin: false,
  impersonated,
});

const banner = (info: UserInfo | null, isLoggedIn = true) =>
  renderPage(<ImpersonationBanner isLoggedIn={isLoggedIn} onLogout={() => {}} />, {
    seed: (client) => client.setQueryData(queryKeys.userInfo, info),
  });

describe('the admin-session banner', () => {
  it('says who the admin is logged in as, as a status, with a Log out button', () => {
    const html = banner(miner(true));
    expect(textOf(html)).toBe('You are logged in as miner01@example.org as an admin. Log out to end it. Log out');
    expect(html).toContain('role="status"');
    expect(countTestIds(html, 'impersonation-logout')).toBe(1);
  });

  it('is not shown to the user themselves, to a visitor, or once the logged-in flag is cleared', () => {
    expect(banner(miner(false))).toBe('');
    expect(banner(null)).toBe('');
    expect(banner(miner(true), false)).toBe('');
  });

  it('sits inside the sticky header, above the bar', () => {
    const html = renderPage(
      <SiteNav
        poolName="Lodestone"
        isLoggedIn
        overHero={false}
        showAlgorithmSelector={false}
        onLogout={() => {}}
        notice={<ImpersonationBanner isLoggedIn onLogout={() => {}} />}
      />,
      { seed: (client) => client.setQueryData(queryKeys.userInfo, miner(true)) },
    );
    const header = html.slice(html.indexOf('<header'), html.indexOf('</header>'));
    expect(header.indexOf('impersonation-banner')).toBeGreaterThan(-1);
    expect(header.indexOf('impersonation-banner')).toBeLessThan(header.indexOf('site-nav'));
  });
});
