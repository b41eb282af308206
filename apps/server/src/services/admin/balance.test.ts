import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { adjustmentUnits } from './balance.js';

const refusal = (value: string, ticker = 'BTC', decimals = 8) => {
  try {
    adjustmentUnits(value, ticker, decimals);
  } catch (error) {
    if (error instanceof DomainError) return `${error.code} ${error.message}`;
    throw error;
  }
  throw new Error(`${value} was accepted`);
};

describe('adjustmentUnits', () => {
  it('turns a typed coin amount into signed smallest units, exactly', () => {
    expect(adjustmentUnits('1.23456789', 'BTC', 8)).toBe(123_456_789n);
    expect(adjustmentUnits('-0.00000001', 'BTC', 8)).toBe(-1n);
    expect(adjustmentUnits('0.1', 'BTC', 8)).toBe(10_000_000n);
    expect(adjustmentUnits('+2', 'ETH', 18)).toBe(2_000_000_000_000_000_000n);
    expect(adjustmentUnits('0.12345678', 'ETH', 18)).toBe(123_456_780_000_000_000n);
    expect(adjustmentUnits('1e-8', 'BTC', 8)).toBe(1n);
    // Trailing zeros are no extra precision.
    expect(adjustmentUnits('0.50000000', 'USDC', 6)).toBe(500_000n);
    expect(adjustmentUnits(' 3 ', 'KAS', 8)).toBe(300_000_000n);
  });

  it('refuses what cannot be credited exactly', () => {
    expect(refusal('0.000000001')).toBe('VALIDATION_FAILED Value has at most 8 decimals');
    expect(refusal('0.0000001', 'USDC', 6)).toBe('VALIDATION_FAILED USDC has only 6 decimals');
    expect(refusal('0.1', 'XYZ', 0)).toBe('VALIDATION_FAILED XYZ has only 0 decimals');
    expect(refusal('0')).toBe('VALIDATION_FAILED Value must not be zero');
    expect(refusal('-0.0')).toBe('VALIDATION_FAILED Value must not be zero');
    for (const text of ['', 'abc', '1,5', '1.2.3', 'NaN', 'Infinity', '0x10']) {
      expect(refusal(text)).toBe('VALIDATION_FAILED Value must be a number, for example 0.00012345 or -0.5');
    }
    const tooLarge = 'VALIDATION_FAILED Value is at most 1,000,000 coins either way';
    expect(refusal('1e25')).toBe(tooLarge);
    expect(refusal('-1e25')).toBe(tooLarge);
    // A JSON 1e21 reaches the service as "1e+21": it once credited 10^21 BTC.
    expect(refusal('1e+21')).toBe(tooLarge);
    expect(refusal('1000000.00000001')).toBe(tooLarge);
    expect(refusal('-1000000.00000001')).toBe(tooLarge);
    expect(adjustmentUnits('1000000', 'BTC', 8)).toBe(100_000_000_000_000n);
    expect(adjustmentUnits('-1000000', 'BTC', 8)).toBe(-100_000_000_000_000n);
    // An exponent that would cost minutes of CPU to expand is not a number.
    expect(refusal('1e999999999')).toBe('VALIDATION_FAILED Value must be a number, for example 0.00012345 or -0.5');
  });
});
