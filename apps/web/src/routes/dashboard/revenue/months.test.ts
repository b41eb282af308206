import { describe, expect, it } from 'vitest';
import { clampMonth, isMonth, previousMonth, statementFileName } from './months';

describe('statement month picker', () => {
  it('max and default are the previous month', () => {
    expect(previousMonth(new Date(2025, 2, 10))).toBe('2025-02');
    expect(previousMonth(new Date(2025, 0, 1))).toBe('2024-12');
    expect(previousMonth(new Date(2025, 11, 31, 23, 59))).toBe('2025-11');
  });

  it('never goes past the maximum and replaces nonsense with it', () => {
    expect(clampMonth('2025-01', '2025-02')).toBe('2025-01');
    expect(clampMonth('2025-02', '2025-02')).toBe('2025-02');
    expect(clampMonth('2025-03', '2025-02')).toBe('2025-02');
    expect(clampMonth('2026-01', '2025-02')).toBe('2025-02');
    expect(clampMonth('', '2025-02')).toBe('2025-02');
    expect(clampMonth('2025-13', '2025-02')).toBe('2025-02');
    expect(isMonth('2024-12')).toBe(true);
  });

  it('names the PDF earnings_{YYYY-MM}.pdf', () => {
    expect(statementFileName('2025-02')).toBe('earnings_2025-02.pdf');
  });
});
