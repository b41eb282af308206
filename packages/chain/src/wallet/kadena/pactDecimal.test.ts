import { describe, expect, it } from 'vitest';
import { pactDecimal, pactDecimalToUnits } from './pactDecimal.js';

describe('pactDecimal', () => {
  it('writes KDA units as exact Pact decimal literals with a point', () => {
    expect(pactDecimal(1_500_000_000_000n)).toBe('1.5');
    expect(pactDecimal(1_000_000_000_000n)).toBe('1.0');
    expect(pactDecimal(1n)).toBe('0.000000000001');
    expect(pactDecimal(0n)).toBe('0.0');
    expect(pactDecimal(6_697_122_470_000n)).toBe('6.69712247');
    // Beyond a double's 53 bits: every digit kept.
    expect(pactDecimal(123_456_789_012_345_678_901n)).toBe('123456789.012345678901');
  });

  it('refuses a negative amount', () => {
    expect(() => pactDecimal(-1n)).toThrow(RangeError);
  });
});

describe('pactDecimalToUnits', () => {
  it('reads decimals as Pact and operators write them, exactly', () => {
    expect(pactDecimalToUnits('0.00000001')).toBe(10_000n);
    expect(pactDecimalToUnits('1.0e-12')).toBe(1n);
    expect(pactDecimalToUnits('123456789.012345678901')).toBe(123_456_789_012_345_678_901n);
    expect(pactDecimalToUnits('42')).toBe(42_000_000_000_000n);
  });

  it('refuses more than 12 decimals (no such KDA amount)', () => {
    expect(() => pactDecimalToUnits('0.0000000000001')).toThrow(/more than 12 decimals/);
    expect(() => pactDecimalToUnits('1,5')).toThrow(RangeError);
  });
});
