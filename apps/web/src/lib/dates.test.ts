import { describe, expect, it } from 'vitest';
import { formatDateTime, formatTimeOfDay } from './dates';

describe("the site's date format", () => {
  it('writes year-month-day and a 24-hour time in the given zone, whatever the locale', () => {
    // Just after midnight: a US locale would say "11/26/2026, 12:07:12 AM".
    const instant = '2026-11-26T00:07:12.000Z';
    expect(formatDateTime(instant, { timeZone: 'UTC' })).toBe('2026-11-26 00:07');
    expect(formatDateTime(instant, { timeZone: 'UTC', seconds: true })).toBe('2026-11-26 00:07:12');
    expect(formatDateTime(instant, { timeZone: 'America/New_York' })).toBe('2026-11-25 19:07');
    expect(formatDateTime(Date.parse(instant), { timeZone: 'Asia/Tokyo' })).toBe('2026-11-26 09:07');
    expect(formatTimeOfDay(new Date(instant), { timeZone: 'UTC' })).toBe('00:07:12');
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
