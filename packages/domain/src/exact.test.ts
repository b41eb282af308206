import { describe, expect, it } from 'vitest';
import { Exact } from './exact.js';

describe('Exact.of', () => {
  it('reads the scientific notation of every double', () => {
    expect(Exact.of('1e+21').toString()).toBe('1000000000000000000000');
    expect(Exact.of(1e21).compare('1000000000000000000000')).toBe(0);
    expect(Exact.of(Number.MAX_VALUE).compare(0)).toBe(1);
    expect(Exact.of(Number.MIN_VALUE).compare(0)).toBe(1);
    expect(Exact.of('-2.5e-3').toString()).toBe('-0.0025');
  });

  it('refuses an exponent past 400 either way at once, instead of expanding it', () => {
    const started = performance.now();
    expect(() => Exact.of('1e999999999')).toThrow('exponent out of range');
    expect(() => Exact.of('1e-401')).toThrow('exponent out of range');
    expect(performance.now() - started).toBeLessThan(100);
  });
});
