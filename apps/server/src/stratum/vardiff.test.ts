import { describe, expect, it } from 'vitest';
import { checkIdle, DEFAULT_VARDIFF, newVardiffState, recordShare, roundDifficulty } from './vardiff.js';

const settings = { ...DEFAULT_VARDIFF, targetIntervalMs: 10_000, retargetWindowMs: 60_000, variance: 0.3 };
const bounds = { min: 1, max: 1_000_000 };

/** Feeds shares every `intervalMs` until the difficulty changes; returns [new difficulty, time]. */
function run(difficulty: number, intervalMs: number, limitMs = 600_000): [number | undefined, number] {
  const state = newVardiffState(0);
  for (let t = intervalMs; t <= limitMs; t += intervalMs) {
    const next = recordShare(settings, bounds, state, difficulty, t);
    if (next !== undefined) return [next, t];
  }
  return [undefined, limitMs];
}

describe('vardiff', () => {
  it('leaves a miner on target alone (within the variance)', () => {
    expect(run(64, 10_000)[0]).toBeUndefined();
    expect(run(64, 12_500)[0]).toBeUndefined();
    expect(run(64, 8_000)[0]).toBeUndefined();
  });

  it('raises the difficulty of a fast miner in proportion, early once shares pile up', () => {
    // 2 s per share: 5× too fast; 20 shares arrive after 40 s, before the window ends.
    expect(run(64, 2_000)).toEqual([320, 40_000]);
  });

  it('caps a step at maxStepUp and lowers a slow miner by at most maxStepDown', () => {
    expect(run(64, 10)[0]).toBe(64 * DEFAULT_VARDIFF.maxStepUp);
    expect(run(64, 30_000)).toEqual([21.33, 60_000]);
    expect(run(64, 200_000)).toEqual([16, 200_000]);
  });

  it('stays within the port bounds', () => {
    expect(run(500_000, 100)[0]).toBe(1_000_000);
    expect(run(2, 120_000)[0]).toBe(1);
    expect(run(1, 120_000)[0]).toBeUndefined();
  });

  it('lowers the difficulty of a session that went silent for a window', () => {
    const state = newVardiffState(0);
    expect(checkIdle(settings, bounds, state, 64, 59_000)).toBeUndefined();
    expect(checkIdle(settings, bounds, state, 64, 60_000)).toBe(16);
    // The window restarted: the next check a window later lowers again.
    expect(checkIdle(settings, bounds, state, 16, 90_000)).toBeUndefined();
    expect(checkIdle(settings, bounds, state, 16, 120_000)).toBe(4);
  });

  it('rounds to four significant digits', () => {
    expect(roundDifficulty(1234.5678)).toBe(1235);
    expect(roundDifficulty(0.000123456)).toBe(0.0001235);
  });
});
