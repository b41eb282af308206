import { describe, expect, it } from 'vitest';
import {
  comparisonRow,
  parseVipPhone,
  publicApiPoolExample,
  publicApiPoolResponse,
  publicApiProfitsExample,
  publicApiProfitsResponse,
  publicApiUserExample,
  publicApiUserResponse,
  VIP_DIAL_CODES,
  VIP_MESSAGES,
  vipApplicationBody,
} from './public.js';

const valid = {
  name: ' Jane Miner ',
  email: 'jane@example.com',
  phone: '+44 7911123456',
  operations: 'SCRYPT 640 GH/s',
  captchaToken: 'token',
};

function messageOf(body: Record<string, unknown>): string | undefined {
  const result = vipApplicationBody.safeParse(body);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('VIP application body', () => {
  it('accepts the form and normalizes the phone', () => {
    expect(vipApplicationBody.parse(valid)).toEqual({ ...valid, name: 'Jane Miner' });
    expect(vipApplicationBody.parse({ ...valid, phone: '+447911123456' }).phone).toBe('+44 7911123456');
    expect(vipApplicationBody.parse({ ...valid, phone: '+351 912345678' }).phone).toBe('+351 912345678');
    expect(vipApplicationBody.parse({ ...valid, phone: '' }).phone).toBeNull();
    expect(vipApplicationBody.parse({ ...valid, phone: '+1 ' }).phone).toBeNull();
    const { phone: _phone, ...withoutPhone } = valid;
    expect(vipApplicationBody.parse(withoutPhone).phone).toBeNull();
  });

  it('refuses with the form’s messages', () => {
    expect(messageOf({ ...valid, name: '  ' })).toBe(VIP_MESSAGES.nameRequired);
    expect(messageOf({ ...valid, name: undefined })).toBe('Name is required.');
    expect(messageOf({ ...valid, name: 'a\nb' })).toBe(VIP_MESSAGES.nameOneLine);
    expect(messageOf({ ...valid, operations: '' })).toBe('Hashrate is required.');
    expect(messageOf({ ...valid, email: 'jane@' })).toBe('Invalid email format.');
    expect(messageOf({ ...valid, email: undefined })).toBe('Invalid email format.');
    expect(messageOf({ ...valid, phone: '+44 123456' })).toBe('Enter a valid phone number (7–15 digits only).');
    expect(messageOf({ ...valid, phone: '+44 1234567890123456' })).toBe(VIP_MESSAGES.invalidPhone);
    expect(messageOf({ ...valid, phone: '+999 1234567' })).toBe(VIP_MESSAGES.invalidPhone);
    expect(messageOf({ ...valid, phone: '+44 79-11123456' })).toBe(VIP_MESSAGES.invalidPhone);
    expect(messageOf({ ...valid, captchaToken: '' })).toBe('Please verify you are not a robot.');
  });

  it('knows every dial code of the selector, +1 first', () => {
    expect(VIP_DIAL_CODES[0].code).toBe('+1');
    for (const { code } of VIP_DIAL_CODES) expect(parseVipPhone(`${code}1234567`)).toBe(`${code} 1234567`);
  });
});

describe('public API examples', () => {
  it('are valid answers', () => {
    expect(publicApiPoolResponse.safeParse(publicApiPoolExample).success).toBe(true);
    expect(publicApiProfitsResponse.safeParse(publicApiProfitsExample).success).toBe(true);
    expect(publicApiUserResponse.safeParse(publicApiUserExample).success).toBe(true);
    expect(comparisonRow.safeParse(['a', 'b', 1, 'BTC/TH/s', null]).success).toBe(true);
  });
});
