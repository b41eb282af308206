/**
 * The site's one way of writing an instant: "2025-06-15 14:05" (or "…14:05:09" with seconds), in the
 * visitor's time zone unless one is given, the same on every browser and locale — never a
 * locale's own order ("11/26/2026, 12:07:12 AM" in the United States, "26/11/2026" elsewhere).
 * Admin screens write UTC explicitly (admin/users.ts, admin/logs.ts) in the same order.
 */
export interface DateTimeOptions {
  /** An IANA zone ("Europe/Madrid"); the browser's own when not given. */
  timeZone?: string | undefined;
  seconds?: boolean;
}

function parts(date: Date, options: DateTimeOptions) {
  const list = new Intl.DateTimeFormat('en-CA', {
    timeZone: options.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: options.seconds ? '2-digit' : undefined,
    hourCycle: 'h23',
  }).formatToParts(date);
  return (type: Intl.DateTimeFormatPartTypes) => list.find((p) => p.type === type)?.value ?? '';
}

/** "2025-06-15 14:05"; text that is not a date is shown as it came. */
export function formatDateTime(value: string | number | Date, options: DateTimeOptions = {}): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const get = parts(date, options);
  const time = `${get('hour')}:${get('minute')}${options.seconds ? `:${get('second')}` : ''}`;
  return `${get('year')}-${get('month')}-${get('day')} ${time}`;
}

/** "14:05:09": the time of day alone, for "figures from …" notes of the same day. */
export function formatTimeOfDay(value: string | number | Date, options: Omit<DateTimeOptions, 'seconds'> = {}): string {
  return formatDateTime(value, { ...options, seconds: true }).slice(11);
}
