import { ALGORITHM_KEYS } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { MAX_UINT256, POW, type PowAlgorithm, uint256ToBytesBE, uint256ToBytesLE } from './index.js';

const algorithms = Object.values(POW);
const TWO_256 = 2 ** 256;

/** A 32-byte hash whose hashValue is exactly `value`, in the algorithm's byte order. */
function hashWithValue(algorithm: PowAlgorithm, value: bigint): Uint8Array {
  const le = uint256ToBytesLE(value);
  return algorithm.hashValue(le) === value ? le : uint256ToBytesBE(value);
}

describe('POW', () => {
  it('has one algorithm per AlgorithmKey, keyed by its own key', () => {
    expect(Object.keys(POW).sort()).toEqual([...ALGORITHM_KEYS].sort());
    for (const [key, algorithm] of Object.entries(POW)) expect(algorithm.key).toBe(key);
  });

  describe.each(algorithms.map((a) => [a.key, a] as const))('%s', (_key, algorithm) => {
    it('hashesPerDifficulty ≈ 2^256 / diff1Target (within 0.01%)', () => {
      const expected = TWO_256 / Number(algorithm.diff1Target);
      expect(Math.abs(algorithm.hashesPerDifficulty / expected - 1)).toBeLessThan(1e-4);
    });

    it('difficulty 1 is diff1Target', () => {
      expect(algorithm.targetForDifficulty(1)).toBe(algorithm.diff1Target);
      expect(algorithm.difficultyForTarget(algorithm.diff1Target)).toBe(1);
    });

    it('targetForDifficulty(difficultyForTarget(t)) ≈ t', () => {
      const targets = [
        algorithm.diff1Target,
        algorithm.diff1Target / 3n,
        algorithm.diff1Target / 1_000_003n,
        (algorithm.diff1Target * 7n) / 10n ** 9n,
        0x1234567890abcdefn << 100n,
        1n << 150n,
      ];
      for (const target of targets) {
        const back = algorithm.targetForDifficulty(algorithm.difficultyForTarget(target));
        const error = Number(back > target ? back - target : target - back) / Number(target);
        expect(error).toBeLessThan(1e-12);
      }
    });

    it('targetForDifficulty is monotonic decreasing', () => {
      const difficulties = [1e-6, 0.001, 0.5, 1, 1.5, 2, 1000, 65536, 65536.5, 1e6, 1e12, 2 ** 40 + 0.25, 1e15];
      const targets = difficulties.map((d) => algorithm.targetForDifficulty(d));
      for (let i = 1; i < targets.length; i++) {
        expect((targets[i] as bigint) <= (targets[i - 1] as bigint)).toBe(true);
        // strictly, except where low difficulties are capped at 2^256 − 1
        if ((targets[i - 1] as bigint) < MAX_UINT256) {
          expect((targets[i] as bigint) < (targets[i - 1] as bigint)).toBe(true);
        }
      }
    });

    it('meetsTarget: a hash equal to the target passes, target − 1 fails', () => {
      for (const target of [
        algorithm.diff1Target,
        algorithm.diff1Target / 1000n,
        1n << 200n,
        0x00ff00ff00ffn << 128n,
      ]) {
        const hash = hashWithValue(algorithm, target);
        expect(algorithm.hashValue(hash)).toBe(target);
        expect(algorithm.meetsTarget(hash, target)).toBe(true);
        expect(algorithm.meetsTarget(hash, target + 1n)).toBe(true);
        expect(algorithm.meetsTarget(hash, target - 1n)).toBe(false);
      }
    });

    it('works with detached methods', () => {
      const { targetForDifficulty, difficultyForTarget, meetsTarget, hashValue } = algorithm;
      const target = targetForDifficulty(16);
      expect(difficultyForTarget(target)).toBeCloseTo(16, 12);
      expect(meetsTarget(hashWithValue(algorithm, target), target)).toBe(true);
      expect(hashValue(new Uint8Array(32))).toBe(0n);
    });

    it('rejects hashes that are not 32 bytes', () => {
      expect(() => algorithm.hashValue(new Uint8Array(33))).toThrow(RangeError);
    });
  });
});
