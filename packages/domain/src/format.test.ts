import { describe, expect, it } from 'vitest';
import { abbreviateMiddle, abbreviateTxid, fixed } from './format.js';

describe('fixed', () => {
  it('rounds to the given decimals', () => {
    expect(fixed(1.005, 2)).toBe('1.00');
    expect(fixed(2.5, 5)).toBe('2.50000');
    expect(fixed(0, 2)).toBe('0.00');
  });

  it('shows zero for missing or non-finite values and never "-0"', () => {
    expect(fixed(undefined, 2)).toBe('0.00');
    expect(fixed(Number.NaN, 1)).toBe('0.0');
    expect(fixed(-0.0001, 2)).toBe('0.00');
  });
});

describe('abbreviations', () => {
  it('keeps TXIDs of 8 characters or fewer whole and shortens longer ones to 6…6', () => {
    expect(abbreviateTxid('abcdefgh')).toBe('abcdefgh');
    expect(abbreviateTxid('0123456789abcdef0123')).toBe('012345…ef0123');
  });

  it('shortens stratum URLs to 10…10', () => {
    expect(abbreviateMiddle('stratum+tcp://scrypt.stratum.example.org:3333', 10, 10)).toBe('stratum+tc…e.org:3333');
  });
});
