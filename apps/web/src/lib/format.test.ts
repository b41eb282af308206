import { describe, expect, it } from 'vitest';
import {
  coinAmountText,
  formatApiDate,
  formatCoinAmount,
  formatHashrate,
  formatLifetime,
  formatLocalDateTime,
  formatPrice,
  formatUsd,
  hashrateInBaseUnits,
  rejectedPercent,
} from './format';

describe('rejected-share percent', () => {
  it('is (invalid + stale) / (valid + invalid + stale) with 2 decimals', () => {
    expect(rejectedPercent(90, 5, 5)).toBe('10.00%');
    expect(rejectedPercent(2, 1, 0)).toBe('33.33%');
    expect(rejectedPercent(1, 0, 2)).toBe('66.67%');
    expect(rejectedPercent(100, 0, 0)).toBe('0.00%');
    expect(rejectedPercent(0, 3, 1)).toBe('100.00%');
  });

  it("is '0%' when the worker sent no shares", () => {
    expect(rejectedPercent(0, 0, 0)).toBe('0%');
  });
});

describe('figures', () => {
  it('hashrate with 2 decimals and its unit', () => {
    expect(formatHashrate(12.345, 'Mh/s')).toBe('12.35 Mh/s');
    expect(formatHashrate(0, 'H/s')).toBe('0.00 H/s');
  });

  it('compares hashrates across units', () => {
    expect(hashrateInBaseUnits(1, 'Mh/s')).toBe(1_000_000);
    expect(hashrateInBaseUnits(999, 'Kh/s')).toBeLessThan(hashrateInBaseUnits(1, 'Mh/s'));
    expect(hashrateInBaseUnits(2, 'TH/s')).toBe(2e12);
    expect(hashrateInBaseUnits(5, 'weird')).toBe(5);
  });

  it('dollars with 2 decimals by default, 4 for the balances table price', () => {
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0.004)).toBe('$0.00');
    expect(formatUsd(-0.001)).toBe('$0.00');
    expect(formatUsd(-2)).toBe('-$2.00');
    expect(formatUsd(65432.123456, 4)).toBe('$65,432.1235');
    expect(formatPrice(null, 4)).toBe('—');
    expect(formatPrice(0.5, 4)).toBe('$0.5000');
  });

  it('smallest units become coin amounts at the coin’s display precision', () => {
    expect(coinAmountText('150000000', 8, 'BTC')).toBe('1.50000000');
    expect(coinAmountText('0', 8, 'LTC')).toBe('0.00000000');
    expect(formatCoinAmount('123456789', 8, 'LTC')).toBe('1.23456789 LTC');
  });

  it('shows an 18-decimal ETH balance with 6 decimals, and a tiny one as "< 0.000001", never 0', () => {
    expect(formatCoinAmount('1234567891234567891', 18, 'ETH')).toBe('1.234567 ETH');
    expect(coinAmountText('50000', 18, 'ETH')).toBe('< 0.000001');
    expect(coinAmountText('1', 8, 'BTC')).toBe('0.00000001');
    expect(formatCoinAmount('12345678', 6, 'USDC')).toBe('12.34 USDC');
  });

  it('lifetime earnings with 5 decimals, cut toward zero', () => {
    expect(formatLifetime('0.123456789')).toBe('0.12345');
    expect(formatLifetime('12')).toBe('12.00000');
    expect(formatLifetime('0')).toBe('0.00000');
    expect(formatLifetime('0.0000000123')).toBe('< 0.00001');
  });

  it('shows API dates as the server wrote them, in the miner’s zone', () => {
    expect(formatApiDate('2025-06-15T14:00:00+02:00')).toBe('2025-06-15 14:00');
    expect(formatApiDate('2025-06-15')).toBe('2025-06-15');
    expect(formatApiDate('soon')).toBe('soon');
  });
});

describe('formatLocalDateTime', () => {
  it('writes a moment in the browser zone as the API writes its dates (the tests run in UTC)', () => {
    expect(formatLocalDateTime(Date.UTC(2026, 10, 25, 9, 5, 59))).toBe('2026-11-25 09:05');
  });
});
