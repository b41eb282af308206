/** The animated number of the balances table (800 ms, docs/dashboard.md, The screens). */
const ANIMATION_MS = 800;

/** Fast at first, settling at the end: the eye reads the final figure sooner. */
function easeOut(progress: number): number {
  const p = Math.min(1, Math.max(0, progress));
  return 1 - (1 - p) ** 3;
}

/**
 * The number shown `elapsedMs` after a figure changed from `from` to `to`, or null once the
 * animation is over (the exact figure is shown again).
 */
export function animatedValue(from: number, to: number, elapsedMs: number): number | null {
  const progress = elapsedMs / ANIMATION_MS;
  if (progress >= 1) return null;
  return from + (to - from) * easeOut(progress);
}
