import { describe, expect, it } from 'vitest';
import { hashesPerBlock, soloOdds, splitSoloReward } from './solo.js';

describe('soloOdds', () => {
  it('is 1 − e^(−H·86400/W), kept exact for a small miner', () => {
    // 1 TH/s against SHA256 difficulty 120 T: W = 120e12 × 2^32, λ = 1e12 × 86400 / W = 1.6763806e−7.
    const w = hashesPerBlock('120000000000000', 2 ** 32);
    const odds = soloOdds(1e12, w);
    expect(odds.pDay).toBeCloseTo(1.6763806e-7, 13);
    expect(odds.pDay / ((1e12 * 86_400) / w)).toBeCloseTo(1, 6);
    // W / H seconds: 5.15e14 s, 5.97 million days.
    expect((odds.expectedSeconds as number) / 86_400).toBeCloseTo(5_965_232.36, 1);
  });

  it('is about 63 % when a day holds one expected block', () => {
    expect(soloOdds(1000, 86_400_000).pDay).toBeCloseTo(1 - Math.exp(-1), 12);
    expect(soloOdds(1000, 86_400_000).expectedSeconds).toBe(86_400);
  });

  it('is nothing at no hashrate and refuses nonsense', () => {
    expect(soloOdds(0, 1e9)).toEqual({ pDay: 0, expectedSeconds: null });
    expect(() => soloOdds(-1, 1e9)).toThrow(RangeError);
    expect(() => soloOdds(1, 0)).toThrow(RangeError);
    expect(() => soloOdds(Number.NaN, 1)).toThrow(RangeError);
  });
});

describe('splitSoloReward', () => {
  it('credits the reward less the fee, rounding down, the rest to the pool', () => {
    // 1 % of 6.25 LTC (625,000,001 litoshi, odd on purpose): fee 6,250,000.01 → owner ⌊618,750,000.99⌋.
    expect(splitSoloReward(625_000_001n, { feePercent: 1, discount: 0, referred: false })).toEqual({
      owner: 618_750_000n,
      referral: 0n,
      poolFee: 6_250_001n,
    });
  });

  it('gives a referrer a fifth of the fee and applies the fee discount', () => {
    // 2 % less a 25 % discount = 1.5 % of 1,000,000: fee 15,000, referral 3,000.
    expect(splitSoloReward(1_000_000n, { feePercent: 2, discount: '0.25', referred: true })).toEqual({
      owner: 985_000n,
      referral: 3_000n,
      poolFee: 12_000n,
    });
  });

  it('adds up to the reward exactly at no fee and at all fee', () => {
    expect(splitSoloReward(7n, { feePercent: 0, discount: 0, referred: true })).toEqual({
      owner: 7n,
      referral: 0n,
      poolFee: 0n,
    });
    expect(splitSoloReward(7n, { feePercent: 100, discount: 0, referred: false })).toEqual({
      owner: 0n,
      referral: 0n,
      poolFee: 7n,
    });
    expect(() => splitSoloReward(-1n, { feePercent: 1, discount: 0, referred: false })).toThrow(RangeError);
  });
});
