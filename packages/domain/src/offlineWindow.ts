/**
 * When a worker counts as offline for the alerts (docs/notifications.md, "When a worker is offline").
 *
 * Accepted shares of a steadily mining worker arrive as a Poisson process whose mean interval is the
 * worker's expected share interval τ = difficulty × hashes per difficulty ÷ hashrate. The probability
 * that no share arrives in a window W while the worker is in fact mining is e^(−W/τ). A fixed window
 * (10 minutes elsewhere) flags a worker whose τ is several minutes — a small rig at the pool's minimum
 * difficulty — many times a day; a window proportional to τ keeps the false-alarm rate the same for
 * every worker.
 */

/** Windows are at least this: shorter gaps are reconnects and pool restarts, not a worker down. */
export const OFFLINE_WINDOW_FLOOR_MS = 10 * 60_000;
/** Automatic windows are at most this: a worker silent for a day is down whatever its interval. */
export const OFFLINE_WINDOW_CAP_MS = 24 * 60 * 60_000;
/**
 * Expected share intervals in one window. e^(−10) ≈ 4.5 × 10⁻⁵: a worker mining steadily goes ten
 * intervals without a share about once in 22,000 intervals, so a rig with a 5-minute interval
 * (288 a day) raises a false alarm about once in 76 days, and one with a 30-second interval is
 * covered by the 10-minute floor (20 intervals: e^(−20) ≈ 2 × 10⁻⁹). With k = 5 the same 5-minute rig
 * would be flagged about twice a day (288 × e^(−5) ≈ 1.9), which is the flapping miners complain of.
 */
export const OFFLINE_WINDOW_INTERVALS = 10;

/** τ in milliseconds: difficulty × hashes per difficulty ÷ hashrate (hashes per second). */
export function expectedShareIntervalMs(difficulty: number, hashesPerDifficulty: number, hashrate: number): number {
  if (!(difficulty > 0) || !(hashesPerDifficulty > 0) || !(hashrate > 0)) return Number.POSITIVE_INFINITY;
  return ((difficulty * hashesPerDifficulty) / hashrate) * 1000;
}

/** What the pool saw of a worker recently: accepted difficulty and shares over a span of time. */
export interface RecentShares {
  /** Σ accepted difficulty (a decimal number). */
  acceptedDifficulty: number;
  acceptedShares: number;
  spanMs: number;
}

/**
 * τ of a worker from its recent shares: its mean share difficulty (Σ difficulty ÷ shares) at its
 * hashrate (Σ difficulty × hashes per difficulty ÷ span). Infinite when nothing was accepted.
 */
export function observedShareIntervalMs(recent: RecentShares, hashesPerDifficulty: number): number {
  if (recent.acceptedShares <= 0 || recent.spanMs <= 0) return Number.POSITIVE_INFINITY;
  const difficulty = recent.acceptedDifficulty / recent.acceptedShares;
  const hashrate = (recent.acceptedDifficulty * hashesPerDifficulty) / (recent.spanMs / 1000);
  return expectedShareIntervalMs(difficulty, hashesPerDifficulty, hashrate);
}

/**
 * The offline window of a worker: the miner's own (minutes) when set, else
 * clamp(OFFLINE_WINDOW_INTERVALS × τ, floor, cap). A worker with no interval known (nothing accepted
 * recently) gets the cap.
 */
export function offlineWindowMs(intervalMs: number, windowMinutes: number | null): number {
  if (windowMinutes !== null) return windowMinutes * 60_000;
  const automatic = OFFLINE_WINDOW_INTERVALS * intervalMs;
  if (!Number.isFinite(automatic)) return OFFLINE_WINDOW_CAP_MS;
  return Math.min(OFFLINE_WINDOW_CAP_MS, Math.max(OFFLINE_WINDOW_FLOOR_MS, automatic));
}
