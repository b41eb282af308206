import { describe, expect, it } from 'vitest';
import { profitUnits, scaleHashCount, scaleHashrate, scaleProfit } from './units.js';

describe('scaleHashrate', () => {
  it.each([
    ['0', 0, 'H/s'],
    ['999', 999, 'H/s'],
    ['1000', 1, 'Kh/s'],
    ['1500000', 1.5, 'Mh/s'],
    ['2500000000000', 2.5, 'Th/s'],
    ['1200000000000000000', 1.2, 'Eh/s'],
  ])('%s H/s → %s %s', (base, value, units) => {
    const scaled = scaleHashrate(base);
    expect(scaled.value).toBeCloseTo(value, 10);
    expect(scaled.units).toBe(units);
  });

  it('moves up a unit when rounding would show 1000', () => {
    expect(scaleHashrate('999999')).toMatchObject({ units: 'Mh/s' });
    expect(scaleHashrate('999994').units).toBe('Kh/s');
  });

  it('accepts NUMERIC strings with fractions and plain numbers', () => {
    expect(scaleHashrate('1234.5678')).toMatchObject({ units: 'Kh/s' });
    expect(scaleHashrate(5e9).units).toBe('Gh/s');
  });

  it('stops at the largest unit', () => {
    expect(scaleHashrate('1e30'.replace('1e30', `1${'0'.repeat(30)}`)).units).toBe('Zh/s');
  });
});

describe('scaleHashCount', () => {
  it('uses hash count units', () => {
    expect(scaleHashCount('3000000000000000000')).toMatchObject({ value: 3, units: 'EH' });
  });
});

describe('profit', () => {
  it('names the unit for an exponent', () => {
    expect(profitUnits(12)).toBe('BTC/TH/s');
    expect(profitUnits(15)).toBe('BTC/PH/s');
    expect(() => profitUnits(13)).toThrow(RangeError);
  });

  it('scales a per-H/s rate exactly before turning it into a number', () => {
    // 2.5e-17 BTC per H/s per day is 0.000025 BTC per TH/s per day.
    expect(scaleProfit('0.000000000000000025', 12)).toEqual({ value: 0.000025, units: 'BTC/TH/s', exponent: 12 });
  });
});
