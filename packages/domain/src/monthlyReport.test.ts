import { describe, expect, it } from 'vitest';
import {
  fileNameSlug,
  MONTHLY_REPORT_WINDOW_DAYS,
  monthlyReportMonth,
  statementFileName,
  utcMonthBounds,
  utcMonthOf,
} from './monthlyReport.js';

const at = (iso: string) => new Date(iso);

describe('monthly report month', () => {
  it('is last UTC month from the 1st 00:00 UTC until the end of the 7th, and none after', () => {
    expect(MONTHLY_REPORT_WINDOW_DAYS).toBe(7);
    expect(monthlyReportMonth(at('2026-11-30T23:59:59.999Z'))).toBeUndefined();
    expect(monthlyReportMonth(at('2026-12-01T00:00:00Z'))).toBe('2026-11');
    expect(monthlyReportMonth(at('2026-12-01T03:00:00Z'))).toBe('2026-11');
    expect(monthlyReportMonth(at('2026-12-07T23:59:59.999Z'))).toBe('2026-11');
    expect(monthlyReportMonth(at('2026-12-08T00:00:00Z'))).toBeUndefined();
    expect(monthlyReportMonth(at('2026-12-09T12:00:00Z'))).toBeUndefined();
  });

  it('is UTC whatever the offset the instant is written with', () => {
    // 00:30 on 1 December in Madrid is still 30 November in UTC.
    expect(monthlyReportMonth(at('2026-12-01T00:30:00+01:00'))).toBeUndefined();
    expect(monthlyReportMonth(at('2026-12-07T23:30:00-05:00'))).toBeUndefined();
    expect(monthlyReportMonth(at('2026-12-08T00:30:00+02:00'))).toBe('2026-11');
  });

  it('crosses years and short months', () => {
    expect(monthlyReportMonth(at('2027-01-03T00:00:00Z'))).toBe('2026-12');
    expect(monthlyReportMonth(at('2024-03-01T00:00:00Z'))).toBe('2024-02');
    expect(utcMonthBounds('2024-02')).toEqual({ start: at('2024-02-01T00:00:00Z'), end: at('2024-03-01T00:00:00Z') });
    expect(utcMonthBounds('2026-12')).toEqual({ start: at('2026-12-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') });
    expect(utcMonthOf(at('2026-12-31T23:59:59.999Z'))).toBe('2026-12');
    expect(() => utcMonthBounds('2026-13')).toThrow(RangeError);
    expect(() => monthlyReportMonth(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('statement file name', () => {
  it('is {pool slug}-{account}-{YYYY-MM}.pdf', () => {
    expect(statementFileName('Lodestone', 'alice', '2026-11')).toBe('lodestone-alice-2026-11.pdf');
    expect(statementFileName('Lodestone Pool!', 'Bob_2', '2026-11')).toBe('lodestone-pool-Bob_2-2026-11.pdf');
  });

  it('keeps only safe characters, whatever the pool is called', () => {
    expect(fileNameSlug('  Café / "Mining" ../Pool  ')).toBe('cafe-mining-pool');
    expect(statementFileName('../../etc/passwd', 'alice', '2026-11')).toBe('etc-passwd-alice-2026-11.pdf');
    expect(statementFileName('矿池', 'alice', '2026-11')).toBe('statement-alice-2026-11.pdf');
    expect(statementFileName('Pool', 'a/b c', '2026-11')).toBe('pool-a-b-c-2026-11.pdf');
    for (const name of ['x'.repeat(300), 'Ünïcødé Pööl', '\u0000\n\r;"']) {
      expect(statementFileName(name, 'alice', '2026-11')).toMatch(/^[a-z0-9][A-Za-z0-9._-]{0,199}$/);
    }
    expect(() => statementFileName('Pool', 'alice', '2026-1')).toThrow(RangeError);
  });
});
