import { describe, expect, it } from 'vitest';
import {
  displayHashrate,
  hashrateFormatter,
  hashrateOf,
  profitUnits,
  scaleHashCount,
  scaleHashrate,
  scaleProfit,
  unitStep,
  unitSteps,
} from './units.js';

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

  it('scales exactly, without float noise (a public API answer read 2.3024459999999998)', () => {
    expect(scaleHashrate('2302.446').value).toBe(2.302446);
    expect(scaleHashrate('524254.9327').value).toBe(524.2549327);
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

describe('displayHashrate', () => {
  it('picks the unit and rounds half up to 2 decimals', () => {
    expect(displayHashrate('0')).toEqual({ value: 0, units: 'H/s' });
    expect(displayHashrate('1234.567')).toEqual({ value: 1.23, units: 'Kh/s' });
    expect(displayHashrate('1235')).toEqual({ value: 1.24, units: 'Kh/s' });
    expect(displayHashrate('999994.9')).toEqual({ value: 999.99, units: 'Kh/s' });
    // 999.995 Kh/s would read 1000.00 Kh/s: the next unit instead.
    expect(displayHashrate('999995')).toEqual({ value: 1, units: 'Mh/s' });
  });

  it('computes a hashrate from difficulty exactly (6000 × 65536 ÷ 600 s = 655,360 H/s)', () => {
    expect(hashrateOf('6000', 65_536, 600)).toEqual({ value: 655.36, units: 'Kh/s' });
    expect(hashrateOf('6000', 65_536, 0)).toEqual({ value: 0, units: 'H/s' });
  });

  it('formats many workers with one formatter, at any decimal scale of the difficulty', () => {
    const of = hashrateFormatter(65_536, 600);
    expect(of('6000')).toEqual({ value: 655.36, units: 'Kh/s' });
    expect(of('6000.000')).toEqual({ value: 655.36, units: 'Kh/s' });
    expect(of('0.5')).toEqual({ value: 54.61, units: 'H/s' }); // 54.6133…
    expect(of(0)).toEqual({ value: 0, units: 'H/s' });
  });

  it('picks the same unit as scaleHashrate for every value near a unit boundary', () => {
    for (const text of ['999', '999.994', '999.995', '1000', '999994.9', '999995', '1000000', '999995000', '5e9']) {
      expect(displayHashrate(text).units).toBe(scaleHashrate(text).units);
    }
  });
});

describe('unitStep', () => {
  it('is the largest unit at or above 1, one up when rounding would show 1000', () => {
    const steps = unitSteps(1n);
    expect(unitStep(0n, steps, 2)).toEqual({ step: 0, rounded: 0n });
    expect(unitStep(999_994n, steps, 2)).toEqual({ step: 1, rounded: 99_999n });
    expect(unitStep(999_995n, steps, 2)).toEqual({ step: 2, rounded: 100n });
    // At one decimal 999.95 K already rounds to 1000.0: the next unit.
    expect(unitStep(999_950n, steps, 1)).toEqual({ step: 2, rounded: 10n });
    // Past the largest unit the value simply grows.
    expect(unitStep(10n ** 30n, steps, 2).step).toBe(7);
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
