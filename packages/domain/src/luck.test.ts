import { describe, expect, it } from 'vitest';
import { blockEffort, luckOfTotals, poolLuck } from './luck.js';

describe('block effort', () => {
  it('is the round’s accepted difficulty over the block’s network difficulty', () => {
    // Hand-computed: a round of 3,000,000 accepted difficulty on a network at 2,000,000 → 150 %.
    expect(blockEffort('3000000', '2000000')).toBe(1.5);
    // A lucky block: 12.5 % of the expected work.
    expect(blockEffort('250000', 2_000_000)).toBe(0.125);
    expect(blockEffort('0', '2000000')).toBe(0);
  });

  it('is unknown without a recorded round or network difficulty, or at a difficulty of zero', () => {
    expect(blockEffort(null, '2000000')).toBeUndefined();
    expect(blockEffort('1', undefined)).toBeUndefined();
    expect(blockEffort('1', '0')).toBeUndefined();
  });
});

describe('pool luck', () => {
  it('is the blocks over the sum of their efforts, and the mean effort its reciprocal', () => {
    // Hand-computed: efforts 50 %, 150 %, 250 % → Σ 4.5 over 3 blocks: mean 150 %, luck 66.67 %.
    const luck = poolLuck([0.5, 1.5, 2.5]);
    expect(luck.blocks).toBe(3);
    expect(luck.effort).toBeCloseTo(1.5, 12);
    expect(luck.luck).toBeCloseTo(2 / 3, 12);
    // Lucky: two blocks at 25 % and 75 % → luck 200 %.
    expect(poolLuck([0.25, 0.75])).toEqual({ blocks: 2, effort: 0.5, luck: 2 });
  });

  it('is the same from a period’s totals', () => {
    expect(luckOfTotals(3, 4.5)).toEqual(poolLuck([0.5, 1.5, 2.5]));
    expect(luckOfTotals(0, 0)).toEqual({ blocks: 0, effort: null, luck: null });
    expect(() => luckOfTotals(1.5, 1)).toThrow(RangeError);
    expect(() => luckOfTotals(2, -1)).toThrow(RangeError);
  });

  it('says nothing without blocks, and has no luck when the rounds took no work', () => {
    expect(poolLuck([])).toEqual({ blocks: 0, effort: null, luck: null });
    expect(poolLuck([0])).toEqual({ blocks: 1, effort: 0, luck: null });
  });

  it('refuses an effort that is not a finite, non-negative number', () => {
    expect(() => poolLuck([Number.NaN])).toThrow(RangeError);
    expect(() => poolLuck([-1])).toThrow(RangeError);
    expect(() => poolLuck([Number.POSITIVE_INFINITY])).toThrow(RangeError);
  });
});
