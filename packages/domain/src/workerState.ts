import { AUTOMATIC_THRESHOLD, judgeHashrate } from './hashrateDrop.js';
import { observedShareIntervalMs, offlineWindowMs } from './offlineWindow.js';

/**
 * A worker's state on the dashboard (docs/dashboard.md, "Workers"), from what the workers list reads
 * anyway — its last accepted share, its 24 hours and the statistics window:
 * - `offline`: no accepted share within its offline window (ten of its own share intervals, 10 minutes
 *   to 24 hours: offlineWindow.ts, as the offline alert judges it);
 * - `low`: mining, but its shares in the statistics window are significantly below 70% of its own
 *   24-hour average — the Poisson test of hashrateDrop.ts at 10⁻⁴. Over a short window the test
 *   only speaks when the drop is unmistakable: a farm is flagged within minutes, a small rig only when
 *   it nearly stopped; a healthy rig at minimum difficulty is not flagged on share-count noise;
 * - `online` otherwise.
 */
export type WorkerState = 'online' | 'low' | 'offline';

export interface WorkerFigures {
  /** Epoch ms of its last accepted share; null when none is recorded. */
  lastAcceptedAt: number | null;
  /** Σ accepted difficulty and accepted shares over its 24 hours (or its age), and how long that is. */
  dayDifficulty: number;
  dayShares: number;
  daySeconds: number;
  /** Σ accepted difficulty over the statistics window (or its age), and how long that is. */
  windowDifficulty: number;
  windowSeconds: number;
}

export function workerState(w: WorkerFigures, now: number, hashesPerDifficulty: number): WorkerState {
  if (w.lastAcceptedAt === null) return 'offline';
  const intervalMs = observedShareIntervalMs(
    { acceptedDifficulty: w.dayDifficulty, acceptedShares: w.dayShares, spanMs: w.daySeconds * 1000 },
    hashesPerDifficulty,
  );
  if (now - w.lastAcceptedAt > offlineWindowMs(intervalMs, null)) return 'offline';
  if (w.dayShares === 0 || w.daySeconds <= 0 || w.windowSeconds <= 0) return 'online';
  const average = (w.dayDifficulty * hashesPerDifficulty) / w.daySeconds;
  const state = judgeHashrate(
    'ok',
    { acceptedDifficulty: w.windowDifficulty, windowMs: w.windowSeconds * 1000 },
    { hashrate: average * AUTOMATIC_THRESHOLD, shareDifficulty: w.dayDifficulty / w.dayShares, hashesPerDifficulty },
  );
  return state === 'low' ? 'low' : 'online';
}
