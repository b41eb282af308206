import { describe, expect, it } from 'vitest';
import {
  bitsFromTarget,
  decimalFraction,
  difficultyForTarget,
  targetForDifficulty,
  targetFromBits,
  targetFromCompact,
} from './target.js';
import { MAX_UINT256, ratioToNumber, readUint256BE, readUint256LE, uint256ToBytesLE } from './uint256.js';

describe('targetFromBits / bitsFromTarget (Bitcoin compact nBits)', () => {
  // bitcoin/bitcoin src/test/arith_uint256_tests.cpp, BOOST_AUTO_TEST_CASE(bignum_SetCompact):
  // [nBits, target, GetCompact() of that target]
  const cases: [number, bigint, number][] = [
    [0x00000000, 0n, 0],
    [0x00123456, 0n, 0],
    [0x01003456, 0n, 0],
    [0x02000056, 0n, 0],
    [0x03000000, 0n, 0],
    [0x04000000, 0n, 0],
    [0x00923456, 0n, 0],
    [0x01803456, 0n, 0],
    [0x02800056, 0n, 0],
    [0x03800000, 0n, 0],
    [0x04800000, 0n, 0],
    [0x01123456, 0x12n, 0x01120000],
    [0x02123456, 0x1234n, 0x02123400],
    [0x03123456, 0x123456n, 0x03123456],
    [0x04123456, 0x12345600n, 0x04123456],
    [0x05009234, 0x92340000n, 0x05009234],
    [0x20123456, 0x1234560000000000000000000000000000000000000000000000000000000000n, 0x20123456],
  ];

  it.each(cases)('decodes nBits %i and re-encodes its target', (bits, target, compact) => {
    expect(targetFromBits(bits)).toBe(target);
    expect(bitsFromTarget(target)).toBe(compact);
  });

  it('never produces a mantissa with the sign bit (0x80 → 0x02008000)', () => {
    expect(bitsFromTarget(0x80n)).toBe(0x02008000);
  });

  it('rejects negative encodings (0x01fedcba, 0x04923456)', () => {
    expect(() => targetFromBits(0x01fedcba)).toThrow(/negative/);
    expect(() => targetFromBits(0x04923456)).toThrow(/negative/);
  });

  it('rejects overflowing encodings (0xff123456)', () => {
    expect(() => targetFromBits(0xff123456)).toThrow(/overflow/);
    expect(() => targetFromBits(0x21010000)).toThrow(/overflow/);
    expect(targetFromBits(0x2100ffff)).toBe(0xffffn << 240n);
  });

  it('rejects values that are not unsigned 32-bit integers', () => {
    expect(() => targetFromBits(-1)).toThrow(RangeError);
    expect(() => targetFromBits(2 ** 32)).toThrow(RangeError);
    expect(() => targetFromBits(1.5)).toThrow(RangeError);
  });

  it("decodes Bitcoin's genesis bits 0x1d00ffff to 0xFFFF × 2^208", () => {
    // bitcoin/bitcoin src/kernel/chainparams.cpp: CreateGenesisBlock(1231006505, 2083236893, 0x1d00ffff, 1, 50 * COIN)
    expect(targetFromBits(0x1d00ffff)).toBe(0xffffn << 208n);
    expect(bitsFromTarget(0xffffn << 208n)).toBe(0x1d00ffff);
  });

  it('round-trips bits for targets across the range', () => {
    for (const bits of [0x1d00ffff, 0x1e0ffff0, 0x1b0404cb, 0x207fffff, 0x170331db, 0x03123456]) {
      expect(bitsFromTarget(targetFromBits(bits))).toBe(bits);
    }
  });
});

describe('targetFromCompact (CKB / Kaspa unsigned compact)', () => {
  it('uses the full 24-bit mantissa, with no sign bit', () => {
    // Kaspa testnet genesis bits (kaspanet/rusty-kaspa consensus/core/src/config/genesis.rs)
    expect(targetFromCompact(0x1e7fffff)).toBe(0x7fffffn << 216n);
    // CKB mainnet block 18,731,746 compact_target
    expect(targetFromCompact(0x190c561d)).toBe(0x0c561dn << 176n);
    expect(targetFromCompact(0x1d800000)).toBe(0x800000n << 208n);
    expect(targetFromCompact(0x02123456)).toBe(0x1234n);
  });

  it('rejects targets beyond 256 bits', () => {
    expect(targetFromCompact(0x20ffffff)).toBe(0xffffffn << 232n);
    expect(() => targetFromCompact(0x21000001)).toThrow(/overflow/);
    expect(targetFromCompact(0x21000000)).toBe(0n);
  });
});

describe('targetForDifficulty / difficultyForTarget', () => {
  const diff1 = 0xffffn << 208n;

  it('reads a difficulty as the decimal it prints as', () => {
    expect(decimalFraction(0.001)).toEqual([1n, 1000n]);
    expect(decimalFraction(65536.5)).toEqual([655365n, 10n]);
    expect(decimalFraction(1e-7)).toEqual([1n, 10000000n]);
    expect(decimalFraction(1.5e21)).toEqual([1500000000000000000000n, 1n]);
    expect(decimalFraction(3)).toEqual([3n, 1n]);
  });

  it('computes floor(diff1 / d) exactly for fractional difficulties', () => {
    expect(targetForDifficulty(diff1, 1)).toBe(diff1);
    expect(targetForDifficulty(diff1, 0.001)).toBe(diff1 * 1000n);
    expect(targetForDifficulty(diff1, 65536.5)).toBe((diff1 * 2n) / 131073n);
    expect(targetForDifficulty(diff1, 3)).toBe(diff1 / 3n);
    expect(targetForDifficulty(diff1, 1e-7)).toBe(diff1 * 10000000n);
    expect(targetForDifficulty(diff1, 2.5e20)).toBe((diff1 * 10n) / 2500000000000000000000n);
  });

  it('caps the target at 2^256 − 1', () => {
    expect(targetForDifficulty(MAX_UINT256, 0.5)).toBe(MAX_UINT256);
    expect(targetForDifficulty(diff1, 1e-30)).toBe(MAX_UINT256);
  });

  it('rejects non-positive and non-finite difficulties', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => targetForDifficulty(diff1, bad)).toThrow(RangeError);
    }
  });

  it('converts targets back to difficulties', () => {
    expect(difficultyForTarget(diff1, diff1)).toBe(1);
    expect(difficultyForTarget(diff1, diff1 / 1024n)).toBe(1024);
    expect(difficultyForTarget(diff1, diff1 * 1000n)).toBeCloseTo(0.001, 15);
    expect(difficultyForTarget(diff1, 0n)).toBe(Number.POSITIVE_INFINITY);
  });

  // bitcoin/bitcoin src/test/blockchain_tests.cpp: GetDifficulty(nBits), compared there within 0.00001.
  // (Its other cases, 0x1ef88f6f / 0x1df88f6f / 0x1cf88f6f, have the sign bit set: GetDifficulty reads
  // the mantissa unsigned, but as targets they are negative and rejected.)
  it('matches Bitcoin Core GetDifficulty for a very low target (0x1f111111)', () => {
    expect(Math.abs(difficultyForTarget(diff1, targetFromBits(0x1f111111)) - 0.000001)).toBeLessThan(0.00001);
  });

  it('matches Bitcoin Core GetDifficulty for a very high target (0x12345678)', () => {
    const difficulty = difficultyForTarget(diff1, targetFromBits(0x12345678));
    // Bitcoin Core's expected value is the double 5913134931067755359633408.0
    expect(difficulty / Number('5913134931067755359633408')).toBeCloseTo(1, 12);
  });
});

describe('uint256 helpers', () => {
  it('reads both byte orders', () => {
    const bytes = new Uint8Array(32);
    bytes[0] = 1;
    expect(readUint256LE(bytes)).toBe(1n);
    expect(readUint256BE(bytes)).toBe(1n << 248n);
    expect(readUint256LE(uint256ToBytesLE(MAX_UINT256 - 5n))).toBe(MAX_UINT256 - 5n);
    expect(() => readUint256LE(new Uint8Array(31))).toThrow(RangeError);
  });

  it('divides big integers to the nearest float', () => {
    expect(ratioToNumber(1n, 3n)).toBe(1 / 3);
    expect(ratioToNumber(1n << 255n, 1n)).toBe(2 ** 255);
    expect(ratioToNumber(1n, 1n << 200n)).toBe(2 ** -200);
    expect(ratioToNumber(10n ** 70n, 7n * 10n ** 50n)).toBe(1e20 / 7);
  });
});
