import { describe, expect, it } from 'vitest';
import { email, registerBody } from './account.js';

describe('account contract', () => {
  it('normalises e-mail addresses', () => {
    expect(email.parse('  Miner@Example.ORG ')).toBe('miner@example.org');
  });

  it('refuses the reserved .invalid domain that erased users are moved to', () => {
    expect(email.safeParse('deleted-7@deleted.invalid').success).toBe(false);
    expect(email.safeParse('Deleted-7@Deleted.INVALID').success).toBe(false);
  });

  it('validates a registration form as sent (multipart strings)', () => {
    const parsed = registerBody.parse({
      username: 'rig_farm-1',
      email: 'a@b.org',
      password: 'correct horse battery',
      captchaToken: 'token',
    });
    expect(parsed.referral).toBe('');
    expect(registerBody.safeParse({ ...parsed, username: 'a b' }).success).toBe(false);
  });
});
