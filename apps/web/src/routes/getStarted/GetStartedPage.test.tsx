import type { SiteResponse, StratumResponse } from '@lodestone/contract';
import { ALGORITHMS } from '@lodestone/domain';
import type { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../api/queryKeys';
import { buildSite } from '../../testing/poolAnswers';
import { countTestIds, renderPage, textOf } from '../../testing/renderPage';
import GetStartedPage from './GetStartedPage';

type Listener = StratumResponse['listeners'][number];
const listener = (port: number, kind: Listener['kind'], algorithm: Listener['algorithm'] = 'scrypt'): Listener => ({
  algorithm,
  host: `${algorithm}.stratum.pool.example.org`,
  port,
  kind,
  tls: false,
  url: `stratum+tcp://${algorithm}.stratum.pool.example.org:${port}`,
  start_difficulty: 64,
  min_difficulty: 1,
  max_difficulty: 1e9,
  demo: false,
});

const SITE = buildSite({ solo_fee_percent: 1.5 });

const seed =
  (listeners: Listener[], site?: SiteResponse) =>
  (client: QueryClient): void => {
    client.setQueryData(queryKeys.stratum, { listeners });
    if (site) client.setQueryData(queryKeys.site, site);
  };

const KEYS = ALGORITHMS.map((a) => a.key).join('|');
/** The markup of an algorithm's list item (`stratum-scrypt`, …), up to the next algorithm's. */
const algorithmBlock = (html: string, key: string) =>
  html.split(`data-testid="stratum-${key}"`)[1]?.split(new RegExp(`data-testid="stratum-(?:${KEYS})"`))[0] ?? '';

describe('Getting Started', () => {
  it('lists a solo port with what solo means and the solo fee of the site settings', () => {
    const html = renderPage(<GetStartedPage />, {
      seed: seed([listener(3333, 'standard'), listener(3335, 'solo'), listener(3343, 'standard', 'sha256')], SITE),
    });
    const scrypt = textOf(algorithmBlock(html, 'scrypt'));
    expect(scrypt).toContain('stratum+tcp://scrypt.stratum.pool.example.org:3333 Standard port.');
    expect(scrypt).toContain(
      'stratum+tcp://scrypt.stratum.pool.example.org:3335 Solo port: a block your workers find here is yours, less the 1.5% solo fee, credited to your balance when it matures; shares sent here are not paid by PPS.',
    );
    expect(algorithmBlock(html, 'scrypt')).toContain('data-kind="solo"');
    // An algorithm without a solo port says nothing of solo.
    expect(textOf(algorithmBlock(html, 'sha256'))).not.toContain('Solo');
    // Above the list: which ports pay by PPS, and where to read more.
    const intro = textOf(html.split('data-testid="solo-intro"')[1]?.split('</p>')[0] ?? '');
    expect(intro).toContain('Every port pays your shares by PPS except the solo ports');
    expect(html).toMatch(/<a [^>]*href="\/faq"[^>]*>What is solo mining\?<\/a>/);
  });

  it('names the solo fee without a figure until the site settings arrive', () => {
    const text = textOf(renderPage(<GetStartedPage />, { seed: seed([listener(3335, 'solo')]) }));
    expect(text).toContain('Solo port: a block your workers find here is yours, less the solo fee, credited');
  });

  it('says nothing of solo mining where the pool has no solo port', () => {
    const html = renderPage(<GetStartedPage />, {
      seed: seed([listener(3333, 'standard'), listener(3334, 'marketplace')], SITE),
    });
    expect(countTestIds(html, 'solo-intro')).toBe(0);
    expect(textOf(html)).not.toMatch(/solo/i);
  });
});
