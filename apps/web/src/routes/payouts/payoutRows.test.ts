import { pageOf } from '@lodestone/domain';
import { describe, expect, it } from 'vitest';
import { formatPayoutAmount, formatPayoutDate, PAYOUTS_PAGE_SIZE, txidCell } from './payoutRows';

const TXID = '9f2c41e5b0d0a3c1c5e8d1f0b8f7c0e1d2a3b4c5d6e7f8091a2b3c4d5e6f7a8b';

describe('TXID cell', () => {
  it("'Pending' is pending", () => {
    expect(txidCell({ payout_txid: 'Pending', payout_txid_url: null })).toEqual({ kind: 'pending' });
  });

  it('a sent payout is abbreviated to its first 6 and last 6 characters, linked when there is an explorer', () => {
    expect(txidCell({ payout_txid: TXID, payout_txid_url: `https://mempool.space/tx/${TXID}` })).toEqual({
      kind: 'link',
      text: '9f2c41…6f7a8b',
      href: `https://mempool.space/tx/${TXID}`,
      full: TXID,
    });
    expect(txidCell({ payout_txid: TXID, payout_txid_url: null })).toEqual({
      kind: 'text',
      text: '9f2c41…6f7a8b',
      full: TXID,
    });
  });

  it('keeps ids of 8 characters or fewer whole and never links a script URL', () => {
    expect(txidCell({ payout_txid: 'abcdefgh', payout_txid_url: null })).toMatchObject({ text: 'abcdefgh' });
    expect(txidCell({ payout_txid: TXID, payout_txid_url: 'javascript:alert(1)' })).toMatchObject({ kind: 'text' });
  });
});

describe('amounts and dates', () => {
  it("shows the amount at the coin's display precision with its ticker", () => {
    expect(formatPayoutAmount({ coin_balance: '150000000', coin_decimals: 8, coin_ticker: 'LTC' })).toBe(
      '1.50000000 LTC',
    );
    // ETH at 6 decimals; a non-zero amount below that is never shown as 0.
    expect(formatPayoutAmount({ coin_balance: '1234567891234567891', coin_decimals: 18, coin_ticker: 'ETH' })).toBe(
      '1.234567 ETH',
    );
    expect(formatPayoutAmount({ coin_balance: '1', coin_decimals: 18, coin_ticker: 'ETH' })).toBe('< 0.000001 ETH');
    expect(formatPayoutAmount({ coin_balance: '1234', coin_decimals: 0, coin_ticker: 'X' })).toBe('1234 X');
  });

  it('writes the date in the given time zone', () => {
    expect(formatPayoutDate('2025-06-15T22:30:00.000Z', 'UTC')).toBe('2025-06-15 22:30');
    expect(formatPayoutDate('2025-06-15T22:30:00.000Z', 'Europe/Madrid')).toBe('2025-06-16 00:30');
    expect(formatPayoutDate('not a date')).toBe('not a date');
  });

  it('pages 10 payouts at a time', () => {
    const rows = Array.from({ length: 25 }, (_, i) => i);
    expect(pageOf(rows, PAYOUTS_PAGE_SIZE, 1).window).toMatchObject({ pageCount: 3, hasPrev: false, hasNext: true });
    expect(pageOf(rows, PAYOUTS_PAGE_SIZE, 3).rows).toEqual([20, 21, 22, 23, 24]);
    expect(pageOf([], PAYOUTS_PAGE_SIZE, 1).window).toMatchObject({ page: 1, pageCount: 1, hasNext: false });
  });
});
