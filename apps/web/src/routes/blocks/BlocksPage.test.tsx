import type { BlockRow, BlocksResponse } from '@lodestone/contract';
import type { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../api/queryKeys';
import { LTC_NETWORK } from '../../testing/poolAnswers';
import { countTestIds, failQuery, renderPage, textOf } from '../../testing/renderPage';
import BlocksPage from './BlocksPage';

const HASH = (n: number) => `${String(n).repeat(8)}${'ab'.repeat(24)}`.slice(0, 64);

const block = (over: Partial<BlockRow>): BlockRow => ({
  height: 2_800_000,
  hash: HASH(1),
  explorer_url: null,
  found_at: '2026-05-06T11:50:00.000Z',
  reward: '6.25',
  status: 'confirmed',
  confirmations: 120,
  confirmations_left: null,
  effort: 1,
  solo: false,
  ...over,
});

/** SCRYPT's own chain (LTC) with two merge-mined ones, on page 1 of 2. */
const LTC: BlocksResponse = {
  algorithm: 'scrypt',
  coin: 'LTC',
  chains: [
    { coin: 'LTC', name: 'Litecoin', merged: false, blocks: 29 },
    { coin: 'DOGE', name: 'Dogecoin', merged: true, blocks: 3 },
    { coin: 'BELLS', name: 'Bellscoin', merged: true, blocks: 0 },
  ],
  demo: false,
  network: LTC_NETWORK,
  round: { effort: 0.42, started_at: '2026-05-06T11:50:00.000Z' },
  luck: {
    h24: { blocks: 2, effort: 0.8, luck: 1.25 },
    d7: { blocks: 10, effort: 1.1, luck: 1 / 1.1 },
    d30: { blocks: 29, effort: 1, luck: 1 },
  },
  blocks: [
    block({
      height: 2_800_120,
      hash: HASH(4),
      found_at: '2026-05-06T11:50:00.000Z',
      status: 'pending',
      confirmations: 2,
      confirmations_left: 4,
      effort: 0.5,
    }),
    block({
      height: 2_800_100,
      hash: HASH(3),
      explorer_url: `https://blockchair.com/litecoin/block/${HASH(3)}`,
      found_at: '2026-05-06T08:05:00.000Z',
      reward: '6.25',
      status: 'confirmed',
      effort: 1.5,
    }),
    block({ height: 2_800_090, hash: HASH(2), status: 'orphaned', confirmations: 0, effort: 0.9996 }),
    block({ height: 2_800_050, hash: HASH(1), status: 'pending', confirmations: 1, effort: null }),
  ],
  page: 1,
  page_size: 25,
  total: 29,
};

/** DOGE with no block yet and no network seen. */
const DOGE_EMPTY: BlocksResponse = {
  ...LTC,
  coin: 'DOGE',
  network: null,
  round: { effort: null, started_at: null },
  luck: {
    h24: { blocks: 0, effort: null, luck: null },
    d7: { blocks: 0, effort: null, luck: null },
    d30: { blocks: 0, effort: null, luck: null },
  },
  blocks: [],
  total: 0,
};

const seeded = (key: readonly unknown[], answer: BlocksResponse) => (client: QueryClient) =>
  client.setQueryData(key, answer);

const ltcPage = () =>
  renderPage(<BlocksPage />, { path: '/blocks', seed: seeded(queryKeys.blocks('scrypt', null, 1), LTC) });

/** The markup of every `tag` element carrying `data-testid="testId"`, up to its closing tag (not nested in itself). */
function elements(html: string, testId: string, tag = 'tr'): string[] {
  return html
    .split(`data-testid="${testId}"`)
    .slice(1)
    .map((rest) => rest.slice(0, rest.indexOf(`</${tag}>`)));
}

/** What an element of `elements` holds, without the rest of its opening tag. */
const inner = (element: string | undefined) => (element ?? '').slice((element ?? '').indexOf('>') + 1);

describe('the Blocks page', () => {
  it('says it is loading the algorithm chosen in the nav', () => {
    const html = renderPage(<BlocksPage />, { path: '/blocks' });
    const text = textOf(html);
    expect(text).toContain('Pool Blocks');
    expect(text).toContain('SCRYPT');
    expect(text).toContain('Loading blocks…');
    expect(countTestIds(html, 'blocks-table')).toBe(0);
  });

  it('names the failure and says it tries again', () => {
    const html = renderPage(<BlocksPage />, {
      path: '/blocks',
      seed: (c) => failQuery(c, queryKeys.blocks('scrypt', null, 1), 'Service unavailable.'),
    });
    expect(textOf(html)).toContain(
      'The blocks could not be loaded: Service unavailable. Trying again every 30 seconds.',
    );
    expect(textOf(html)).not.toContain('Loading blocks…');
    expect(countTestIds(html, 'blocks-table')).toBe(0);
  });

  it("shows the chain's network: height, difficulty, hashrate with units and the reward with its ticker", () => {
    const text = textOf(ltcPage());
    expect(text).toContain('LTC network');
    expect(text).toMatch(
      /Height 2800123 Difficulty 28,123,456\.79 Network hashrate 1\.23 Ph\/s Block reward 6\.25123456 LTC/,
    );
    expect(text).toContain("As the pool's newest LTC job saw it, 2026-05-06 11:59.");
  });

  it('writes a dash for the hashrate of a chain without a fixed block interval', () => {
    const html = renderPage(<BlocksPage />, {
      path: '/blocks',
      seed: seeded(queryKeys.blocks('scrypt', null, 1), {
        ...LTC,
        network: { ...(LTC.network as NonNullable<BlocksResponse['network']>), hashrate: null },
      }),
    });
    expect(textOf(html)).toContain('Network hashrate —');
  });

  it('shows the open round and the luck of each period, coloured by what they say', () => {
    const html = ltcPage();
    const text = textOf(html);
    expect(text).toContain('Current round effort (since 2026-05-06 11:50) 42.0%');
    const rows = elements(html, 'luck-row').map(textOf);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('24 hours 125.0% (lucky) 80.0% (lucky) 2');
    expect(rows[1]).toContain('7 days 90.9% (unlucky) 110.0% (unlucky) 10');
    expect(rows[2]).toContain('30 days 100.0% (as expected) 100.0% (as expected) 29');
  });

  it('lists the blocks: height, hash, time found, reward, status and effort', () => {
    const html = ltcPage();
    const rows = elements(html, 'block-row');
    expect(rows).toHaveLength(4);
    const texts = rows.map(textOf);

    expect(texts[0]).toContain('2800120');
    expect(texts[0]).toContain('2026-05-06 11:50');
    expect(texts[0]).toContain('6.25000000 LTC');
    expect(texts[0]).toContain('Pending — 4 confirmations left');
    expect(texts[0]).toContain('50.0% (lucky)');

    expect(texts[1]).toContain('2800100');
    expect(texts[1]).toContain('2026-05-06 08:05');
    expect(texts[1]).toContain('Confirmed');
    expect(texts[1]).toContain('150.0% (unlucky)');

    expect(texts[2]).toContain('Orphaned');
    expect(texts[2]).toContain('100.0% (as expected)');

    // A pending block of a chain that decides maturity its own way; a round that was not recorded.
    expect(texts[3]).toMatch(/LTC Pending —$/);
    expect(texts[3]).not.toContain('confirmation');
    expect(rows[3]).not.toContain('data-tone');
  });

  it('marks a solo block with a Solo badge beside its height, and only that one', () => {
    const solo = block({ height: 2_800_130, hash: HASH(5), status: 'pending', confirmations_left: 6, solo: true });
    const html = renderPage(<BlocksPage />, {
      path: '/blocks',
      seed: seeded(queryKeys.blocks('scrypt', null, 1), { ...LTC, blocks: [solo, ...LTC.blocks] }),
    });
    const rows = elements(html, 'block-row');
    expect(rows).toHaveLength(5);
    expect(countTestIds(rows[0] ?? '', 'block-solo')).toBe(1);
    expect(textOf(inner(elements(rows[0] ?? '', 'block-height', 'th')[0]))).toBe('2800130 Solo');
    expect(textOf(rows[0] ?? '')).toContain('Pending — 6 confirmations left');
    for (const row of rows.slice(1)) expect(countTestIds(row, 'block-solo')).toBe(0);
    expect(countTestIds(ltcPage(), 'block-solo')).toBe(0);
  });

  it('says under the luck that solo blocks are no part of it', () => {
    const note = textOf(inner(elements(ltcPage(), 'luck-solo-note', 'p')[0]));
    expect(note).toBe(
      "Blocks marked Solo were found on a solo port. Each is its finder's own work and reward, so it counts neither in the pool's luck nor in its round; its effort is its finder's work since their previous solo block on this chain.",
    );
  });

  it('colours an effort below 100% as lucky and above as unlucky', () => {
    const efforts = elements(ltcPage(), 'block-effort', 'span').map((e) => /^ data-tone="(\w+)"/.exec(e)?.[1]);
    expect(efforts).toEqual(['lucky', 'unlucky', 'even', undefined]);
    const html = ltcPage();
    expect(html).toMatch(/data-testid="block-effort" data-tone="lucky" class="[^"]*text-green-700/);
    expect(html).toMatch(/data-testid="block-effort" data-tone="unlucky" class="[^"]*text-red-700/);
  });

  it('links a hash to its explorer in a new tab, shows the others unlinked, and keeps every full hash', () => {
    const html = ltcPage();
    expect(countTestIds(html, 'block-link')).toBe(1);
    const link = /<a [^>]*data-testid="block-link"[^>]*>/.exec(html)?.[0] ?? '';
    expect(link).toContain(`href="https://blockchair.com/litecoin/block/${HASH(3)}"`);
    expect(link).toContain('target="_blank"');
    expect(link).toContain('rel="noopener noreferrer"');
    for (const n of [1, 2, 3, 4]) expect(html).toContain(`title="${HASH(n)}"`);
  });

  it('offers the chains, own coin first, each with its block count, marking the one shown', () => {
    const html = ltcPage();
    const tabs = elements(html, 'chain-tabs', 'nav')[0] ?? '';
    expect(textOf(tabs)).toContain('LTC 29 blocks DOGE merge-mined 3 blocks BELLS merge-mined 0 blocks');
    const links = [...tabs.matchAll(/<a [^>]*>/g)].map((m) => m[0]);
    expect(links).toHaveLength(3);
    expect(links[0]).toContain('href="/blocks?coin=LTC"');
    expect(links[0]).toContain('aria-current="page"');
    expect(links[1]).toContain('href="/blocks?coin=DOGE"');
    expect(links[1]).not.toContain('aria-current');
    expect(links[2]).toContain('href="/blocks?coin=BELLS"');
  });

  it('shows the merge-mined chain of ?coin=, with its own empty state', () => {
    const html = renderPage(<BlocksPage />, {
      path: '/blocks?coin=doge',
      seed: seeded(queryKeys.blocks('scrypt', 'DOGE', 1), DOGE_EMPTY),
    });
    const text = textOf(html);
    expect(text).toContain('DOGE blocks found');
    expect(text).toContain('No DOGE blocks found yet: the first one the pool finds will be listed here.');
    expect(text).toContain('The pool has not mined on the DOGE network yet.');
    expect(text).toContain('Current round effort (no shares yet) —');
    expect(text).toContain('24 hours — — 0');
    expect(text).toContain('Page 1 of 1');
    expect(countTestIds(html, 'block-row')).toBe(0);
    const current = /<a [^>]*aria-current="page"[^>]*>/.exec(html)?.[0] ?? '';
    expect(current).toContain('data-testid="chain-DOGE"');
  });

  it('pages with ?page=: the page shown and the page count come from the answer', () => {
    const first = textOf(ltcPage());
    expect(first).toContain('Page 1 of 2');
    const second = renderPage(<BlocksPage />, {
      path: '/blocks?coin=LTC&page=2',
      seed: seeded(queryKeys.blocks('scrypt', 'LTC', 2), { ...LTC, blocks: LTC.blocks.slice(0, 1), page: 2 }),
    });
    expect(textOf(second)).toContain('Page 2 of 2');
    expect(countTestIds(second, 'block-row')).toBe(1);
  });

  it('says when the blocks are from the demo network, and only then', () => {
    expect(countTestIds(ltcPage(), 'blocks-demo-note')).toBe(0);
    const html = renderPage(<BlocksPage />, {
      path: '/blocks',
      seed: seeded(queryKeys.blocks('scrypt', null, 1), { ...LTC, demo: true }),
    });
    expect(textOf(html)).toContain('This algorithm runs on the built-in demo network, not on a real coin network');
  });

  it('says so when the pool has not mined the algorithm at all', () => {
    const html = renderPage(<BlocksPage />, {
      path: '/blocks',
      seed: seeded(queryKeys.blocks('scrypt', null, 1), { ...DOGE_EMPTY, coin: null, chains: [] }),
    });
    const text = textOf(html);
    expect(text).toContain('The pool has not mined SCRYPT yet.');
    expect(text).toContain('No blocks found yet');
    expect(countTestIds(html, 'chain-tabs')).toBe(0);
  });
});
