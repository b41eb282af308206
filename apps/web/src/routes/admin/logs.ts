import { type PageWindow, pageOf, pageWindow } from '@lodestone/domain';
import type { LogFilters } from '../../api/admin';

/** Entries per page of the Logs screen (docs/website.md, Lists, refresh and copying). */
export const LOGS_PAGE_SIZE = 20;

/** The Logs screen's texts; the failure message is the product's own, in Spanish (docs/admin.md, The screens). */
export const LOGS_MESSAGES = {
  idle: 'Introduce a filter and press Search.',
  loading: 'Loading…',
  failed: 'No se pudieron cargar los logs. Inténtalo de nuevo.',
  // Ours: a search that found nothing.
  none: 'No log entries found.',
} as const;

/** Both filters trimmed and sent only if non-empty; null when neither is (nothing to search). */
export function logFilters(email: string, account: string): LogFilters | null {
  const filters: LogFilters = {};
  if (email.trim()) filters.email = email.trim();
  if (account.trim()) filters.username = account.trim();
  return filters.email || filters.username ? filters : null;
}

/** One entry as the screen shows it; any field may be missing from a malformed answer. */
export interface LogRow {
  time: string | null;
  log_name: string | null;
  log_value: unknown;
  account: string | null;
}

export interface KeyedLogRow extends LogRow {
  key: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A log value arrives as an object or as JSON text (docs/admin.md, The screens); text that is not JSON is kept as it
 * is.
 */
export function parseLogValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * One entry of the answer: an object, or JSON text of one. Text that does not parse becomes an
 * entry with only its log value, the raw text.
 */
export function normalizeLogEntry(raw: unknown): LogRow {
  let entry = raw;
  if (typeof raw === 'string') {
    try {
      entry = JSON.parse(raw) as unknown;
    } catch {
      return { time: null, log_name: null, log_value: raw, account: null };
    }
  }
  if (!isObject(entry)) return { time: null, log_name: null, log_value: entry, account: null };
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    time: text(entry.time),
    log_name: text(entry.log_name),
    log_value: parseLogValue(entry.log_value),
    account: text(entry.account),
  };
}

/**
 * The answer of a log search (an array, or an object with an `items` array): our server pages
 * and counts (`{items, total}`); a bare array is the whole log, paged here.
 */
export function normalizeLogsAnswer(body: unknown, page: number): { rows: KeyedLogRow[]; total: number } {
  // Entries carry no id; a page is a fixed list that is replaced, never reordered, so the position
  // in the whole log is a stable key.
  const keyed = (rows: readonly unknown[]) =>
    rows.map((raw, i) => ({ ...normalizeLogEntry(raw), key: `${(page - 1) * LOGS_PAGE_SIZE + i}` }));
  if (Array.isArray(body)) {
    const { rows } = pageOf(body, LOGS_PAGE_SIZE, page);
    return { rows: keyed(rows), total: body.length };
  }
  if (isObject(body) && Array.isArray(body.items)) {
    const total = typeof body.total === 'number' && body.total >= 0 ? body.total : body.items.length;
    return { rows: keyed(body.items), total };
  }
  return { rows: [], total: 0 };
}

/** The value as text to show, or null for the dash (nothing there: empty text, null, {} or []). */
export function logValueText(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && Object.keys(value).length === 0) return null;
  return JSON.stringify(value, null, 2);
}

/** "2026-05-03 14:07:09 UTC"; a time that does not parse is shown as it came. */
export function formatLogTime(iso: string | null): string | null {
  if (iso === null) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** "Showing 21–40 of 45" for page 2. */
export function showingText(page: number, total: number): string {
  const first = total === 0 ? 0 : (page - 1) * LOGS_PAGE_SIZE + 1;
  const last = Math.min(page * LOGS_PAGE_SIZE, total);
  return `Showing ${first}–${last} of ${total}`;
}

/** The pager of a search: `page` of its total (at least one page). */
export function logPageWindow(total: number, page: number): PageWindow {
  return pageWindow(total, LOGS_PAGE_SIZE, page);
}
