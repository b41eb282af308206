import { describe, expect, it } from 'vitest';
import {
  estimateHashrate,
  hashesFromDifficulty,
  measuredSeconds,
  plainDecimal,
  statsWindow,
  sumDecimals,
} from './hashrate.js';

describe('estimateHashrate', () => {
  it('is Σ difficulty × hashes per difficulty ÷ seconds', () => {
    // scrypt: difficulty 1 = 2^16 hashes
    expect(estimateHashrate('6000', 65536, 600)).toBe('655360');
    // sha256: difficulty 1 = 2^32 hashes; 600 × 2^32 / 600
    expect(estimateHashrate('600', 2 ** 32, 600)).toBe('4294967296');
    // difficulty-1-is-one-hash conventions (eaglesong, blake2s)
    expect(estimateHashrate('1200', 1, 600)).toBe('2');
  });

  it('stays exact beyond the 53 bits of a double', () => {
    // 123456789012345.678 × 2^32 / 600, with exact rationals: 883738118795328045428.24448 → rounded to 3 places
    expect(estimateHashrate('123456789012345.678', 4294967296n, 600)).toBe('883738118795328045428.244');
  });

  it('rounds half up to the requested places', () => {
    expect(estimateHashrate('1', 1, 3)).toBe('0.333');
    expect(estimateHashrate('2', 1, 3)).toBe('0.667');
    expect(estimateHashrate('1', 1, 8, 2)).toBe('0.13'); // 0.125 → 0.13
    expect(estimateHashrate('1', 1, 3, 0)).toBe('0');
  });

  it('reads JS numbers as written, not as their binary expansion', () => {
    expect(estimateHashrate(0.1, 65536, 1, 10)).toBe('6553.6');
    expect(estimateHashrate(1e-7, 1e7, 1)).toBe('1');
    expect(estimateHashrate('0', 65536, 600)).toBe('0');
  });

  it('refuses a zero window and negative inputs', () => {
    expect(() => estimateHashrate('1', 1, 0)).toThrow(RangeError);
    expect(() => estimateHashrate('-1', 1, 1)).toThrow(RangeError);
    expect(() => estimateHashrate('abc', 1, 1)).toThrow(RangeError);
    expect(() => estimateHashrate(Number.NaN, 1, 1)).toThrow(RangeError);
  });
});

describe('hashesFromDifficulty', () => {
  it('multiplies exactly', () => {
    expect(hashesFromDifficulty('6000', 65536)).toBe('393216000');
    expect(hashesFromDifficulty('0.001', 65536)).toBe('65.536');
    expect(hashesFromDifficulty('98765432109876543210', 2n ** 32n)).toBe('424194300887228031684480860160');
  });
});

describe('plainDecimal', () => {
  it.each([
    [0.1, '0.1'],
    [1e21, '1000000000000000000000'],
    [1e-7, '0.0000001'],
    [1.5e-10, '0.00000000015'],
    [42, '42'],
    [-0, '0'],
    [12n, '12'],
    ['007.500', '7.5'],
  ])('%s → %s', (input, expected) => {
    expect(plainDecimal(input)).toBe(expected);
  });
});

describe('sumDecimals', () => {
  it('adds exactly, whatever the scales', () => {
    expect(sumDecimals([0.1, 0.2])).toBe('0.3');
    expect(sumDecimals(['1.25', 3n, 1e-7])).toBe('4.2500001');
    expect(sumDecimals([])).toBe('0');
  });
});

describe('statsWindow', () => {
  it('is the last N complete UTC minutes plus the current minute so far', () => {
    expect(statsWindow(new Date('2024-05-06T10:00:59.999Z'), 10)).toEqual({
      from: new Date('2024-05-06T09:50:00Z'),
      to: new Date('2024-05-06T10:00:59.999Z'),
      seconds: 659.999,
    });
    expect(statsWindow(new Date('2024-05-06T10:00:00Z'), 1)).toEqual({
      from: new Date('2024-05-06T09:59:00Z'),
      to: new Date('2024-05-06T10:00:00Z'),
      seconds: 60,
    });
  });

  it('refuses a window that is not 1 to 1440 whole minutes', () => {
    for (const bad of [0, -1, 1.5, 1441, Number.NaN]) expect(() => statsWindow(new Date(), bad)).toThrow(RangeError);
  });
});

describe('measuredSeconds', () => {
  const now = new Date('2024-05-06T12:05:30Z');
  const window = { from: new Date('2024-05-06T11:55:00Z'), seconds: 630 };

  it('is the whole period for a worker older than it (or of unknown age)', () => {
    expect(measuredSeconds(window, new Date('2024-05-06T11:00:00Z'), now)).toBe(630);
    expect(measuredSeconds(window, window.from, now)).toBe(630);
    expect(measuredSeconds(window, null, now)).toBe(630);
  });

  it('is the age of a younger worker, at least a minute', () => {
    expect(measuredSeconds(window, new Date('2024-05-06T12:04:43Z'), now)).toBe(60); // 47 s old
    expect(measuredSeconds(window, new Date('2024-05-06T12:00:55Z'), now)).toBe(275);
    // A clock a little behind the worker's first batch: still a minute, never negative.
    expect(measuredSeconds(window, new Date('2024-05-06T12:06:00Z'), now)).toBe(60);
  });
});
