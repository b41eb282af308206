import { describe, expect, it } from 'vitest';
import { payoutReceiptText, sha256Hex, signatureOf, verificationUrl } from './signatures.js';

describe('signatures', () => {
  it('are HMAC-SHA256 of the kind and canonical text, in lowercase hex', () => {
    const a = signatureOf('key', 'statement', 'hello');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(signatureOf('key', 'statement', 'hello')).toBe(a);
    expect(signatureOf('key', 'payout', 'hello')).not.toBe(a);
    expect(signatureOf('other key', 'statement', 'hello')).not.toBe(a);
    expect(() => signatureOf('key', 'Bad Kind', 'x')).toThrow(RangeError);
  });

  it('hash documents as bytes', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(sha256Hex('abc'));
  });

  it('write a payout receipt as plain text lines', () => {
    const text = payoutReceiptText({
      poolName: 'Lodestone',
      account: 'miner01',
      coin: 'LTC',
      txid: 'ab'.repeat(32),
      sentAt: new Date('2025-06-10T08:00:01Z'),
      lines: [{ address: 'ltc1qalice1', amount: '0.03' }],
    });
    expect(text).toBe(
      [
        'Lodestone payout receipt',
        'account: miner01',
        'coin: LTC',
        `txid: ${'ab'.repeat(32)}`,
        'sent: 2025-06-10T08:00:01.000Z',
        'pay: ltc1qalice1 0.03 LTC',
        '',
      ].join('\n'),
    );
    expect(verificationUrl('https://pool.example', 'ff')).toBe('https://pool.example/signature/ff');
  });
});
