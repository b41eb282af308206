import { describe, expect, it } from 'vitest';
import {
  blockStatusText,
  formatBlockReward,
  formatDifficulty,
  formatHeight,
  formatNetworkHashrate,
  formatRatioPercent,
} from './network';

describe('network figures', () => {
  it('writes a difficulty with separators and 2 decimals, and a difficulty below 1 with 4 significant digits', () => {
    expect(formatDifficulty(28_123_456.789)).toBe('28,123,456.79');
    expect(formatDifficulty(1)).toBe('1');
    expect(formatDifficulty(0.000244140625)).toBe('0.0002441');
    expect(formatDifficulty(Number.NaN)).toBe('—');
  });

  it('writes the network hashrate with its units, and a dash when the chain has no fixed interval', () => {
    expect(formatNetworkHashrate(1.23456, 'Ph/s')).toBe('1.23 Ph/s');
    expect(formatNetworkHashrate(0, 'H/s')).toBe('0.00 H/s');
    expect(formatNetworkHashrate(null, 'Th/s')).toBe('—');
  });

  it('writes a block reward at the coin display precision, cut toward zero, with its ticker', () => {
    expect(formatBlockReward('6.25', 'LTC')).toBe('6.25000000 LTC');
    expect(formatBlockReward('10000.123456789', 'DOGE')).toBe('10000.12345678 DOGE');
    expect(formatBlockReward('2.3456789999', 'KDA')).toBe('2.345678 KDA');
    expect(formatBlockReward('0', 'BELLS')).toBe('0.00000000 BELLS');
  });

  it('writes a height as the chain numbers it', () => {
    expect(formatHeight(2_812_345)).toBe('2812345');
  });
});

describe('effort and luck percents', () => {
  it('write a ratio as a percent with 1 decimal, and a dash without one', () => {
    expect(formatRatioPercent(1.23456)).toBe('123.5%');
    expect(formatRatioPercent(0.95)).toBe('95.0%');
    expect(formatRatioPercent(0)).toBe('0.0%');
    expect(formatRatioPercent(null)).toBe('—');
    expect(formatRatioPercent(Number.POSITIVE_INFINITY)).toBe('—');
  });
});

describe('block status', () => {
  it('says how many confirmations a pending block still needs, when the chain counts them', () => {
    expect(blockStatusText({ status: 'pending', confirmations_left: 3 })).toBe('Pending — 3 confirmations left');
    expect(blockStatusText({ status: 'pending', confirmations_left: 1 })).toBe('Pending — 1 confirmation left');
    expect(blockStatusText({ status: 'pending', confirmations_left: null })).toBe('Pending');
  });

  it('names confirmed and orphaned blocks', () => {
    expect(blockStatusText({ status: 'confirmed', confirmations_left: null })).toBe('Confirmed');
    expect(blockStatusText({ status: 'orphaned', confirmations_left: null })).toBe('Orphaned');
  });
});
