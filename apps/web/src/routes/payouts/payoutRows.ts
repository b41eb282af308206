import type { PoolPayout } from '@lodestone/contract';
import { abbreviateTxid, coinDisplayDecimals, formatUnits } from '@lodestone/domain';
import { formatDateTime } from '../../lib/dates';
import { safeExternalUrl } from '../../lib/links';

/** The payouts table shows 10 rows a page (docs/website.md, Lists, refresh and copying). */
export const PAYOUTS_PAGE_SIZE = 10;

/** The TXID cell (docs/website.md, Figures). */
export type TxidCell =
  /** 'Pending' from the API: shown as 'Pending...' in italics. */
  | { kind: 'pending' }
  /** A sent payout with an explorer link: abbreviated 6…6, opening in a new tab. */
  | { kind: 'link'; text: string; href: string; full: string }
  /** A sent payout without an explorer (a demo transaction, a coin without one): the abbreviation only. */
  | { kind: 'text'; text: string; full: string };

export function txidCell(payout: Pick<PoolPayout, 'payout_txid' | 'payout_txid_url'>): TxidCell {
  const txid = payout.payout_txid.trim();
  if (txid === '' || txid === 'Pending') return { kind: 'pending' };
  const href = safeExternalUrl(payout.payout_txid_url);
  const text = abbreviateTxid(txid);
  return href ? { kind: 'link', text, href, full: txid } : { kind: 'text', text, full: txid };
}

/**
 * "1.50000000 LTC": smallest units at the coin's display precision (BTC 8, ETH 6, USDC 2; exact
 * decimals, cut toward zero, never a float; docs/website.md, "Coin amounts").
 */
export function formatPayoutAmount(payout: Pick<PoolPayout, 'coin_balance' | 'coin_decimals' | 'coin_ticker'>): string {
  const shown = coinDisplayDecimals(payout.coin_ticker, payout.coin_decimals);
  return `${formatUnits(payout.coin_balance, payout.coin_decimals, shown)} ${payout.coin_ticker}`;
}

/** "2025-06-15 14:05": the payout's instant (ISO, UTC) in the visitor's time zone (the site's format). */
export function formatPayoutDate(iso: string, timeZone?: string): string {
  return formatDateTime(iso, { timeZone });
}
