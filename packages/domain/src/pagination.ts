/**
 * Paging (docs/website.md, Lists, refresh and copying): pages start at 1, are clamped between 1 and the last page, the
 * page count is rows / size rounded up. An empty list still has one (empty) page so "Page 1 of 1" reads sensibly and
 * Prev/Next are both disabled.
 */
export interface PageWindow {
  page: number;
  pageCount: number;
  /** Index of the first row on the page (inclusive). */
  start: number;
  /** Index after the last row on the page (exclusive). */
  end: number;
  hasPrev: boolean;
  hasNext: boolean;
}

export function pageCount(total: number, size: number): number {
  if (!Number.isInteger(size) || size <= 0) throw new RangeError(`page size must be a positive integer, got ${size}`);
  return Math.max(1, Math.ceil(Math.max(0, total) / size));
}

export function clampPage(page: number, count: number): number {
  if (!Number.isFinite(page)) return 1;
  return Math.min(Math.max(1, Math.trunc(page)), Math.max(1, count));
}

export function pageWindow(total: number, size: number, requestedPage: number): PageWindow {
  const count = pageCount(total, size);
  const page = clampPage(requestedPage, count);
  const start = (page - 1) * size;
  return {
    page,
    pageCount: count,
    start,
    end: Math.min(start + size, Math.max(0, total)),
    hasPrev: page > 1,
    hasNext: page < count,
  };
}

export function pageOf<T>(rows: readonly T[], size: number, requestedPage: number): { rows: T[]; window: PageWindow } {
  const window = pageWindow(rows.length, size, requestedPage);
  return { rows: rows.slice(window.start, window.end), window };
}
