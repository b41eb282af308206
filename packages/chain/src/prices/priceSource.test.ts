import { describe, expect, it } from 'vitest';
import { checkTicker, divideDecimals, PriceFeedError, positiveDecimal } from './priceSource.js';

describe('divideDecimals', () => {
  it.each([
    // Expected values computed with Python's decimal module (50 digits, ROUND_HALF_UP, then 12 significant).
    ['64123.5', '59000.1', '1.08683714095'],
    ['71.23', '65.54', '1.08681721086'],
    ['1', '3', '0.333333333333'],
    ['2', '3', '0.666666666667'],
    ['10', '4', '2.5'],
    ['1', '8', '0.125'],
    ['0.000012345678901', '7', '0.00000176366841443'],
    // Rounding carries into a new digit: still exact, trailing zeros dropped.
    ['999999999999.5', '1', '1000000000000'],
    ['123456789012345678901234567890', '1', '123456789012000000000000000000'],
  ])('%s ÷ %s = %s', (a, b, expected) => {
    expect(divideDecimals(a, b)).toBe(expected);
  });

  it('takes the number of significant digits', () => {
    expect(divideDecimals('2', '3', 3)).toBe('0.667');
    expect(divideDecimals('0.002', '3', 2)).toBe('0.00067');
  });

  it('refuses a zero divisor', () => {
    expect(() => divideDecimals('1', '0')).toThrow(RangeError);
  });
});

describe('positiveDecimal', () => {
  it.each([
    ['64123.5', '64123.5'],
    ['064.50', '64.5'],
    [' 1.25 ', '1.25'],
    ['0.000012345678901', '0.000012345678901'],
    ['1.2345678901e-05', '0.000012345678901'],
    ['6.41235E4', '64123.5'],
    [0.1, '0.1'],
    [71.23, '71.23'],
    [1e-7, '0.0000001'],
  ] as const)('%s → %s', (input, expected) => {
    expect(positiveDecimal(input, 'price')).toBe(expected);
  });

  it.each(['0', '0.000', '-1', '-0', 'abc', '', '1,5', '0x10', '1e999', 'Infinity'])('refuses %j', (input) => {
    expect(() => positiveDecimal(input, 'price of X')).toThrow(PriceFeedError);
    expect(() => positiveDecimal(input, 'price of X')).toThrow(/price of X/);
  });

  it.each([0, -3, Number.NaN, Number.POSITIVE_INFINITY])('refuses the number %s', (input) => {
    expect(() => positiveDecimal(input, 'price')).toThrow(PriceFeedError);
  });
});

describe('checkTicker', () => {
  it('accepts upper-case tickers and refuses other spellings and fiat', () => {
    expect(() => checkTicker('BTC', 'x')).not.toThrow();
    expect(() => checkTicker('USDC', 'x')).not.toThrow();
    expect(() => checkTicker('btc', 'x')).toThrow(/upper-case/);
    expect(() => checkTicker('B', 'x')).toThrow(PriceFeedError);
    expect(() => checkTicker('EUR', 'x')).toThrow(/fiat/);
  });
});
