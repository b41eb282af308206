import { describe, expect, it } from 'vitest';
import {
  AUTOMATIC_THRESHOLD,
  DROP_SIGNIFICANCE,
  DROP_WINDOW_CAP_MS,
  DROP_WINDOW_FLOOR_MS,
  dropWindowMs,
  type HashrateState,
  judgeHashrate,
  poissonCdf,
} from './hashrateDrop.js';

/** A seeded generator (mulberry32), so the simulation is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

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

  it('judges over a window of 40 expected shares at the threshold, between 15 minutes and a day', () => {
    // 70% of 1 MH/s at 4096 × 65,536 hashes a share: one share every 383.48 s; 40 of them, 4 h 16 min.
    expect(dropWindowMs(USUAL * AUTOMATIC_THRESHOLD, DIFFICULTY, HPD)).toBeCloseTo(
      ((40 * DIFFICULTY * HPD) / 700_000) * 1000,
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
    // 40 expected: 19 shares or fewer is p = 1.76 × 10⁻⁴, not low; 18 or fewer p = 8.0 × 10⁻⁵, low.
    expect(poissonCdf(18, 40)).toBeCloseTo(8.03e-5, 7);
    expect(poissonCdf(19, 40)).toBeCloseTo(1.763e-4, 6);
    expect(poissonCdf(19, 40)).toBeGreaterThan(DROP_SIGNIFICANCE);
    expect(judgeHashrate('ok', seen(19), threshold)).toBe('ok');
    expect(judgeHashrate('ok', seen(18), threshold)).toBe('low');
    // Between the two lines the state holds.
    expect(judgeHashrate('low', seen(30), threshold)).toBe('low');
    expect(judgeHashrate('ok', seen(30), threshold)).toBe('ok');
    expect(judgeHashrate('low', seen(40), threshold)).toBe('ok');
  });

  it('never fires on a healthy rig at minimum difficulty over 30 days of simulated Poisson shares', () => {
    const days = 30;
    const shares = poissonShares(() => USUAL / (DIFFICULTY * HPD) / 1000, days * 24 * HOUR, random(28));
    // One share every 268 s: about 322 a day.
    expect(shares.length / days).toBeGreaterThan(300);
    const states = checks(shares, 0, days * 24 * HOUR, USUAL * AUTOMATIC_THRESHOLD);
    expect(states.length).toBeGreaterThan(40_000);
    expect(states.every((s) => s === 'ok')).toBe(true);
  });

  it('fires once when the rig drops to 40%, and clears once when it comes back', () => {
    const usual = USUAL / (DIFFICULTY * HPD) / 1000;
    // 12 hours at the usual rate, 12 at 40%, 12 back at the usual rate.
    const rate = (t: number) => (t >= 12 * HOUR && t < 24 * HOUR ? 0.4 * usual : usual);
    const shares = poissonShares(rate, 36 * HOUR, random(7));
    const states = checks(shares, 0, 36 * HOUR, USUAL * AUTOMATIC_THRESHOLD);
    expect(changes(states)).toEqual({ fired: 1, cleared: 1 });
    const firstWindow = dropWindowMs(USUAL * AUTOMATIC_THRESHOLD, DIFFICULTY, HPD);
    const at = (i: number) => Math.max(0, firstWindow) + i * MINUTE;
    const firedAt = at(states.indexOf('low'));
    const clearedAt = at(states.lastIndexOf('low') + 1);
    // Within one window of each change.
    expect(firedAt).toBeGreaterThan(12 * HOUR);
    expect(firedAt).toBeLessThan(12 * HOUR + firstWindow);
    expect(clearedAt).toBeGreaterThan(24 * HOUR);
    expect(clearedAt).toBeLessThan(24 * HOUR + firstWindow);
  });
});
