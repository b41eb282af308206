import { describe, expect, it } from 'vitest';
import { hidesSiteChrome } from './paths';

describe('hidesSiteChrome', () => {
  it.each([
    '/login',
    '/register',
    '/newPassword',
    '/forgotPassword',
    '/logo',
    '/signature/abc123',
    '/login/',
    '/LOGIN',
  ])('hides nav and footer on %s', (path) => {
    expect(hidesSiteChrome(path)).toBe(true);
  });

  it.each([
    '/',
    '/stats',
    '/reddit',
    '/signature',
    '/logout',
    '/loginx',
    '/dashboard',
    '/api',
    '/overview',
    '/signature/a/b',
  ])('shows nav and footer on %s', (path) => {
    expect(hidesSiteChrome(path)).toBe(false);
  });
});
