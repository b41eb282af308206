import { describe, expect, it } from 'vitest';
import { shouldRedirectToLogin, unauthorizedAction } from './unauthorized';

describe('a 401 answer', () => {
  it('on user info only clears the flag', () => {
    expect(unauthorizedAction('/user/info')).toBe('logged-out');
  });

  it('on the calls made before a session exists only clears the flag', () => {
    for (const path of [
      '/user/login',
      '/user/register',
      '/password/reset',
      '/password/reset_send',
      '/user/set_referral',
    ])
      expect(unauthorizedAction(path)).toBe('logged-out');
  });

  it('on any other call also goes to /login', () => {
    for (const path of ['/user/config', '/user/referrals', '/user/config/update', '/user/logout', '/user/coupon'])
      expect(unauthorizedAction(path)).toBe('logged-out-and-login');
  });

  it('does not redirect when the login page is already showing', () => {
    expect(shouldRedirectToLogin('logged-out-and-login', '/settings')).toBe(true);
    expect(shouldRedirectToLogin('logged-out-and-login', '/login')).toBe(false);
    expect(shouldRedirectToLogin('logged-out-and-login', '/Login/')).toBe(false);
    expect(shouldRedirectToLogin('logged-out', '/settings')).toBe(false);
  });
});
