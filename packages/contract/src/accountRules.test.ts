import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { email, loginBody, password, redirectSettings, registerBody, userConfigUpdateBody } from './account.js';
import {
  couponProblem,
  emailProblem,
  loginPasswordProblem,
  ACCOUNT_MESSAGES as M,
  newPasswordProblem,
  offlineWindowProblem,
  parseOfflineWindow,
  redirectPercentageProblem,
  redirectTotalProblem,
  usernameProblem,
} from './accountRules.js';

/** The first message zod gives, as the API's error body shows it; null when the value passes. */
function schemaProblem(schema: z.ZodType, value: unknown): string | null {
  const parsed = schema.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'no message');
}

const addresses = [
  '',
  '   ',
  'a@b.org',
  '  Miner@Example.ORG ',
  "o'brien+pool@mail.example.co.uk",
  'first.last@sub-domain.example.com',
  'not-an-email',
  'a@b',
  'a@b.c',
  '.lead@example.com',
  'trail.@example.com',
  'dou..ble@example.com',
  "a'@example.com",
  "a'b@example.com",
  'a.b.c@example.com',
  'a@b..com',
  'a@example.c0m',
  'a@-bad.com',
  'a b@example.com',
  'a@example.123',
  'deleted-7@deleted.invalid',
  `${'x'.repeat(250)}@example.com`,
];

describe('account field rules', () => {
  it('say what is wrong with a username', () => {
    expect(usernameProblem('  ')).toBe(M.usernameRequired);
    expect(usernameProblem('ab')).toBe(M.usernameInvalid);
    expect(usernameProblem('a b c')).toBe(M.usernameInvalid);
    expect(usernameProblem('x'.repeat(33))).toBe(M.usernameInvalid);
    expect(usernameProblem(' rig_farm-1 ')).toBeNull();
  });

  it('say what is wrong with an e-mail address', () => {
    expect(emailProblem('')).toBe(M.emailRequired);
    expect(emailProblem('not-an-email')).toBe('Invalid email address');
    expect(emailProblem('Deleted-7@Deleted.INVALID')).toBe(M.emailInvalid);
    expect(emailProblem(' Miner@Example.org ')).toBeNull();
  });

  it('accept exactly the addresses the server accepts, and the server accepts what zod always did', () => {
    const zodDefault = z.string().trim().toLowerCase().pipe(z.email().max(254));
    for (const address of addresses) {
      const rule = emailProblem(address);
      expect(schemaProblem(email, address), address).toBe(rule);
      const reserved = address.trim().toLowerCase().endsWith('.invalid');
      if (!reserved && address.trim() !== '')
        expect(zodDefault.safeParse(address).success, address).toBe(rule === null);
    }
  });

  it('ask 10 to 128 characters of a new password, and only a non-empty one at login', () => {
    expect(newPasswordProblem('')).toBe(M.passwordRequired);
    expect(newPasswordProblem('short')).toBe('Password must be at least 10 characters');
    expect(newPasswordProblem('x'.repeat(129))).toBe(M.passwordTooLong);
    expect(newPasswordProblem('          ')).toBeNull();
    expect(loginPasswordProblem('short')).toBeNull();
    expect(loginPasswordProblem('')).toBe(M.passwordRequired);
    for (const value of ['short', 'x'.repeat(9), 'x'.repeat(10), 'x'.repeat(128), 'x'.repeat(129)]) {
      expect(schemaProblem(password, value), value).toBe(newPasswordProblem(value));
      expect(schemaProblem(loginBody.shape.password, value), value).toBe(loginPasswordProblem(value));
    }
  });

  it('are the messages the register call answers', () => {
    const form = { username: 'okname', email: 'x@example.com', password: 'a long enough password', captchaToken: 't' };
    expect(schemaProblem(registerBody, { ...form, username: 'ab' })).toBe(usernameProblem('ab'));
    expect(schemaProblem(registerBody, { ...form, email: 'nope' })).toBe(emailProblem('nope'));
    expect(schemaProblem(registerBody, { ...form, password: 'short' })).toBe(newPasswordProblem('short'));
    expect(schemaProblem(registerBody, { ...form, captchaToken: '' })).toBe(M.robot);
    expect(schemaProblem(registerBody, form)).toBeNull();
  });

  it('keep redirects within 0 to 100 percent, alone and together, as the redirect call does', () => {
    expect(redirectPercentageProblem(-1)).toBe(M.redirectPercentage);
    expect(redirectPercentageProblem(100.5)).toBe('Percentages are 0 to 100');
    expect(redirectPercentageProblem(Number.NaN)).toBe(M.redirectPercentage);
    expect(redirectPercentageProblem(0)).toBeNull();
    expect(redirectTotalProblem([33.3, 33.3, 33.4])).toBeNull();
    expect(redirectTotalProblem([60, 40.5])).toBe('The percentages add up to more than 100');
    for (const map of [{ a01: 33.3, b01: 33.3, c01: 33.4 }, { a01: 60, b01: 40.5 }, { a01: 101 }, { a01: -1 }]) {
      const values = Object.values(map);
      const rule = values.map(redirectPercentageProblem).find((p) => p !== null) ?? redirectTotalProblem(values);
      expect(schemaProblem(redirectSettings, map), JSON.stringify(map)).toBe(rule);
    }
  });

  it('ask for a coupon code', () => {
    expect(couponProblem('  ')).toBe(M.couponRequired);
    expect(couponProblem(' SUMMER ')).toBeNull();
  });
});

describe('the offline-worker window', () => {
  it('is whole minutes from 5 to 10080, or empty for automatic, in the form and the schema alike', () => {
    expect(parseOfflineWindow('')).toBeNull();
    expect(parseOfflineWindow(' 45 ')).toBe(45);
    expect(parseOfflineWindow('5')).toBe(5);
    expect(parseOfflineWindow('10080')).toBe(10_080);
    for (const bad of ['4', '10081', '1.5', '-5', 'soon', '1e3']) {
      expect(parseOfflineWindow(bad), bad).toBeUndefined();
      expect(offlineWindowProblem(bad)).toBe(M.offlineWindow);
    }
    const field = userConfigUpdateBody.shape.offline_worker_window_minutes;
    expect(field.parse('30')).toBe(30);
    expect(field.parse(30)).toBe(30);
    expect(field.parse('')).toBeNull();
    expect(field.parse(null)).toBeNull();
    expect(schemaProblem(field, '3')).toBe(M.offlineWindow);
  });
});
