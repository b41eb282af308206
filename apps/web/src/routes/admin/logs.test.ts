import { describe, expect, it } from 'vitest';
import {
  formatLogTime,
  logFilters,
  logPageWindow,
  logValueText,
  normalizeLogEntry,
  normalizeLogsAnswer,
  showingText,
} from './logs';

describe('log filters', () => {
  it('are trimmed and sent only when not empty', () => {
    expect(logFilters('', '')).toBeNull();
    expect(logFilters('   ', '\t')).toBeNull();
    expect(logFilters(' a@example.org ', '')).toEqual({ email: 'a@example.org' });
    expect(logFilters('', ' miner01 ')).toEqual({ username: 'miner01' });
    expect(logFilters('a@example.org', 'miner01')).toEqual({ email: 'a@example.org', username: 'miner01' });
  });
});

describe('log answers and entries', () => {
  it('reads our paged answer {items, total}', () => {
    const answer = {
      items: [{ time: '2026-05-03T14:07:09.000Z', log_name: 'login', log_value: { ip: '1.2.3.4' }, account: null }],
      total: 41,
      page: 3,
      page_size: 20,
    };
    expect(normalizeLogsAnswer(answer, 3)).toEqual({
      rows: [
        { time: '2026-05-03T14:07:09.000Z', log_name: 'login', log_value: { ip: '1.2.3.4' }, account: null, key: '40' },
      ],
      total: 41,
    });
  });

  it('pages a bare array itself', () => {
    const all = Array.from({ length: 25 }, (_, i) => ({ log_name: `e${i}` }));
    const second = normalizeLogsAnswer(all, 2);
    expect(second.total).toBe(25);
    expect(second.rows.map((r) => r.log_name)).toEqual(['e20', 'e21', 'e22', 'e23', 'e24']);
    expect(normalizeLogsAnswer(null, 1)).toEqual({ rows: [], total: 0 });
    expect(normalizeLogsAnswer({ items: [] }, 1)).toEqual({ rows: [], total: 0 });
  });

  it('takes log values as objects or JSON text; text that is not JSON stays raw', () => {
    expect(normalizeLogEntry({ log_name: 'x', log_value: '{"a":1}' }).log_value).toEqual({ a: 1 });
    expect(normalizeLogEntry({ log_name: 'x', log_value: { a: 1 } }).log_value).toEqual({ a: 1 });
    expect(normalizeLogEntry({ log_name: 'x', log_value: 'not json {' }).log_value).toBe('not json {');
  });

  it('reads an entry sent as JSON text; unparseable text becomes an entry with only its log value', () => {
    expect(normalizeLogEntry('{"time":"t","log_name":"login","log_value":"{\\"ip\\":\\"x\\"}"}')).toEqual({
      time: 't',
      log_name: 'login',
      log_value: { ip: 'x' },
      account: null,
    });
    expect(normalizeLogEntry('oops, not json')).toEqual({
      time: null,
      log_name: null,
      log_value: 'oops, not json',
      account: null,
    });
  });

  it('shows a dash (null) for an empty value, JSON for objects, text as it is', () => {
    for (const empty of [undefined, null, '', {}, []]) expect(logValueText(empty)).toBeNull();
    expect(logValueText('raw text')).toBe('raw text');
    expect(logValueText({ ip: '1.2.3.4' })).toBe('{\n  "ip": "1.2.3.4"\n}');
    expect(logValueText(42)).toBe('42');
  });

  it('formats times in UTC; unreadable times as they came', () => {
    expect(formatLogTime('2026-05-03T14:07:09.123Z')).toBe('2026-05-03 14:07:09 UTC');
    expect(formatLogTime('yesterday')).toBe('yesterday');
    expect(formatLogTime(null)).toBeNull();
  });
});

describe('log paging (20 a page)', () => {
  it("says 'Showing a–b of n'", () => {
    expect(showingText(1, 45)).toBe('Showing 1–20 of 45');
    expect(showingText(2, 45)).toBe('Showing 21–40 of 45');
    expect(showingText(3, 45)).toBe('Showing 41–45 of 45');
    expect(showingText(1, 7)).toBe('Showing 1–7 of 7');
  });

  it('counts pages, at least one', () => {
    expect(logPageWindow(0, 1).pageCount).toBe(1);
    expect(logPageWindow(20, 1).pageCount).toBe(1);
    expect(logPageWindow(21, 1).pageCount).toBe(2);
    expect(logPageWindow(45, 3)).toMatchObject({ page: 3, pageCount: 3, hasPrev: true, hasNext: false });
  });
});
