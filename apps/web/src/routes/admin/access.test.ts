import type { UserInfo } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { adminAccess, adminRedirect } from './access';

const info = (overrides: Partial<UserInfo>): UserInfo => ({
  result: true,
  email: 'a@example.org',
  accounts: [],
  two_factor_enabled: true,
  is_admin: false,
  impersonated: false,
  ...overrides,
});

describe('who sees the admin screens', () => {
  it('admins stay; visitors go to /login; everyone else, impersonated sessions too, goes home', () => {
    const base = { isPending: false, isError: false };
    expect(adminAccess({ ...base, data: info({ is_admin: true }) })).toBe('admin');
    expect(adminAccess({ ...base, data: null })).toBe('visitor');
    expect(adminAccess({ ...base, data: info({}) })).toBe('not-admin');
    expect(adminAccess({ ...base, data: info({ is_admin: true, impersonated: true }) })).toBe('not-admin');
    expect(adminRedirect('visitor')).toBe('/login');
    expect(adminRedirect('not-admin')).toBe('/');
    expect(adminRedirect('admin')).toBeNull();
  });

  it('waits while the session check runs and says so when it fails', () => {
    expect(adminAccess({ data: undefined, isPending: true, isError: false })).toBe('checking');
    expect(adminAccess({ data: undefined, isPending: false, isError: true })).toBe('failed');
    expect(adminRedirect('checking')).toBeNull();
    expect(adminRedirect('failed')).toBeNull();
  });
});
