import type { Coin, PriceRow, PublicPayoutRow } from '@lodestone/db';
import { describe, expect, it } from 'vitest';
import { blockExplorerLink, explorerLink } from './coinCatalogue.js';
import { payoutChart, presentPoolPayout } from './poolPayouts.js';

const coin = (ticker: string, decimals: number, position: number, explorer: string | null): Coin => ({
  ticker,
  name: ticker,
  decimals,
  network: ticker.toLowerCase(),
  address_format: ticker.toLowerCase(),
  threshold_min: '0.001',
  threshold_max: '0.5',
  interval_min: '1',
  interval_max: '48',
  confirmations: 1,
  explorer_tx_url: explorer,
  explorer_address_url: null,
  explorer_block_url: null,
  block_seconds: null,
  payouts_enabled: true,
  position,
});
const btc = coin('BTC', 8, 1, 'https://mempool.space/tx/{txid}');
const eth = coin('ETH', 18, 2, null);
const ltc = coin('LTC', 8, 3, 'https://litecoinspace.org/tx/{txid}');
const catalogue = new Map([btc, eth, ltc].map((c) => [c.ticker, c]));

const row = (extra: Partial<PublicPayoutRow>): PublicPayoutRow => ({
  id: 1n,
  coin: 'BTC',
  status: 'sent',
  total: 150_000_000n,
  txid: 'ab'.repeat(32),
  demo: false,
  createdAt: new Date('2025-03-01T12:00:00Z'),
  ...extra,
});
const price = (ticker: string, usd: string): [string, PriceRow] => [
  ticker,
  { ticker, usd, source: 'test', takenAt: new Date('2020-01-01T00:00:00Z') },
];

describe('presentPoolPayout', () => {
  it('shows a sent payout with its txid, explorer link, smallest units and decimals', () => {
    expect(presentPoolPayout(row({}), btc)).toEqual({
      payout_date: '2025-03-01T12:00:00.000Z',
      coin_balance: '150000000',
      coin_decimals: 8,
      coin_ticker: 'BTC',
      payout_txid: 'ab'.repeat(32),
      payout_txid_url: `https://mempool.space/tx/${'ab'.repeat(32)}`,
    });
  });

  it('says Pending until a payout is sent, and links no demo transaction or coin without explorer', () => {
    for (const status of ['pending', 'sending'] as const) {
      expect(presentPoolPayout(row({ status, txid: null }), btc)).toMatchObject({
        payout_txid: 'Pending',
        payout_txid_url: null,
      });
    }
    expect(presentPoolPayout(row({ demo: true, txid: 'demo1234' }), btc)).toMatchObject({
      payout_txid: 'demo1234',
      payout_txid_url: null,
    });
    expect(presentPoolPayout(row({ coin: 'ETH' }), eth).payout_txid_url).toBeNull();
  });
});

describe('payoutChart', () => {
  const totals = [
    { coin: 'LTC', day: 0n, month: 250_000_000n, allTime: 1_000_000_000n },
    { coin: 'BTC', day: 1n, month: 100_000_001n, allTime: 300_000_000n },
    { coin: 'ETH', day: 10n ** 18n, month: 10n ** 18n, allTime: 10n ** 18n },
  ];
  const prices = new Map([price('BTC', '90000.5'), price('LTC', '90')]);

  it('values each coin at its price in catalogue order, cut to cents; no price or nothing paid: left out', () => {
    expect(payoutChart(totals, 'day', catalogue, prices)).toEqual([{ coin_ticker: 'BTC', usd_value: 0 }]);
    expect(payoutChart(totals, 'month', catalogue, prices)).toEqual([
      // 1.00000001 BTC × 90000.5 = 90000.5009000…, cut to cents
      { coin_ticker: 'BTC', usd_value: 90000.5 },
      { coin_ticker: 'LTC', usd_value: 225 },
    ]);
    expect(payoutChart(totals, 'allTime', catalogue, prices)).toEqual([
      { coin_ticker: 'BTC', usd_value: 270001.5 },
      { coin_ticker: 'LTC', usd_value: 900 },
    ]);
  });
});

describe('blockExplorerLink', () => {
  const block = { hash: 'ab/cd', height: 42, chain: null };
  it('fills the hash, the height and the chain, URL-encoded', () => {
    expect(blockExplorerLink('https://x.org/block/{hash}', block)).toBe('https://x.org/block/ab%2Fcd');
    expect(blockExplorerLink('https://x.org/{chain}/height/{height}', { ...block, chain: 7 })).toBe(
      'https://x.org/7/height/42',
    );
  });
  it('gives no link without a template, one naming no block, or one needing a chain not known', () => {
    expect(blockExplorerLink(null, block)).toBeNull();
    expect(blockExplorerLink('https://x.org/blocks', block)).toBeNull();
    expect(blockExplorerLink('https://x.org/{chain}/height/{height}', block)).toBeNull();
  });
});

describe('explorerLink', () => {
  it('fills the placeholder with the URL-encoded value, or gives null without a template', () => {
    expect(explorerLink('https://x.org/tx/{txid}', '{txid}', 'abc')).toBe('https://x.org/tx/abc');
    expect(explorerLink('https://x.org/a/{address}', '{address}', 'kaspa:q/../x?y')).toBe(
      'https://x.org/a/kaspa%3Aq%2F..%2Fx%3Fy',
    );
    expect(explorerLink(null, '{txid}', 'abc')).toBeNull();
    expect(explorerLink('https://x.org/tx/', '{txid}', 'abc')).toBeNull();
  });
});
