import { describe, expect, it } from 'vitest';
import { animatedValue } from './animation';

describe('animated number', () => {
  it('lasts 800 ms and goes from the old value to the new one, fast at first', () => {
    expect(animatedValue(10, 20, 0)).toBe(10);
    expect(animatedValue(10, 20, 400)).toBeGreaterThan(15);
    expect(animatedValue(10, 20, 799)).toBeLessThan(20);
    expect(animatedValue(10, 20, 800)).toBeNull();
    expect(animatedValue(10, 20, 5000)).toBeNull();
    expect(animatedValue(20, 10, 400)).toBeLessThan(15);
  });
});
