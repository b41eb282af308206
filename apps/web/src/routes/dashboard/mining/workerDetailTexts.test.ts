import { describe, expect, it } from 'vitest';
import {
  connectionEventText,
  connectionTimeText,
  groupText,
  lastShareDetail,
  orDash,
  workerSearch,
} from './workerDetailTexts';

// Unit tests run in UTC (vitest.config.ts), the zone the browser's dates are written in here.
const NOW = '2026-05-06T12:00:00.000Z';

describe('one worker’s view', () => {
  it('writes the last share as a date and an age, or says none is recorded', () => {
    expect(lastShareDetail({ last_share_at: '2026-05-06T11:48:30.000Z' }, NOW)).toBe('2026-05-06 11:48 (11 min ago)');
    expect(lastShareDetail({ last_share_at: null }, NOW)).toBe('None recorded');
  });

  it('says where a group comes from', () => {
    expect(groupText({ group: 'Basement', label: 'Basement' })).toBe('Basement (label)');
    expect(groupText({ group: 'rack1-', label: null })).toBe('rack1- (name prefix)');
    expect(groupText({ group: null, label: null })).toBe('None');
  });

  it('writes connection events in words, to the second, and a dash for what was not recorded', () => {
    expect(connectionEventText('connect')).toBe('Connected');
    expect(connectionEventText('disconnect')).toBe('Disconnected');
    expect(connectionTimeText('2026-05-06T11:48:07.250Z')).toBe('2026-05-06 11:48:07');
    expect(connectionTimeText('not a time')).toBe('not a time');
    expect(orDash(null)).toBe('—');
    expect(orDash('  ')).toBe('—');
    expect(orDash('idle')).toBe('idle');
  });

  it('names the open worker in the page’s address, keeping its other parameters', () => {
    expect(workerSearch('', '12')).toBe('?worker=12');
    expect(workerSearch('?worker=3', '12')).toBe('?worker=12');
    expect(workerSearch('?ref=x&worker=3', null)).toBe('?ref=x');
    expect(workerSearch('?worker=3', null)).toBe('');
  });
});
