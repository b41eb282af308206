import type { AccountPayoutRecord } from '@lodestone/contract';
import { type Account, type AccountPayoutRow, accountPayoutRows, type Coin, type Executor } from '@lodestone/db';
import { isoInZone } from '@lodestone/domain';
import { catalogueByTicker, explorerLink } from '../money/coinCatalogue.js';
import { PENDING_TXID } from '../money/poolPayouts.js';

/**
 * How many of the account's newest payout rows the dashboard lists (it pages them 10 at a time).
 * An hourly payer of three coins reaches it in about two weeks; payments.csv has them all.
 */
export const ACCOUNT_PAYOUTS_LIMIT = 1000;

/**
 * Pure: one payout row as the past-payments table shows it. Like the pool's payouts list, a payout
 * not sent yet reads 'Pending' without a link, and demo transactions get no explorer link (they
 * exist on no public chain).
 */
export function presentAccountPayout(row: AccountPayoutRow, coin: Coin, timeZone: string): AccountPayoutRecord {
  const sent = row.status === 'sent' && row.txid !== null;
  return {
    payout_date: isoInZone(row.createdAt, timeZone),
    payout_address: row.address,
    coin_balance: row.amount.toString(),
    coin_decimals: coin.decimals,
    coin_ticker: row.coin,
    payout_txid: sent && row.txid ? row.txid : PENDING_TXID,
    payout_txid_url: sent && row.txid && !row.demo ? explorerLink(coin.explorer_tx_url, '{txid}', row.txid) : null,
  };
}

/**
 * The account's payouts (one record per payout and address), newest first unless `oldestFirst`,
 * dates in `timeZone`.
 */
export async function readAccountPayouts(
  db: Executor,
  account: Account,
  timeZone: string,
  options: { from?: Date; to?: Date; limit?: number; oldestFirst?: boolean } = {},
): Promise<AccountPayoutRecord[]> {
  const catalogue = await catalogueByTicker(db);
  const rows = await accountPayoutRows(db, account.id, options);
  return rows.flatMap((row) => {
    const coin = catalogue.get(row.coin);
    return coin ? [presentAccountPayout(row, coin, timeZone)] : [];
  });
}
