/**
 * Variable difficulty: keeps each session near one share per `targetIntervalMs`. Pure functions over
 * a small state object; the session decides when to send the result (set_difficulty, then a notify).
 *
 * Shares are counted over a retarget window. At the end of a window (or earlier, once a miner has
 * sent far more shares than a window should hold) the observed interval is compared with the target;
 * inside the variance tolerance nothing changes, outside it the difficulty moves by the ratio, at
 * most `maxStepUp` times up or `maxStepDown` times down per retarget, within the port's bounds.
 * A window without any share lowers the difficulty as if a share had arrived just now.
 */

export interface VardiffSettings {
  /** Aimed-at time between two shares of one session. */
  targetIntervalMs: number;
  /** Shares are averaged over at least this long before a retarget. */
  retargetWindowMs: number;
  /** Relative deviation of the observed interval tolerated without a change (0.3 = ±30%). */
  variance: number;
  /** A retarget happens before the window ends once this many shares arrived. */
  fastRetargetShares: number;
  maxStepUp: number;
  maxStepDown: number;
}

export const DEFAULT_VARDIFF: VardiffSettings = {
  targetIntervalMs: 10_000,
  retargetWindowMs: 60_000,
  variance: 0.3,
  fastRetargetShares: 20,
  maxStepUp: 16,
  maxStepDown: 4,
};

export interface DifficultyBounds {
  min: number;
  max: number;
}

export interface VardiffState {
  windowStart: number;
  shares: number;
}

export function newVardiffState(now: number): VardiffState {
  return { windowStart: now, shares: 0 };
}

/** Rounds to four significant digits so difficulties read well in logs and on dashboards. */
export function roundDifficulty(difficulty: number): number {
  return Number(difficulty.toPrecision(4));
}

export function clampDifficulty(difficulty: number, bounds: DifficultyBounds): number {
  return Math.min(bounds.max, Math.max(bounds.min, difficulty));
}

function retarget(
  settings: VardiffSettings,
  bounds: DifficultyBounds,
  state: VardiffState,
  difficulty: number,
  now: number,
  observedIntervalMs: number,
): number | undefined {
  state.windowStart = now;
  state.shares = 0;
  const deviation = Math.abs(observedIntervalMs - settings.targetIntervalMs) / settings.targetIntervalMs;
  if (deviation <= settings.variance) return undefined;
  const ratio = settings.targetIntervalMs / Math.max(observedIntervalMs, 1);
  const stepped = Math.min(settings.maxStepUp, Math.max(1 / settings.maxStepDown, ratio));
  const next = clampDifficulty(roundDifficulty(difficulty * stepped), bounds);
  return next === difficulty ? undefined : next;
}

/** Counts an accepted share; returns the new difficulty when the session should change. */
export function recordShare(
  settings: VardiffSettings,
  bounds: DifficultyBounds,
  state: VardiffState,
  difficulty: number,
  now: number,
): number | undefined {
  state.shares += 1;
  const elapsed = now - state.windowStart;
  if (elapsed < settings.retargetWindowMs && state.shares < settings.fastRetargetShares) return undefined;
  return retarget(settings, bounds, state, difficulty, now, elapsed / state.shares);
}

/** Called periodically: lowers the difficulty of a session that sent no share for a whole window. */
export function checkIdle(
  settings: VardiffSettings,
  bounds: DifficultyBounds,
  state: VardiffState,
  difficulty: number,
  now: number,
): number | undefined {
  const elapsed = now - state.windowStart;
  if (elapsed < settings.retargetWindowMs) return undefined;
  if (state.shares > 0) return retarget(settings, bounds, state, difficulty, now, elapsed / state.shares);
  return retarget(settings, bounds, state, difficulty, now, elapsed);
}
