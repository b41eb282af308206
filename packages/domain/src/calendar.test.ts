import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  isoInZone,
  localDay,
  nextMonthStart,
  startOfLocalDay,
  zoneOffsetMinutes,
} from './calendar.js';

const at = (iso: string) => new Date(iso);

describe('days in a time zone', () => {
  it('puts 23:30 UTC on the next day in Madrid (UTC+2 in summer, +1 in winter)', () => {
    expect(localDay(at('2025-06-14T23:30:00Z'), 'UTC')).toBe('2025-06-14');
    expect(localDay(at('2025-06-14T23:30:00Z'), 'Europe/Madrid')).toBe('2025-06-15');
    expect(localDay(at('2025-01-14T22:59:59Z'), 'Europe/Madrid')).toBe('2025-01-14');
    expect(localDay(at('2025-01-14T23:00:00Z'), 'Europe/Madrid')).toBe('2025-01-15');
    expect(localDay(at('2025-06-15T03:00:00Z'), 'America/New_York')).toBe('2025-06-14');
  });

  it('writes ISO dates with the zone offset that parse back to the same instant', () => {
    const instant = at('2025-06-14T23:30:00Z');
    expect(isoInZone(instant, 'Europe/Madrid')).toBe('2025-06-15T01:30:00+02:00');
    expect(isoInZone(instant, 'UTC')).toBe('2025-06-14T23:30:00+00:00');
    expect(isoInZone(instant, 'America/New_York')).toBe('2025-06-14T19:30:00-04:00');
    expect(isoInZone(instant, 'Asia/Kolkata')).toBe('2025-06-15T05:00:00+05:30');
    for (const zone of ['Europe/Madrid', 'UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham']) {
      expect(new Date(isoInZone(instant, zone)).getTime()).toBe(instant.getTime());
    }
    expect(zoneOffsetMinutes(at('2025-01-01T00:00:00Z'), 'Europe/Madrid')).toBe(60);
  });

  it('finds where a local day starts, also on clock-change days', () => {
    expect(startOfLocalDay('2025-06-15', 'UTC').toISOString()).toBe('2025-06-15T00:00:00.000Z');
    expect(startOfLocalDay('2025-06-15', 'Europe/Madrid').toISOString()).toBe('2025-06-14T22:00:00.000Z');
    expect(startOfLocalDay('2025-01-15', 'Europe/Madrid').toISOString()).toBe('2025-01-14T23:00:00.000Z');
    // Madrid moves its clocks at 02:00/03:00: the day after a change starts at the new offset,
    // and the change days are 23 and 25 hours long.
    expect(startOfLocalDay('2025-03-30', 'Europe/Madrid').toISOString()).toBe('2025-03-29T23:00:00.000Z');
    expect(startOfLocalDay('2025-03-31', 'Europe/Madrid').toISOString()).toBe('2025-03-30T22:00:00.000Z');
    expect(startOfLocalDay('2025-10-27', 'Europe/Madrid').toISOString()).toBe('2025-10-26T23:00:00.000Z');
    // Chile skips midnight: on 2024-09-08 the clock goes from 23:59:59 (-04) to 01:00 (-03).
    expect(startOfLocalDay('2024-09-08', 'America/Santiago').toISOString()).toBe('2024-09-08T04:00:00.000Z');
    expect(startOfLocalDay('2024-09-09', 'America/Santiago').toISOString()).toBe('2024-09-09T03:00:00.000Z');
    expect(startOfLocalDay('2025-06-15', 'Asia/Kolkata').toISOString()).toBe('2025-06-14T18:30:00.000Z');
  });

  it('does calendar arithmetic without zones', () => {
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(nextMonthStart('2025-12')).toBe('2026-01-01');
    expect(nextMonthStart('2025-02')).toBe('2025-03-01');
    expect(daysBetween('2025-02-27', '2025-03-02')).toEqual(['2025-02-27', '2025-02-28', '2025-03-01', '2025-03-02']);
    expect(daysBetween('2025-03-02', '2025-03-01')).toEqual([]);
    // Years below 100 are not read as 19xx.
    expect(startOfLocalDay('0050-01-01', 'UTC').toISOString()).toBe('0050-01-01T00:00:00.000Z');
  });
});
