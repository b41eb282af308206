import { seededRandom } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import {
  checkIdle,
  DEFAULT_VARDIFF,
  newVardiffState,
  recordShare,
  roundDifficulty,
  type VardiffSettings,
} from './vardiff.js';

const settings = { ...DEFAULT_VARDIFF, targetIntervalMs: 10_000, retargetWindowMs: 60_000, variance: 0.3 };
const bounds = { min: 1, max: 1_000_000 };

/** Feeds shares at `difficulty` every `intervalMs` until the difficulty changes; returns [new difficulty, time]. */
function run(difficulty: number, intervalMs: number, limitMs = 600_000): [number | undefined, number] {
  const state = newVardiffState(0);
  for (let t = intervalMs; t <= limitMs; t += intervalMs) {
    const next = recordShare(settings, bounds, state, difficulty, difficulty, t);
    if (next !== undefined) return [next, t];
  }
  return [undefined, limitMs];
}

interface Simulation {
  /** Work per second in difficulty units (hashes per second ÷ hashes per difficulty 1). */
  workPerSecond: number;
  start: number;
  /** How long a miner goes on with its old work after a retarget (cpuminer 2.5.1: up to its 5 s scan time). */
  switchDelayMs: number;
  durationMs: number;
  seed: number;
  settings?: VardiffSettings;
}

/**
 * A miner as a Poisson process of shares at the difficulty of the work it holds; after a retarget it
 * keeps its old work (and difficulty) for `switchDelayMs`, as real miners do, so those shares reach
 * vardiff at the old difficulty. The session's idle check runs every 5 s. Returns the difficulty at
 * every second and the highest it reached.
 */
function simulate(sim: Simulation) {
  const s = sim.settings ?? DEFAULT_VARDIFF;
  const wide = { min: 1e-12, max: 1e15 };
  const next = seededRandom(sim.seed);
  const state = newVardiffState(0);
  let session = sim.start;
  let miner = sim.start;
  let switchAt = Number.POSITIVE_INFINITY;
  let nextShare = 0;
  let nextTick = 5_000;
  let highest = session;
  const perSecond: number[] = [];
  const draw = (from: number) => from - (Math.log(1 - next()) * 1000 * miner) / sim.workPerSecond;
  nextShare = draw(0);
  const change = (to: number | undefined, at: number) => {
    if (to === undefined) return;
    session = to;
    highest = Math.max(highest, to);
    switchAt = at + sim.switchDelayMs;
  };
  for (let second = 1; second * 1000 <= sim.durationMs; second++) {
    const end = second * 1000;
    for (;;) {
      const t = Math.min(nextShare, nextTick, switchAt);
      if (t > end) break;
      if (t === switchAt) {
        miner = session;
        switchAt = Number.POSITIVE_INFINITY;
        nextShare = draw(t);
      } else if (t === nextTick) {
        change(checkIdle(s, wide, state, session, t), t);
        nextTick += 5_000;
      } else {
        change(recordShare(s, wide, state, session, miner, t), t);
        nextShare = draw(t);
      }
    }
    perSecond.push(session);
  }
  return { perSecond, highest, right: (sim.workPerSecond * s.targetIntervalMs) / 1000 };
}

describe('vardiff', () => {
  it('leaves a miner on target alone (within the variance)', () => {
    expect(run(64, 10_000)[0]).toBeUndefined();
    expect(run(64, 12_500)[0]).toBeUndefined();
    expect(run(64, 8_000)[0]).toBeUndefined();
  });

  it('raises the difficulty of a fast miner by the cautious end of the measured rate, from eight shares on', () => {
    // 2 s per share: 5× too fast, seen at the eighth share (16 s); one standard error (1/√8 in log
    // terms) is given to chance: ×5 / e^0.354 = ×3.51.
    expect(run(64, 2_000)).toEqual([224.7, 16_000]);
    // 4 s per share: 2.5× too fast: ×1.75 at the eighth share.
    expect(run(64, 4_000)).toEqual([112.4, 32_000]);
  });

  it('caps a step at maxStepUp and lowers a slow miner by at most maxStepDown', () => {
    expect(run(64, 10)[0]).toBe(64 * DEFAULT_VARDIFF.maxStepUp);
    // Two shares in a minute: a third of the aimed-at rate, less one standard error (1/√2) of chance.
    expect(run(64, 30_000)).toEqual([43.27, 60_000]);
    expect(run(64, 200_000)).toEqual([16, 200_000]);
  });

  it('stays within the port bounds', () => {
    expect(run(500_000, 100)[0]).toBe(1_000_000);
    expect(run(2, 120_000)[0]).toBe(1);
    expect(run(1, 120_000)[0]).toBeUndefined();
  });

  it('counts each share at the difficulty it was accepted at, not the session’s newer one', () => {
    // Just raised from 1 to 16, where this miner is on target (1.6 difficulty a second). For 5 s it
    // goes on with its old work: eight shares at 1 are half a share at 16, right on time.
    const state = newVardiffState(0);
    for (let i = 1; i <= 8; i++) expect(recordShare(settings, bounds, state, 16, 1, i * 625)).toBeUndefined();
    expect(state.work).toBe(8);
    // Counted at 16 the same shares look sixteen times too fast: the run-away of issue 14.
    const wrong = newVardiffState(0);
    let asked: number | undefined;
    for (let i = 1; i <= 8; i++) asked = recordShare(settings, bounds, wrong, 16, 16, i * 625);
    expect(asked).toBeGreaterThan(16 * 10);
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

  describe('converges without overshoot on simulated miners', () => {
    // Ratios of the right difficulty to the port's start: a CPU miner on the demo port (5 MH/s sha256d
    // from 4,096 hashes: ×12,000), an Antminer S19 on a standard SHA256 port (110 TH/s from 1,024:
    // ×250), a Scrypt L7 (9.5 GH/s from 64: ×22,600), a miner already at the right difficulty; each
    // keeps its old work for a while after each retarget (cpuminer 2.5.1: up to its 5 s scan time).
    // Chance decides how fast shares come, so the figures are over 40 seeded runs of 10 minutes.
    const cases = [
      { name: 'CPU miner, demo port', ratio: 12_000, switchDelayMs: 5_000 },
      { name: 'SHA256 ASIC, standard port', ratio: 250, switchDelayMs: 200 },
      { name: 'Scrypt ASIC, standard port', ratio: 22_600, switchDelayMs: 1_000 },
      { name: 'already right', ratio: 1, switchDelayMs: 5_000 },
    ];
    for (const c of cases) {
      it(`${c.name}: within 2× of the right difficulty after one minute, no run-away`, () => {
        let within = 0;
        let settledSeconds = 0;
        let seconds = 0;
        for (let seed = 1; seed <= 40; seed++) {
          const sim = simulate({
            workPerSecond: c.ratio / 10,
            start: 1,
            switchDelayMs: c.switchDelayMs,
            durationMs: 600_000,
            seed,
          });
          const ratios = sim.perSecond.map((d) => d / sim.right);
          const atOneMinute = ratios[59] as number;
          if (atOneMinute > 0.5 && atOneMinute < 2) within++;
          for (const r of ratios.slice(60)) {
            seconds++;
            if (r > 0.5 && r < 2) settledSeconds++;
          }
          // No run-away: never four times too hard, whatever the luck.
          expect(sim.highest / sim.right).toBeLessThan(4);
          expect(Math.min(...ratios.slice(60))).toBeGreaterThan(0.2);
        }
        expect(within / 40).toBeGreaterThanOrEqual(0.9);
        expect(settledSeconds / seconds).toBeGreaterThan(0.97);
      });
    }

    it('recovers from a start 100× too high to within 2.5×: most runs within five minutes, all within fifteen', () => {
      let settled = 0;
      for (let seed = 1; seed <= 40; seed++) {
        const sim = simulate({ workPerSecond: 0.1, start: 100, switchDelayMs: 1_000, durationMs: 900_000, seed });
        const ratios = sim.perSecond.map((d) => d / sim.right);
        const first = ratios.findIndex((r) => r < 2.5);
        expect(first).toBeGreaterThanOrEqual(0);
        if (first < 300) settled++;
        expect(Math.min(...ratios) / 1).toBeGreaterThan(0.2);
      }
      expect(settled / 40).toBeGreaterThanOrEqual(0.8);
    });
  });
});
