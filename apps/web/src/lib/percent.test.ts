import { describe, expect, it } from 'vitest';
import { formatPercent } from './percent';

describe('formatPercent', () => {
  it.each([
    [1, '1%'],
    [0, '0%'],
    [0.5, '0.5%'],
    [1.25, '1.25%'],
    [1.255, '1.25%'],
    [10, '10%'],
    [100, '100%'],
    [Number.NaN, '0%'],
  ])('%d → %s', (value, text) => {
    expect(formatPercent(value)).toBe(text);
  });
});
