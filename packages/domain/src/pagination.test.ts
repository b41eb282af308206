import { describe, expect, it } from 'vitest';
import { clampPage, pageCount, pageOf, pageWindow } from './pagination.js';

describe('pagination', () => {
  it('counts pages as rows / size rounded up, with at least one page', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(95, 20)).toBe(5);
    expect(() => pageCount(5, 0)).toThrow(RangeError);
  });

  it('clamps pages between 1 and the last', () => {
    expect(clampPage(0, 3)).toBe(1);
    expect(clampPage(7, 3)).toBe(3);
    expect(clampPage(2.9, 3)).toBe(2);
    expect(clampPage(Number.NaN, 3)).toBe(1);
  });

  it('disables Prev on the first page and Next on the last', () => {
    expect(pageWindow(25, 10, 1)).toEqual({ page: 1, pageCount: 3, start: 0, end: 10, hasPrev: false, hasNext: true });
    expect(pageWindow(25, 10, 3)).toEqual({ page: 3, pageCount: 3, start: 20, end: 25, hasPrev: true, hasNext: false });
    expect(pageWindow(0, 10, 5)).toEqual({ page: 1, pageCount: 1, start: 0, end: 0, hasPrev: false, hasNext: false });
  });

  it('slices rows for a page', () => {
    const rows = Array.from({ length: 23 }, (_, i) => i);
    expect(pageOf(rows, 10, 3).rows).toEqual([20, 21, 22]);
    expect(pageOf(rows, 10, 99).window.page).toBe(3);
  });
});
