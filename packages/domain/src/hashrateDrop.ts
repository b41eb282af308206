/**
 * When a worker's (or an account's, or a group's) hashrate counts as below a threshold, for the
 * hashrate alerts (docs/notifications.md, "Hashrate alerts").
 *
 * A hashrate is only ever seen through accepted shares, which arrive as a Poisson process: over a
 * window W a miner at hashrate H with shares of difficulty d sends on average μ = H × W ÷ (d × hashes
 * per difficulty) of them, and the count swings by about √μ. A rig at the pool's minimum difficulty
 * that sends a share every few minutes shows "half its hashrate" in a 10-minute window many times a
 * day while nothing is wrong. So, as for the offline alert (offlineWindow.ts):
 * - the window is derived from the expected share count: long enough that a miner exactly at the
 *   threshold would send DROP_WINDOW_SHARES (100) shares in it (between a floor and a cap);
 * - "below" is a test, not a comparison: the count seen must be one that a miner at the threshold
 *   sends with probability under DROP_SIGNIFICANCE (the Poisson lower tail), so a healthy miner above
 *   the threshold is practically never flagged;
 * - it takes a plain return above the threshold (the count seen reaches the threshold's expected
 *   count) to clear: between the two the state holds (hysteresis), so it does not flap.
 */

/** Windows are at least this (reconnects and restarts are the offline alert's business). */
export const DROP_WINDOW_FLOOR_MS = 15 * 60_000;
/** And at most this: a threshold so low it takes longer to judge is judged over a day. */
export const DROP_WINDOW_CAP_MS = 24 * 60 * 60_000;
/**
 * Shares a miner exactly at the threshold sends in a window: 100, a count that swings by ±10%. At the
 * significance below, a window is "low" at 64 shares or fewer: a miner at its usual rate (143 against
 * a threshold of 70% of it) is never there (p ≈ 10⁻¹³), one that fell to 40% of it (57) is there in
 * 84% of windows. Fewer shares would flag noise or miss real drops; the price is time — a small rig
 * sending a share every few minutes is judged over hours (a miner with one share an hour over a day).
 */
export const DROP_WINDOW_SHARES = 100;
/**
 * The lower-tail probability under which a count is "below the threshold": 10⁻⁴. A miner exactly at
 * the threshold is flagged once in 10,000 windows; one at its usual rate, well above a threshold of
 * 70% of it, practically never (the simulation test: never in a month of one-minute checks).
 */
export const DROP_SIGNIFICANCE = 1e-4;
/** The automatic threshold: this share of the miner's own 24-hour average (Braiins' default). */
export const AUTOMATIC_THRESHOLD = 0.7;

/** The judging window for a threshold: DROP_WINDOW_SHARES expected shares at it, clamped. */
export function dropWindowMs(thresholdHashrate: number, shareDifficulty: number, hashesPerDifficulty: number): number {
  if (!(thresholdHashrate > 0) || !(shareDifficulty > 0) || !(hashesPerDifficulty > 0)) return DROP_WINDOW_CAP_MS;
  const shareMs = ((shareDifficulty * hashesPerDifficulty) / thresholdHashrate) * 1000;
  return Math.min(DROP_WINDOW_CAP_MS, Math.max(DROP_WINDOW_FLOOR_MS, DROP_WINDOW_SHARES * shareMs));
}

/** P(N ≤ k) for N ~ Poisson(mean), summed in log space so that large means stay finite. */
export function poissonCdf(k: number, mean: number): number {
  if (!(mean >= 0) || !Number.isFinite(mean)) throw new RangeError(`a Poisson mean must be finite and ≥ 0: ${mean}`);
  if (k < 0) return 0;
  if (mean === 0) return 1;
  // log-sum-exp over the terms e^(−μ) μ^i ÷ i!, i = 0…k, keeping the largest so far as the scale.
  let logTerm = -mean;
  let scale = logTerm;
  let sum = 1;
  const logMean = Math.log(mean);
  for (let i = 1; i <= Math.floor(k); i++) {
    logTerm += logMean - Math.log(i);
    if (logTerm > scale) {
      sum = sum * Math.exp(scale - logTerm) + 1;
      scale = logTerm;
    } else {
      sum += Math.exp(logTerm - scale);
    }
  }
  return Math.min(1, Math.exp(scale) * sum);
}

export type HashrateState = 'ok' | 'low';

export interface WindowShares {
  /** Σ accepted difficulty in the window. */
  acceptedDifficulty: number;
  /** The window's length (the part that has passed since the miner began, if less). */
  windowMs: number;
}

/**
 * The state after one check: `low` when the window's shares are significantly below what a miner at
 * the threshold sends; back to `ok` once they reach that expected count; otherwise as it was. Counts
 * are in shares of `shareDifficulty` (the miner's mean share difficulty), so vardiff changes nothing.
 */
export function judgeHashrate(
  previous: HashrateState,
  seen: WindowShares,
  threshold: { hashrate: number; shareDifficulty: number; hashesPerDifficulty: number },
): HashrateState {
  const { hashrate, shareDifficulty, hashesPerDifficulty } = threshold;
  if (!(hashrate > 0) || !(shareDifficulty > 0) || !(seen.windowMs > 0)) return previous;
  const expected = (hashrate * (seen.windowMs / 1000)) / (shareDifficulty * hashesPerDifficulty);
  const shares = seen.acceptedDifficulty / shareDifficulty;
  if (shares >= expected) return 'ok';
  if (poissonCdf(Math.floor(shares), expected) < DROP_SIGNIFICANCE) return 'low';
  return previous;
}
