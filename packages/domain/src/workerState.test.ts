import { describe, expect, it } from 'vitest';
import { type WorkerFigures, workerState } from './workerState.js';

const MIN = 60_000;
const NOW = Date.parse('2024-05-06T12:00:00Z');
const HPD = 65_536;

/** A farm: 100 shares of difficulty 4096 a minute, 24 hours of them, 10 minutes in the window. */
const farm = (windowShares: number, lastAcceptedAt = NOW - 1000): WorkerFigures => ({
  lastAcceptedAt,
  dayDifficulty: 100 * 1440 * 4096,
  dayShares: 100 * 1440,
  daySeconds: 86_400,
  windowDifficulty: windowShares * 4096,
  windowSeconds: 600,
});

describe('worker state', () => {
  it('changes as a worker’s shares stop, slow and resume', () => {
    // Mining at its usual 1,000 shares a window.
    expect(workerState(farm(1000), NOW, HPD)).toBe('online');
    // Slowed to 40%: 400 shares against 700 expected at 70% of its average — unmistakable.
    expect(workerState(farm(400), NOW, HPD)).toBe('low');
    // A little under its average (650 of 700 at the threshold) is noise, not low.
    expect(workerState(farm(650), NOW, HPD)).toBe('online');
    // Stopped: its interval is 0.6 s, its window the 10-minute floor; 11 minutes silent.
    expect(workerState(farm(0, NOW - 11 * MIN), NOW, HPD)).toBe('offline');
    // Back: shares again within the window.
    expect(workerState(farm(900, NOW - 2000), NOW, HPD)).toBe('online');
  });

  it('does not call a small rig low on the noise of a few shares', () => {
    // One share every 268 s at minimum difficulty: 2.2 expected in the window; none came.
    const small: WorkerFigures = {
      lastAcceptedAt: NOW - 9 * MIN,
      dayDifficulty: 322 * 4096,
      dayShares: 322,
      daySeconds: 86_400,
      windowDifficulty: 0,
      windowSeconds: 600,
    };
    expect(workerState(small, NOW, HPD)).toBe('online');
    // Offline only past ten of its intervals (about 45 minutes).
    expect(workerState({ ...small, lastAcceptedAt: NOW - 40 * MIN }, NOW, HPD)).toBe('online');
    expect(workerState({ ...small, lastAcceptedAt: NOW - 50 * MIN }, NOW, HPD)).toBe('offline');
  });

  it('is offline without any accepted share recorded', () => {
    expect(workerState({ ...farm(0), lastAcceptedAt: null }, NOW, HPD)).toBe('offline');
  });
});
