import { describe, expect, it } from 'vitest';
import { decimalToNumber, isDecimalString, shiftDecimal } from './decimal.js';

describe('shiftDecimal', () => {
  it.each([
    ['1', 3, '1000'],
    ['1.5', 1, '15'],
    ['0.000000000000000025', 12, '0.000025'],
    ['123.456', -2, '1.23456'],
    ['5', -3, '0.005'],
    ['-0.5', 1, '-5'],
    ['0.00', 5, '0'],
    ['100', -2, '1'],
  ])('%s × 10^%i = %s', (value, places, expected) => {
    expect(shiftDecimal(value, places)).toBe(expected);
  });

  it('takes bigints and numbers', () => {
    expect(shiftDecimal(12n, 2)).toBe('1200');
    expect(shiftDecimal(0.25, 2)).toBe('25');
  });

  it('refuses what is not a decimal', () => {
    expect(() => shiftDecimal('1e5', 1)).toThrow(RangeError);
    expect(() => shiftDecimal('abc', 1)).toThrow(RangeError);
    expect(() => shiftDecimal(Number.NaN, 1)).toThrow(RangeError);
  });
});

describe('decimal helpers', () => {
  it('recognises decimal strings', () => {
    expect(isDecimalString('-12.50')).toBe(true);
    expect(isDecimalString('1.')).toBe(false);
  });

  it('converts for display', () => {
    expect(decimalToNumber('12.5')).toBe(12.5);
    expect(() => decimalToNumber('x')).toThrow(RangeError);
  });
});
