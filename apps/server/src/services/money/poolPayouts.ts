import type { PoolPayout, PoolPayoutsResponse } from '@lodestone/contract';
import {
  type Coin,
  type Executor,
  latestPoolPayouts,
  latestPrices,
  type PayoutTotals,
  type PriceRow,
  type PublicPayoutRow,
  poolPayoutTotals,
} from '@lodestone/db';
import { Exact } from '@lodestone/domain';
import { catalogueByTicker, explorerLink } from './coinCatalogue.js';

/** How many of the newest payouts the Payouts page lists (it pages them 10 at a time). */
export const LATEST_PAYOUTS = 100;

const DAY_MS = 24 * 3600_000;
/** "Last Month Payouts": the last 30 days, not the calendar month, so the chart never starts empty. */
const MONTH_MS = 30 * DAY_MS;

/** What the site shows for a payout written but not yet sent ('Pending' means not sent: docs/money.md, "Pool payouts"). */
export const PENDING_TXID = 'Pending';

/** Pure: one payout as the Payouts table shows it. Demo transactions get no explorer link. */
export function presentPoolPayout(row: PublicPayoutRow, coin: Coin): PoolPayout {
  const sent = row.status === 'sent' && row.txid !== null;
  return {
    payout_date: row.createdAt.toISOString(),
    coin_balance: row.total.toString(),
    coin_decimals: coin.decimals,
    coin_ticker: row.coin,
    payout_txid: sent && row.txid ? row.txid : PENDING_TXID,
    payout_txid_url: sent && row.txid && !row.demo ? explorerLink(coin.explorer_tx_url, '{txid}', row.txid) : null,
  };
}

/**
 * Pure: the US dollar value paid per coin in one window, at each coin's newest price (whatever its
 * age: this is a picture of the past, not money moving), in catalogue order. Coins without a price or
 * with nothing paid in the window are left out; values are cut (not rounded up) to cents.
 */
export function payoutChart(
  totals: readonly PayoutTotals[],
  window: 'day' | 'month' | 'allTime',
  catalogue: ReadonlyMap<string, Coin>,
  prices: ReadonlyMap<string, PriceRow>,
): { coin_ticker: string; usd_value: number }[] {
  const byCoin = new Map(totals.map((t) => [t.coin, t[window]]));
  return [...catalogue.values()].flatMap((coin) => {
    const units = byCoin.get(coin.ticker) ?? 0n;
    const price = prices.get(coin.ticker);
    if (units <= 0n || !price) return [];
    const usd = Exact.fromUnits(units, coin.decimals).times(price.usd);
    return [{ coin_ticker: coin.ticker, usd_value: Number(usd.toFixed(2)) }];
  });
}

/** GET /pool/payouts: the newest payouts and the value paid per coin over 24 h, 30 days and ever. */
export async function readPoolPayouts(db: Executor, now: Date): Promise<PoolPayoutsResponse> {
  const catalogue = await catalogueByTicker(db);
  const rows = await latestPoolPayouts(db, LATEST_PAYOUTS);
  const totals = await poolPayoutTotals(db, {
    day: new Date(now.getTime() - DAY_MS),
    month: new Date(now.getTime() - MONTH_MS),
  });
  const prices = await latestPrices(db);
  return {
    latest: rows.flatMap((row) => {
      const coin = catalogue.get(row.coin);
      return coin ? [presentPoolPayout(row, coin)] : [];
    }),
    charts: {
      day: payoutChart(totals, 'day', catalogue, prices),
      month: payoutChart(totals, 'month', catalogue, prices),
      all_time: payoutChart(totals, 'allTime', catalogue, prices),
    },
  };
}
