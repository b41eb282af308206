import type { StratumResponse } from '@lodestone/contract';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../../api/queryKeys';
import { buildSite } from '../../testing/poolAnswers';
import { failQuery, renderPage, textOf } from '../../testing/renderPage';
import FaqPage from './FaqPage';

describe('FAQ page, the fee answer', () => {
  it("says 'Loading fees...' until the fees arrive", () => {
    expect(textOf(renderPage(<FaqPage />))).toContain('Loading fees...');
  });

  it('gives the error text when the fees could not be loaded', () => {
    const page = textOf(renderPage(<FaqPage />, { seed: (c) => failQuery(c, queryKeys.fees, 'Service unavailable') }));
    expect(page).toContain('Error loading fee data. Please try again later.');
    expect(page).not.toContain('Loading fees...');
  });

  it('lists the fee of every payout coin once they arrive', () => {
    const page = textOf(
      renderPage(<FaqPage />, {
        seed: (c) => c.setQueryData(queryKeys.fees, { pools: { BTC: { fee: 0.01 }, LTC: { fee: 0.015 } } }),
      }),
    );
    expect(page).toContain('BTC 1.0% LTC 1.5%');
  });
});

const SITE = buildSite({ solo_fee_percent: 2 });

type Listener = StratumResponse['listeners'][number];
const listener = (algorithm: Listener['algorithm'], port: number, kind: Listener['kind']): Listener => ({
  algorithm,
  host: 'pool.example.org',
  port,
  kind,
  tls: false,
  url: `stratum+tcp://pool.example.org:${port}`,
  start_difficulty: 64,
  min_difficulty: 1,
  max_difficulty: 1e9,
  demo: false,
});

/** The text of the answer whose item is `faq-{id}`. */
const answer = (html: string, id: string) => {
  const item = html.split(`data-testid="faq-${id}"`)[1]?.split('</li>')[0] ?? '';
  return textOf(item.slice(item.indexOf('>') + 1));
};

describe('FAQ page, solo mining', () => {
  const listeners = [
    listener('scrypt', 3333, 'standard'),
    listener('scrypt', 3335, 'solo'),
    listener('sha256', 3345, 'solo'),
    listener('x11', 3353, 'standard'),
  ];

  it('answers what solo mining is with the solo ports, the solo fee, maturity and no PPS', () => {
    const html = renderPage(<FaqPage />, {
      seed: (c) => {
        c.setQueryData(queryKeys.site, SITE);
        c.setQueryData(queryKeys.stratum, { listeners });
      },
    });
    const text = answer(html, 'solo');
    expect(text).toMatch(/^What is solo mining\? Mining for whole blocks on your own/);
    expect(text).toContain('Point your miner at the solo ports ( SCRYPT 3335, SHA256 3345 ) with your usual login');
    expect(html).toContain('data-testid="faq-ports-solo">SCRYPT 3335, SHA256 3345</span>');
    expect(text).toContain(
      "When it matures (once its chain has confirmed it), its reward less the 2.0% solo fee is credited to your balance in the block's coin, then paid out like the rest of your balance.",
    );
    expect(text).toContain(
      "Shares sent to a solo port earn nothing by PPS, and solo blocks are not counted in the pool's luck.",
    );
  });

  it('names the solo fee without a figure, and the ports by page, until they load', () => {
    const text = answer(renderPage(<FaqPage />), 'solo');
    expect(text).toContain('the solo ports (listed on the Getting Started page)');
    expect(text).toContain('its reward less the solo fee is credited');
  });

  it('gives the solo fee beside the pool fees', () => {
    const page = textOf(
      renderPage(<FaqPage />, {
        seed: (c) => {
          c.setQueryData(queryKeys.fees, { pools: { BTC: { fee: 0.01 } } });
          c.setQueryData(queryKeys.site, { ...SITE, solo_fee_percent: 1.5 });
        },
      }),
    );
    expect(page).toContain('BTC 1.0% Solo fee: 1.5% of each block you find on a solo port');
  });
});
