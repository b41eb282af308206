import { describe, expect, it } from 'vitest';
import { shouldRedirectToLogin, unauthorizedAction } from './unauthorized';

describe('a 401 answer', () => {
  it('on user info only clears the flag', () => {
    expect(unauthorizedAction('userInfo')).toBe('logged-out');
  });

  it('on the calls made before a session exists only clears the flag', () => {
    for (const name of ['userLogin', 'userRegister', 'passwordReset', 'passwordResetSend', 'userSetReferral'] as const)
      expect(unauthorizedAction(name)).toBe('logged-out');
  });

  it('on any other call also goes to /login', () => {
    for (const name of ['userConfig', 'userReferrals', 'userConfigUpdate', 'userLogout', 'userCoupon'] as const)
      expect(unauthorizedAction(name)).toBe('logged-out-and-login');
  });

  it('does not redirect when the login page is already showing', () => {
    expect(shouldRedirectToLogin('logged-out-and-login', '/settings')).toBe(true);
    expect(shouldRedirectToLogin('logged-out-and-login', '/login')).toBe(false);
    expect(shouldRedirectToLogin('logged-out-and-login', '/Login/')).toBe(false);
    expect(shouldRedirectToLogin('logged-out', '/settings')).toBe(false);
  });
});
