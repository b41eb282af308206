/**
 * The statement month picker (docs/dashboard.md, The screens): months are `YYYY-MM`; the newest month
 * with a complete statement is the previous one, which is both the picker's maximum and its default.
 */
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month before the one `now` falls in, in the browser's time zone: 2025-03-10 → "2025-02". */
export function previousMonth(now: Date): string {
  const year = now.getFullYear();
  const month = now.getMonth(); // 0-based: the current month's index is the previous month's number
  return month === 0 ? `${year - 1}-12` : `${year}-${String(month).padStart(2, '0')}`;
}

export function isMonth(value: string): boolean {
  return MONTH.test(value);
}

/** What the picker may send: a valid month no later than `max`; anything else becomes `max`. */
export function clampMonth(value: string, max: string): string {
  if (!isMonth(value)) return max;
  // Same-length YYYY-MM texts compare like the months they name.
  return value > max ? max : value;
}

/** "earnings_2025-02.pdf" (docs/dashboard.md, Monthly statement). */
export function statementFileName(month: string): string {
  return `earnings_${month}.pdf`;
}
