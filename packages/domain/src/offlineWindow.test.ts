import { describe, expect, it } from 'vitest';
import {
  expectedShareIntervalMs,
  OFFLINE_WINDOW_CAP_MS,
  OFFLINE_WINDOW_FLOOR_MS,
  observedShareIntervalMs,
  offlineWindowMs,
} from './offlineWindow.js';

describe('offline window', () => {
  it('τ is difficulty × hashes per difficulty ÷ hashrate', () => {
    // scrypt convention 2^16 hashes per difficulty 1; 1 MH/s at difficulty 1024: 67.1 s.
    expect(expectedShareIntervalMs(1024, 65_536, 1_000_000)).toBeCloseTo(67_108.864, 3);
    expect(expectedShareIntervalMs(1024, 65_536, 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('τ from recent shares is the span per accepted share whatever the convention', () => {
    const recent = { acceptedDifficulty: 64 * 12, acceptedShares: 12, spanMs: 3_600_000 };
    expect(observedShareIntervalMs(recent, 65_536)).toBeCloseTo(300_000, 6);
    expect(observedShareIntervalMs(recent, 2 ** 32)).toBeCloseTo(300_000, 6);
    expect(observedShareIntervalMs({ ...recent, acceptedShares: 0 }, 65_536)).toBe(Number.POSITIVE_INFINITY);
  });

  it('is ten intervals between a 10-minute floor and a day, or the miner’s own minutes', () => {
    expect(offlineWindowMs(5 * 60_000, null)).toBe(50 * 60_000);
    expect(offlineWindowMs(5_000, null)).toBe(OFFLINE_WINDOW_FLOOR_MS);
    expect(offlineWindowMs(6 * 3_600_000, null)).toBe(OFFLINE_WINDOW_CAP_MS);
    expect(offlineWindowMs(Number.POSITIVE_INFINITY, null)).toBe(OFFLINE_WINDOW_CAP_MS);
    expect(offlineWindowMs(5 * 60_000, 15)).toBe(15 * 60_000);
  });
});
