import type { SessionsResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../../api/queryKeys';
import { countTestIds, failQuery, renderPage, textOf } from '../../../testing/renderPage';
import { SESSIONS_TEXT, SessionsPanel } from './SessionsPanel';

// Tests run with TZ=UTC (vitest.config.ts): the site's dates are the browser's, here UTC.
const SESSIONS: SessionsResponse = {
  sessions: [
    {
      id: 'a'.repeat(64),
      device: 'Firefox 128 on Linux',
      ip_range: '203.0.113.0/24',
      created_at: '2026-11-20T08:15:00.000Z',
      last_seen_at: '2026-11-25T17:10:00.000Z',
      current: true,
      admin: false,
    },
    {
      id: 'b'.repeat(64),
      device: 'Safari 17 on iOS 17.1 (phone)',
      ip_range: '2001:db8:85a3::/48',
      created_at: '2026-11-18T21:03:00.000Z',
      last_seen_at: '2026-11-24T06:40:00.000Z',
      current: false,
      admin: false,
    },
    {
      id: 'c'.repeat(64),
      device: 'Chrome 120 on Windows 10',
      ip_range: '198.51.100.0/24',
      created_at: '2026-11-23T12:00:00.000Z',
      last_seen_at: '2026-11-23T12:30:00.000Z',
      current: false,
      admin: true,
    },
    {
      id: 'd'.repeat(64),
      device: 'Unknown device',
      ip_range: null,
      created_at: '2026-11-01T00:05:00.000Z',
      last_seen_at: '2026-11-02T09:50:00.000Z',
      current: false,
      admin: false,
    },
  ],
};

/** The text of each session row, in order. */
const rowTexts = (html: string) =>
  [...html.matchAll(/<tr data-testid="session-row">(.*?)<\/tr>/g)].map((m) => textOf(m[1] ?? ''));

describe('Settings: Sessions', () => {
  it('says what it keeps, and offers Log out everywhere while the list loads', () => {
    const html = renderPage(<SessionsPanel />);
    const text = textOf(html);
    expect(text).toContain(`Sessions ${SESSIONS_TEXT.intro}`);
    expect(SESSIONS_TEXT.intro).toContain('within 10 minutes');
    expect(SESSIONS_TEXT.intro).toContain('not its full address');
    expect(text).toContain('Loading…');
    expect(text).toContain('Log out everywhere');
    expect(countTestIds(html, 'session-row')).toBe(0);
  });

  it('names what failed to load', () => {
    const html = renderPage(<SessionsPanel />, {
      seed: (client) => failQuery(client, queryKeys.sessions, 'Server down'),
    });
    expect(textOf(html)).toContain('Server down');
    expect(textOf(html)).not.toContain('Loading…');
    expect(countTestIds(html, 'session-row')).toBe(0);
  });

  it('lists every session with its device, network and dates; this one marked, an admin named', () => {
    const html = renderPage(<SessionsPanel />, {
      seed: (client) => client.setQueryData(queryKeys.sessions, SESSIONS),
    });
    expect(textOf(html)).not.toContain('Loading…');
    expect(rowTexts(html)).toEqual([
      'Firefox 128 on Linux This device 203.0.113.0/24 2026-11-20 08:15 2026-11-25 17:10',
      'Safari 17 on iOS 17.1 (phone) 2001:db8:85a3::/48 2026-11-18 21:03 2026-11-24 06:40 Log out',
      'Chrome 120 on Windows 10 Admin (logged in as you) 198.51.100.0/24 2026-11-23 12:00 2026-11-23 12:30 Log out',
      'Unknown device Unknown network 2026-11-01 00:05 2026-11-02 09:50 Log out',
    ]);
    // The columns, named in the wide table's heading and on each line of a phone's card.
    for (const label of ['Device', 'Network', 'Signed in', 'Last active']) expect(html).toContain(`>${label}</th>`);
    for (const label of ['Network', 'Signed in', 'Last active']) {
      expect(html.split(`data-label="${label}"`)).toHaveLength(SESSIONS.sessions.length + 1);
    }
    expect(countTestIds(html, 'session-current')).toBe(1);
    expect(countTestIds(html, 'session-admin')).toBe(1);
    // Log out is offered for every session but this one (which the nav's Log out ends).
    expect(countTestIds(html, 'session-logout')).toBe(3);
  });
});
