import { parseVipPhone, vipApplicationBody } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { DIAL_CODES, isValidEmail, validateVip, vipFormData, vipPhone } from './VipApplicationRules';

const valid = {
  name: 'Jane Miner',
  email: 'jane@example.com',
  dialIndex: 0,
  phone: '',
  operations: 'SCRYPT: 640 GH/s',
};

describe('VIP application rules', () => {
  it('lists the dial codes in order, +1 (US) first and default', () => {
    expect(DIAL_CODES.map((d) => `${d.country} ${d.code}`)).toEqual([
      'US +1',
      'UK +44',
      'Germany +49',
      'France +33',
      'Italy +39',
      'Spain +34',
      'Mexico +52',
      'Argentina +54',
      'Colombia +57',
      'Chile +56',
      'Portugal +351',
      'Australia +61',
      'Canada +1',
      'Brazil +55',
      'Japan +81',
      'China +86',
      'India +91',
    ]);
  });

  it('accepts a complete application without a phone number', () => {
    expect(validateVip(valid)).toEqual({});
  });

  it('gives the message for each field, all at once', () => {
    expect(validateVip({ name: ' ', email: 'nope', dialIndex: 0, phone: '12ab', operations: '\n' })).toEqual({
      name: 'Name is required.',
      email: 'Invalid email format.',
      phone: 'Enter a valid phone number (7–15 digits only).',
      operations: 'Hashrate is required.',
    });
  });

  it('takes 7 to 15 digits for the phone, spaces allowed', () => {
    expect(validateVip({ ...valid, phone: '123456' }).phone).toBeDefined();
    expect(validateVip({ ...valid, phone: '1234567' }).phone).toBeUndefined();
    expect(validateVip({ ...valid, phone: '7911 123 456' }).phone).toBeUndefined();
    expect(validateVip({ ...valid, phone: '1234567890123456' }).phone).toBeDefined();
    expect(validateVip({ ...valid, phone: '+447911123456' }).phone).toBeDefined();
  });

  it('checks e-mail addresses as the server does', () => {
    for (const ok of ['jane@example.com', 'j.o+pool@mail.example.co.uk', " o'neil@example.org "]) {
      expect(isValidEmail(ok), ok).toBe(true);
    }
    for (const bad of [
      '',
      'jane',
      'jane@',
      'jane@example',
      '@example.com',
      '.jane@example.com',
      'ja..ne@example.com',
      'jane doe@example.com',
    ]) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
  });

  it('sends the phone as dial code and digits, which the contract accepts', () => {
    expect(vipPhone({ dialIndex: 1, phone: '7911 123456' })).toBe('+44 7911123456');
    expect(vipPhone({ dialIndex: 12, phone: '4165550123' })).toBe('+1 4165550123');
    expect(vipPhone({ dialIndex: 0, phone: '  ' })).toBe('');
    expect(parseVipPhone(vipPhone({ dialIndex: 10, phone: '912345678' }))).toBe('+351 912345678');
  });

  it('builds the body the server checks with the same contract schema', () => {
    const form = vipFormData({ ...valid, name: '  Jane Miner ', dialIndex: 2, phone: '30123456' }, 'token');
    const body = Object.fromEntries(form.entries());
    expect(body).toEqual({
      name: 'Jane Miner',
      email: 'jane@example.com',
      phone: '+49 30123456',
      operations: 'SCRYPT: 640 GH/s',
      captchaToken: 'token',
    });
    expect(vipApplicationBody.safeParse(body).success).toBe(true);
  });
});
