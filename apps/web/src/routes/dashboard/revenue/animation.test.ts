import { describe, expect, it } from 'vitest';
import { ANIMATION_MS, easeOut, tween } from './animation';

describe('animated number', () => {
  it('lasts 800 ms and goes from the old value to the new one', () => {
    expect(ANIMATION_MS).toBe(800);
    expect(tween(10, 20, easeOut(0))).toBe(10);
    expect(tween(10, 20, easeOut(1))).toBe(20);
    expect(tween(10, 20, easeOut(0.5))).toBeGreaterThan(15);
    expect(easeOut(2)).toBe(1);
    expect(easeOut(-1)).toBe(0);
  });
});
