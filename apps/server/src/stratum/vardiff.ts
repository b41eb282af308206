/**
 * Variable difficulty: keeps each session near one share per `targetIntervalMs`. Pure functions over
 * a small state object; the session decides when to send the result (set_difficulty, then a job).
 *
 * What is measured is work, not shares: each accepted share adds the difficulty it was accepted at
 * (ckpool's "diff shares per second", `decay_client` in its stratifier.c, follows the same rule).
 * After a retarget a miner goes on sending shares of its older, easier jobs for a while; counted at
 * the session's new difficulty they would look like a far faster miner and drive the difficulty up
 * again and again (issue 14: 17 retargets in a second, up to 1.76e13, on a real cpuminer).
 *
 * Work is counted over a retarget window. The difficulty is reconsidered at every share once the
 * window holds `earlyRetargetShares` shares or has lasted `retargetWindowMs` (a miner that starts far
 * too low converges in seconds, eight shares per step). `decide` keeps it unless the measured rate
 * is off by more than chance and the variance explain; then the difficulty moves towards the one at
 * which the measured work rate gives a share every `targetIntervalMs`, at most `maxStepUp` times up or
 * `maxStepDown` times down per retarget, within the port's bounds. A window without any share lowers
 * the difficulty as if a share had arrived just now.
 */

export interface VardiffSettings {
  /** Aimed-at time between two shares of one session. */
  targetIntervalMs: number;
  /** A window this long is always reconsidered (a silent one lowered). */
  retargetWindowMs: number;
  /** Relative deviation of the measured rate tolerated without a change (0.3 = ±30%). */
  variance: number;
  /** A window is reconsidered before it ends once it holds this many shares. */
  earlyRetargetShares: number;
  /** Standard errors of the measured rate that a step gives away to chance (see `decide`). */
  caution: number;
  maxStepUp: number;
  maxStepDown: number;
}

export const DEFAULT_VARDIFF: VardiffSettings = {
  targetIntervalMs: 10_000,
  retargetWindowMs: 60_000,
  variance: 0.3,
  // Chosen on simulated miners (vardiff.test.ts): fewer shares per decision let flukes through,
  // more slow a far-off miner's convergence past a minute.
  earlyRetargetShares: 8,
  caution: 1,
  maxStepUp: 16,
  maxStepDown: 4,
};

export interface DifficultyBounds {
  min: number;
  max: number;
}

export interface VardiffState {
  windowStart: number;
  /** Accepted shares in the window. */
  shares: number;
  /** Sum of the difficulties those shares were accepted at: the work done in the window. */
  work: number;
}

export function newVardiffState(now: number): VardiffState {
  return { windowStart: now, shares: 0, work: 0 };
}

/** Rounds to four significant digits so difficulties read well in logs and on dashboards. */
export function roundDifficulty(difficulty: number): number {
  return Number(difficulty.toPrecision(4));
}

export function clampDifficulty(difficulty: number, bounds: DifficultyBounds): number {
  return Math.min(bounds.max, Math.max(bounds.min, difficulty));
}

/** Starts a new window at `now` (after a retarget, whoever asked for it). */
export function restartWindow(state: VardiffState, now: number): void {
  state.windowStart = now;
  state.shares = 0;
  state.work = 0;
}

/**
 * Decides at the end of a window (or when an early rule fires). `equivalentShares` is the window's
 * work in shares of the current difficulty, `shares` how many shares carried it. A share count is
 * Poisson: the measured rate is off by about 1/√n (in log terms) by chance alone. So the difficulty
 * moves by the cautious end of that range (`caution` standard errors towards "no change"), and only
 * when even that is outside the variance: a miner on target is not pushed about by six shares a
 * minute, a far-off one still moves in one large step, and a step never overshoots by luck. A window
 * that leads to no change keeps counting (up to `MAX_WINDOWS` windows, like ckpool's five-minute
 * average), so a smaller mismatch shows in time. `idle` lowers a window without any share as if one
 * arrived just now.
 */
function decide(
  settings: VardiffSettings,
  bounds: DifficultyBounds,
  state: VardiffState,
  difficulty: number,
  now: number,
  equivalentShares: number,
  idle: boolean,
): number | undefined {
  const elapsed = Math.max(now - state.windowStart, 1);
  const logRatio = Math.log(equivalentShares / (elapsed / settings.targetIntervalMs));
  const error = idle ? 0 : settings.caution / Math.sqrt(Math.max(1, Math.min(state.shares, equivalentShares)));
  const band = Math.log1p(settings.variance);
  const step = logRatio > 0 ? logRatio - error : logRatio + error;
  if (Math.abs(step) <= band || Math.sign(step) !== Math.sign(logRatio)) {
    if (elapsed >= MAX_WINDOWS * settings.retargetWindowMs) restartWindow(state, now);
    return undefined;
  }
  restartWindow(state, now);
  const stepped = Math.min(settings.maxStepUp, Math.max(1 / settings.maxStepDown, Math.exp(step)));
  const next = clampDifficulty(roundDifficulty(difficulty * stepped), bounds);
  return next === difficulty ? undefined : next;
}

/** A window on target keeps counting for at most this many windows. */
const MAX_WINDOWS = 5;

/**
 * Counts an accepted share: `shareDifficulty` is the difficulty it was accepted at (its job's), which
 * may differ from the session's current `difficulty` just after a retarget. Returns the new difficulty
 * when the session should change.
 */
export function recordShare(
  settings: VardiffSettings,
  bounds: DifficultyBounds,
  state: VardiffState,
  difficulty: number,
  shareDifficulty: number,
  now: number,
): number | undefined {
  state.shares += 1;
  state.work += shareDifficulty;
  const elapsed = now - state.windowStart;
  if (elapsed < settings.retargetWindowMs && state.shares < settings.earlyRetargetShares) return undefined;
  return decide(settings, bounds, state, difficulty, now, state.work / difficulty, false);
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
  // No share at all: as if one arrived just now (an upper bound on the rate).
  if (state.shares === 0) return decide(settings, bounds, state, difficulty, now, 1, true);
  return decide(settings, bounds, state, difficulty, now, state.work / difficulty, false);
}
