import { describe, expect, it } from 'vitest';
import {
  AUTOMATIC_THRESHOLD,
  DROP_WINDOW_CAP_MS,
  DROP_WINDOW_FLOOR_MS,
  dropWindowMs,
  type HashrateState,
  judgeHashrate,
  poissonCdf,
} from './hashrateDrop.js';
import { seededRandom } from './seededRandom.js';

/** Share arrival times (ms) of a Poisson process: rate(t) shares per ms, from 0 to `untilMs`. */
function poissonShares(rate: (t: number) => number, untilMs: number, next: () => number): number[] {
  const times: number[] = [];
  const peak = Math.max(...Array.from({ length: 1000 }, (_, i) => rate((i / 1000) * untilMs)));
  // Thinning: candidates at the peak rate, each kept with probability rate(t) ÷ peak.
  for (let t = 0; ; ) {
    t += -Math.log(1 - next()) / peak;
    if (t >= untilMs) return times;
    if (next() < rate(t) / peak) times.push(t);
  }
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// SCRYPT's convention; a small rig (1 MH/s) at a share difficulty of 4096: one share every 268 s.
const HPD = 65_536;
const DIFFICULTY = 4096;
const USUAL = 1_000_000;

/** Checks every minute from the first full window on; the state after each check. */
function checks(shares: readonly number[], fromMs: number, untilMs: number, threshold: number): HashrateState[] {
  const windowMs = dropWindowMs(threshold, DIFFICULTY, HPD);
  const states: HashrateState[] = [];
  let state: HashrateState = 'ok';
  let lo = 0;
  let hi = 0;
  for (let now = Math.max(fromMs, windowMs); now <= untilMs; now += MINUTE) {
    while (hi < shares.length && (shares[hi] as number) <= now) hi++;
    while (lo < hi && (shares[lo] as number) <= now - windowMs) lo++;
    state = judgeHashrate(
      state,
      { acceptedDifficulty: (hi - lo) * DIFFICULTY, windowMs },
      { hashrate: threshold, shareDifficulty: DIFFICULTY, hashesPerDifficulty: HPD },
    );
    states.push(state);
  }
  return states;
}

/** How many times the state turned to `low` and back. */
function changes(states: readonly HashrateState[]): { fired: number; cleared: number } {
  let fired = 0;
  let cleared = 0;
  for (let i = 1; i < states.length; i++) {
    if (states[i] === 'low' && states[i - 1] === 'ok') fired++;
    if (states[i] === 'ok' && states[i - 1] === 'low') cleared++;
  }
  return { fired: fired + (states[0] === 'low' ? 1 : 0), cleared };
}

describe('hashrate drop', () => {
  it('sums the Poisson lower tail exactly', () => {
    expect(poissonCdf(0, 2)).toBeCloseTo(Math.exp(-2), 15);
    expect(poissonCdf(2, 2)).toBeCloseTo(5 * Math.exp(-2), 15);
    expect(poissonCdf(-1, 2)).toBe(0);
    expect(poissonCdf(3, 0)).toBe(1);
    // Far in the tail and at a large mean (where a plain product would underflow): still finite.
    expect(poissonCdf(900_000, 1_000_000)).toBeLessThan(1e-100);
    expect(poissonCdf(1_000_000, 1_000_000)).toBeCloseTo(0.5, 2);
    expect(() => poissonCdf(1, Number.NaN)).toThrow(RangeError);
  });

  it('judges over a window of 100 expected shares at the threshold, between 15 minutes and a day', () => {
    // 70% of 1 MH/s at 4096 × 65,536 hashes a share: one share every 383.48 s; 100 of them, 10 h 39 min.
    expect(dropWindowMs(USUAL * AUTOMATIC_THRESHOLD, DIFFICULTY, HPD)).toBeCloseTo(
      ((100 * DIFFICULTY * HPD) / 700_000) * 1000,
      3,
    );
    expect(dropWindowMs(1e15, DIFFICULTY, HPD)).toBe(DROP_WINDOW_FLOOR_MS);
    expect(dropWindowMs(1, DIFFICULTY, HPD)).toBe(DROP_WINDOW_CAP_MS);
    expect(dropWindowMs(0, DIFFICULTY, HPD)).toBe(DROP_WINDOW_CAP_MS);
  });

  it('flags only counts a miner at the threshold sends less than once in 10,000 windows, and holds between', () => {
    const threshold = { hashrate: 700_000, shareDifficulty: DIFFICULTY, hashesPerDifficulty: HPD };
    const windowMs = dropWindowMs(700_000, DIFFICULTY, HPD);
    const seen = (shares: number) => ({ acceptedDifficulty: shares * DIFFICULTY, windowMs });
    // 100 expected: 65 shares or fewer is p = 1.23 × 10⁻⁴, not low; 64 or fewer p = 7.8 × 10⁻⁵, low.
    expect(poissonCdf(64, 100)).toBeCloseTo(7.804e-5, 8);
    expect(poissonCdf(65, 100)).toBeCloseTo(1.2315e-4, 7);
    expect(judgeHashrate('ok', seen(65), threshold)).toBe('ok');
    expect(judgeHashrate('ok', seen(64), threshold)).toBe('low');
    // Between the two lines the state holds.
    expect(judgeHashrate('low', seen(80), threshold)).toBe('low');
    expect(judgeHashrate('ok', seen(80), threshold)).toBe('ok');
    expect(judgeHashrate('low', seen(100), threshold)).toBe('ok');
  });

  it('never fires on a healthy rig at minimum difficulty over 30 days of simulated Poisson shares', () => {
    const days = 30;
    const shares = poissonShares(() => USUAL / (DIFFICULTY * HPD) / 1000, days * 24 * HOUR, seededRandom(28));
    // One share every 268 s: about 322 a day.
    expect(shares.length / days).toBeGreaterThan(300);
    const states = checks(shares, 0, days * 24 * HOUR, USUAL * AUTOMATIC_THRESHOLD);
    expect(states.length).toBeGreaterThan(40_000);
    expect(states.every((s) => s === 'ok')).toBe(true);
  });

  it('fires once when the rig drops to 40%, and clears once when it comes back, each within a window', () => {
    const usual = USUAL / (DIFFICULTY * HPD) / 1000;
    // A day at the usual rate, a day at 40%, a day back at the usual rate.
    const rate = (t: number) => (t >= 24 * HOUR && t < 48 * HOUR ? 0.4 * usual : usual);
    const shares = poissonShares(rate, 72 * HOUR, seededRandom(7));
    const states = checks(shares, 0, 72 * HOUR, USUAL * AUTOMATIC_THRESHOLD);
    expect(changes(states)).toEqual({ fired: 1, cleared: 1 });
    const window = dropWindowMs(USUAL * AUTOMATIC_THRESHOLD, DIFFICULTY, HPD);
    const at = (i: number) => window + i * MINUTE;
    const firedAt = at(states.indexOf('low'));
    const clearedAt = at(states.lastIndexOf('low') + 1);
    expect(firedAt).toBeGreaterThan(24 * HOUR);
    expect(firedAt).toBeLessThan(24 * HOUR + window);
    expect(clearedAt).toBeGreaterThan(48 * HOUR);
    expect(clearedAt).toBeLessThan(48 * HOUR + window);
  });
});
