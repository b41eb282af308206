import type { WatcherLink } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { ApiError, networkError } from '../../../api/errors';
import { queryKeys } from '../../../api/queryKeys';
import { countTestIds, failQuery, renderPage, textOf } from '../../../testing/renderPage';
import { WATCHERS_TEXT, WatcherCreateForm, WatcherLinks } from './WatcherLinks';

// Tests run with TZ=UTC (vitest.config.ts): the site's dates are the browser's, here UTC.
const ORIGIN = 'https://pool.example';
const link = (fields: Partial<WatcherLink> & Pick<WatcherLink, 'id' | 'name' | 'scope' | 'key'>): WatcherLink => ({
  default: false,
  created_at: '2026-11-01T10:00:00.000Z',
  expires_at: null,
  expired: false,
  last_used_at: null,
  ...fields,
});
const LINKS: WatcherLink[] = [
  link({
    id: 'default',
    name: 'Observer link',
    scope: 'payouts',
    key: 'own-key',
    default: true,
    created_at: null,
    last_used_at: '2026-11-25T17:10:00.000Z',
  }),
  link({ id: '7', name: 'Hosting farm', scope: 'mining', key: 'farm key/1', expires_at: '2026-12-01T10:00:00.000Z' }),
  link({
    id: '8',
    name: 'Accountant',
    scope: 'revenue',
    key: 'acct-key',
    expires_at: '2026-11-02T10:00:00.000Z',
    expired: true,
    last_used_at: '2026-11-02T09:30:00.000Z',
  }),
];

/** The text of each link's row, in order. */
const rowTexts = (html: string) =>
  [...html.matchAll(/<tr data-testid="watcher-row">(.*?)<\/tr>/g)].map((m) => textOf(m[1] ?? ''));
/** The value of each link URL field, in order. */
const urls = (html: string) =>
  [...html.matchAll(/<input[^>]*data-testid="(observer-link|watcher-url)"[^>]*>/g)].map(
    (m) => `${m[1]} ${/value="([^"]*)"/.exec(m[0])?.[1]}`,
  );

const section = (seed?: Parameters<typeof renderPage>[1]) =>
  renderPage(
    <WatcherLinks account="miner01" origin={ORIGIN} regenerate={<button type="button">New observer link</button>} />,
    seed,
  );

describe('Settings: watcher links', () => {
  it('lists the default link and the others: what each shows, its expiry, its last use and its link', () => {
    const html = section({ seed: (client) => client.setQueryData(queryKeys.watchers('miner01'), { links: LINKS }) });
    expect(textOf(html)).toContain(`Watcher links ${WATCHERS_TEXT.intro}`);
    expect(textOf(html)).not.toContain('Loading…');
    expect(rowTexts(html)).toEqual([
      'Observer link Everything Never 2026-11-25 17:10 New observer link',
      'Hosting farm Mining only 2026-12-01 10:00 Never used Revoke',
      'Accountant Mining and revenue Expired 2026-11-02 09:30 Revoke',
    ]);
    // Each link as the observer link is built; the default link keeps the test ids the observer link always had.
    expect(urls(html)).toEqual([
      `observer-link ${ORIGIN}/dashboard/own-key`,
      `watcher-url ${ORIGIN}/dashboard/farm%20key%2F1`,
      `watcher-url ${ORIGIN}/dashboard/acct-key`,
    ]);
    expect(countTestIds(html, 'copy-observer-link')).toBe(1);
    expect(countTestIds(html, 'copy-watcher-url')).toBe(2);
    // Revoke for every link but the default one, which is replaced instead.
    expect(countTestIds(html, 'watcher-revoke')).toBe(2);
    // On a phone every line of a card is named.
    for (const label of ['Shows', 'Expires', 'Last used', 'Link']) {
      expect(html.split(`data-label="${label}"`)).toHaveLength(LINKS.length + 1);
    }
    // The form for a new link is there, its scope select offering the three scopes in words.
    expect(textOf(html.match(/<select.*?<\/select>/)?.[0] ?? '')).toBe('Mining only Mining and revenue Everything');
  });

  it('says it loads, and names what failed to load', () => {
    expect(textOf(section())).toContain('Loading…');
    expect(countTestIds(section(), 'watcher-row')).toBe(0);
    const failed = section({ seed: (client) => failQuery(client, queryKeys.watchers('miner01'), 'Server down') });
    expect(textOf(failed)).toContain('Server down');
    expect(textOf(failed)).not.toContain('Loading…');
  });
});

describe('Settings: a new watcher link', () => {
  const form = (error: unknown) =>
    renderPage(
      <WatcherCreateForm
        draft={{ name: 'x', scope: 'mining', days: '366' }}
        onChange={() => undefined}
        onSubmit={() => undefined}
        pending={false}
        error={error}
      />,
    );
  const formError = (html: string) => textOf(html.match(/<p role="alert"[^>]*>(.*?)<\/p>/)?.[1] ?? '');

  it('shows no message before it is sent', () => {
    expect(countTestIds(form(null), 'form-error')).toBe(0);
  });

  it('shows the server’s refusal of a field in its words', () => {
    const html = form(new ApiError(400, 'BAD_REQUEST', 'Expiry must be at most 365 days', true));
    expect(formError(html)).toBe('Expiry must be at most 365 days');
  });

  it('shows the limit of links as the server says it', () => {
    const limit = 'An account can have at most 20 watcher links. Revoke one to make another.';
    expect(formError(form(new ApiError(409, 'WATCHER_LINK_LIMIT', limit, true)))).toBe(limit);
  });

  it('falls back to its own text when the call never reached the server', () => {
    expect(formError(form(networkError(new TypeError('fetch failed'))))).toBe(WATCHERS_TEXT.createFailed);
  });
});
