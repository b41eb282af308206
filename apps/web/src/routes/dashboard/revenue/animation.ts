/** The animated number of the balances table (spec 9: 800 ms). */
export const ANIMATION_MS = 800;

/** Fast at first, settling at the end: the eye reads the final figure sooner. */
export function easeOut(progress: number): number {
  const p = Math.min(1, Math.max(0, progress));
  return 1 - (1 - p) ** 3;
}

export function tween(from: number, to: number, eased: number): number {
  return from + (to - from) * eased;
}
