import { parseGwei } from 'viem';
import { describe, expect, it } from 'vitest';
import { bumpedFeeCaps, feeCapsFor } from './fees.js';

describe('feeCapsFor', () => {
  it('offers twice the base fee plus the tip', () => {
    expect(feeCapsFor(parseGwei('1'), parseGwei('1'), parseGwei('100'))).toEqual({
      maxFeePerGas: parseGwei('3'),
      maxPriorityFeePerGas: parseGwei('1'),
    });
  });

  it('cuts the fee cap to the ceiling, and the tip to the fee cap', () => {
    expect(feeCapsFor(10n, 5n, 20n)).toEqual({ maxFeePerGas: 20n, maxPriorityFeePerGas: 5n });
    expect(feeCapsFor(1n, 50n, 20n)).toEqual({ maxFeePerGas: 20n, maxPriorityFeePerGas: 20n });
    expect(feeCapsFor(20n, 5n, 20n)).toEqual({ maxFeePerGas: 20n, maxPriorityFeePerGas: 5n });
  });

  it('gives nothing when the base fee is already above the ceiling', () => {
    expect(feeCapsFor(21n, 1n, 20n)).toBeUndefined();
  });

  it('refuses negative fees and a ceiling of zero', () => {
    expect(() => feeCapsFor(-1n, 1n, 20n)).toThrow(RangeError);
    expect(() => feeCapsFor(1n, 1n, 0n)).toThrow(RangeError);
  });
});

describe('bumpedFeeCaps', () => {
  it('raises both caps by 12.5%, rounded up', () => {
    expect(
      bumpedFeeCaps(
        { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n },
        undefined,
        parseGwei('100'),
      ),
    ).toEqual({
      maxFeePerGas: 2_250_000_000n,
      maxPriorityFeePerGas: 1_125_000_000n,
    });
    expect(bumpedFeeCaps({ maxFeePerGas: 7n, maxPriorityFeePerGas: 3n }, undefined, 100n)).toEqual({
      maxFeePerGas: 8n,
      maxPriorityFeePerGas: 4n,
    });
  });

  it('raises a zero tip to one wei, since a node wants it strictly higher', () => {
    expect(bumpedFeeCaps({ maxFeePerGas: 100n, maxPriorityFeePerGas: 0n }, undefined, 1000n)).toEqual({
      maxFeePerGas: 113n,
      maxPriorityFeePerGas: 1n,
    });
  });

  it('follows the current fees when they rose more than 12.5%', () => {
    const current = { maxFeePerGas: 50n, maxPriorityFeePerGas: 20n };
    expect(bumpedFeeCaps({ maxFeePerGas: 10n, maxPriorityFeePerGas: 2n }, current, 1000n)).toEqual(current);
  });

  it('stops at the ceiling, and gives nothing once the ceiling leaves less than 10%', () => {
    const previous = { maxFeePerGas: 100n, maxPriorityFeePerGas: 10n };
    expect(bumpedFeeCaps(previous, undefined, 110n)).toEqual({ maxFeePerGas: 110n, maxPriorityFeePerGas: 12n });
    expect(bumpedFeeCaps(previous, undefined, 109n)).toBeUndefined();
    expect(bumpedFeeCaps(previous, undefined, 100n)).toBeUndefined();
  });

  it('gives nothing when the tip, cut to the fee cap, cannot rise 10%', () => {
    expect(bumpedFeeCaps({ maxFeePerGas: 100n, maxPriorityFeePerGas: 100n }, undefined, 110n)).toEqual({
      maxFeePerGas: 110n,
      maxPriorityFeePerGas: 110n,
    });
    expect(bumpedFeeCaps({ maxFeePerGas: 100n, maxPriorityFeePerGas: 100n }, undefined, 109n)).toBeUndefined();
  });

  it("always passes go-ethereum's replacement rule (both caps higher, and at least old × 110 / 100)", () => {
    // The rule as core/txpool/legacypool/list.go writes it, with integer division.
    const accepted = (oldCap: bigint, newCap: bigint): boolean => newCap > oldCap && newCap >= (oldCap * 110n) / 100n;
    for (const fee of [0n, 1n, 2n, 9n, 10n, 11n, 99n, 101n, 999_999_999n, parseGwei('37.3')]) {
      for (const tip of [0n, 1n, 7n, fee]) {
        if (tip > fee) continue;
        const next = bumpedFeeCaps({ maxFeePerGas: fee, maxPriorityFeePerGas: tip }, undefined, parseGwei('1000'));
        if (!next) throw new Error(`no bump of ${fee}/${tip}`);
        expect(accepted(fee, next.maxFeePerGas) && accepted(tip, next.maxPriorityFeePerGas)).toBe(true);
        expect(next.maxPriorityFeePerGas).toBeLessThanOrEqual(next.maxFeePerGas);
      }
    }
  });
});
