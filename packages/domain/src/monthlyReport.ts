/**
 * The monthly report e-mails (docs/notifications.md, "Monthly reports"): which month is reported at
 * an instant, and what its statement files are called. Months are UTC calendar months: users have no
 * stored time zone, so the report's statement is the one the dashboard shows with time zone UTC.
 */

/** Days of a month in which last month's reports are still sent (the 1st to the 7th, UTC). */
export const MONTHLY_REPORT_WINDOW_DAYS = 7;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

function monthParts(month: string): [year: number, monthIndex: number] {
  const m = MONTH.exec(month);
  if (!m) throw new RangeError(`not a month: ${month}`);
  return [Number(m[1]), Number(m[2]) - 1];
}

/** Midnight UTC of a day (setUTCFullYear, since Date.UTC reads years 0–99 as 1900–1999). */
function utcDay(year: number, monthIndex: number, day: number): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, monthIndex, day);
  return d;
}

/** The UTC month `instant` falls in, 'YYYY-MM'. */
export function utcMonthOf(instant: Date): string {
  return instant.toISOString().slice(0, 7);
}

/** Where a UTC month begins and where the next one begins (its end, exclusive). */
export function utcMonthBounds(month: string): { start: Date; end: Date } {
  const [year, monthIndex] = monthParts(month);
  return { start: utcDay(year, monthIndex, 1), end: utcDay(year, monthIndex + 1, 1) };
}

/**
 * The month whose reports are sent at `now`: the UTC month before, while `now` is in the first
 * MONTHLY_REPORT_WINDOW_DAYS days of its own month (from the 1st 00:00 UTC until the end of the 7th);
 * undefined after that — a report missed for a whole week is stale and is not sent.
 */
export function monthlyReportMonth(now: Date): string | undefined {
  if (Number.isNaN(now.getTime())) throw new RangeError('not an instant');
  if (now.getUTCDate() > MONTHLY_REPORT_WINDOW_DAYS) return undefined;
  return utcMonthOf(utcDay(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
}

/** Lower-case letters, digits and single dashes: 'Lodestone Pool!' → 'lodestone-pool'. */
export function fileNameSlug(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The file name of a mining account's statement in a report: `{pool slug}-{account}-{YYYY-MM}.pdf`,
 * safe characters only ([A-Za-z0-9._-]), whatever the pool is called ('statement' when its name has
 * no letter or digit to keep).
 */
export function statementFileName(poolName: string, account: string, month: string): string {
  monthParts(month);
  const pool = fileNameSlug(poolName).slice(0, 60).replace(/-+$/, '') || 'statement';
  const name = account.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 64);
  return `${pool}-${name}-${month}.pdf`;
}
