/**
 * Calendar days in a miner's time zone (the Revenue tab, statements, the public API): the day an earning or a payout belongs
 * to, where that day starts, and dates written with the zone's offset. Pure (Intl's time zone data);
 * time zones are IANA names the caller has checked (contract `timeZone`). The database groups by the
 * same zones (`at time zone`), so a day here and a day there agree.
 */

const DAY_MS = 24 * 3600_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(instant: Date, timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return parts as Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Midnight UTC of a calendar day (setUTCFullYear, since Date.UTC reads years 0–99 as 1900–1999). */
function utcMidnight(year: number, monthIndex: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, monthIndex, day);
  return d.getTime();
}

/** Minutes the zone is ahead of UTC at `instant` (Europe/Madrid in summer: 120). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const p = partsIn(instant, timeZone);
  const asUtc = utcMidnight(p.year, p.month - 1, p.day) + ((p.hour * 60 + p.minute) * 60 + p.second) * 1000;
  const whole = Math.floor(instant.getTime() / 1000) * 1000;
  return Math.round((asUtc - whole) / 60_000);
}

/** The calendar day `instant` falls on in the zone, 'YYYY-MM-DD'. */
export function localDay(instant: Date, timeZone: string): string {
  const p = partsIn(instant, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/**
 * ISO 8601 with the zone's offset, to the second: 2025-06-15T14:00:00+02:00. It reads as the local
 * time people expect and still parses to the exact instant (`new Date(text)`).
 */
export function isoInZone(instant: Date, timeZone: string): string {
  const p = partsIn(instant, timeZone);
  const offset = zoneOffsetMinutes(instant, timeZone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return (
    `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

function parseDay(day: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new RangeError(`not a day: ${day}`);
  return utcMidnight(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

/** Calendar arithmetic on 'YYYY-MM-DD' (no zone involved): addDays('2025-03-01', -1) = '2025-02-28'. */
export function addDays(day: string, days: number): string {
  return new Date(parseDay(day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The first day of the month after `month` ('YYYY-MM'), as 'YYYY-MM-01'. */
export function nextMonthStart(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(utcMidnight(y, m, 1)).toISOString().slice(0, 10);
}

/**
 * The instant the calendar `day` begins in the zone: its local midnight, or — in the few zones that
 * move their clocks at midnight, so that midnight does not exist on that day — the first instant
 * that is on that day.
 */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const midnightUtc = parseDay(day);
  // The offset at UTC midnight is right unless a clock change lies between the two midnights; one
  // more step with the offset found there settles it. Of the candidates, the earliest one that is on
  // `day` is where the day begins.
  const first = midnightUtc - zoneOffsetMinutes(new Date(midnightUtc), timeZone) * 60_000;
  const second = midnightUtc - zoneOffsetMinutes(new Date(first), timeZone) * 60_000;
  const onDay = [first, second].filter((t) => localDay(new Date(t), timeZone) === day);
  return new Date(onDay.length > 0 ? Math.min(...onDay) : Math.max(first, second));
}

/** The calendar days from `first` to `last` inclusive, oldest first. */
export function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 1)) out.push(d);
  return out;
}
