import { describe, expect, it } from 'vitest';
import {
  abbreviateMiddle,
  abbreviateTxid,
  COIN_DISPLAY_DECIMALS,
  coinDisplayDecimals,
  fixed,
  formatAmount,
  formatApproximateAmount,
  formatUnits,
} from './format.js';

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

describe('coin amounts', () => {
  it('shows each coin at its display precision, never more than its own decimals', () => {
    expect(coinDisplayDecimals('BTC', 8)).toBe(8);
    expect(coinDisplayDecimals('ETH', 18)).toBe(6);
    expect(coinDisplayDecimals('usdc', 6)).toBe(2);
    expect(coinDisplayDecimals('DOGE', 8)).toBe(8);
    expect(coinDisplayDecimals('KDA', 12)).toBe(6);
    // Unknown coins: at most 8 decimals, at most their own.
    expect(coinDisplayDecimals('NEW', 18)).toBe(8);
    expect(coinDisplayDecimals('NEW', 2)).toBe(2);
    for (const [ticker, shown] of Object.entries(COIN_DISPLAY_DECIMALS)) {
      expect(shown, ticker).toBeLessThanOrEqual(8);
    }
  });

  it('cuts an 18-decimal ETH balance to 6 decimals, toward zero', () => {
    // 1.234567891234567891 ETH in wei.
    const wei = '1234567891234567891';
    expect(formatUnits(wei, 18, coinDisplayDecimals('ETH', 18))).toBe('1.234567');
    expect(formatUnits(BigInt(wei), 18, 6).split('.')[1]).toHaveLength(6);
    expect(formatUnits('150000000', 8, 8)).toBe('1.50000000');
    expect(formatUnits('1999999', 6, coinDisplayDecimals('USDC', 6))).toBe('1.99');
  });

  it('never shows a non-zero amount as zero', () => {
    expect(formatUnits('50000', 18, 6)).toBe('< 0.000001');
    expect(formatUnits('-50000', 18, 6)).toBe('> -0.000001');
    expect(formatAmount('0.000000001', 8)).toBe('< 0.00000001');
    expect(formatAmount('0.000000001', 5)).toBe('< 0.00001');
    expect(formatUnits('0', 18, 6)).toBe('0.000000');
    expect(formatAmount('0', 5)).toBe('0.00000');
    expect(formatUnits('1', 8, 8)).toBe('0.00000001');
    expect(formatAmount('-1.5', 2)).toBe('-1.50');
  });

  it('formats animation frames the same way, approximately', () => {
    expect(formatApproximateAmount(0, 6)).toBe('0.000000');
    expect(formatApproximateAmount(5e-14, 6)).toBe('< 0.000001');
    expect(formatApproximateAmount(-5e-14, 6)).toBe('> -0.000001');
    expect(formatApproximateAmount(1.2345678, 6)).toBe('1.234567');
    expect(formatApproximateAmount(Number.NaN, 2)).toBe('0.00');
  });
});
