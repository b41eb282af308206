import type { PayoutNetwork } from '@lodestone/chain';
import type { CoinInfo, CoinsResponse } from '@lodestone/contract';
import { type Coin, type DB, type Executor, latestPrices, listCoins, type PriceRow } from '@lodestone/db';
import { decimalToNumber } from '@lodestone/domain';
import type { Kysely } from 'kysely';

/** What the money services use: the database, the clock and the money settings. */
export interface MoneyContext {
  db: Kysely<DB>;
  now(): Date;
  /** A price older than this is stale: no money moves at it (PRICE_MAX_AGE_SECONDS). */
  priceMaxAgeMs: number;
  /**
   * Which network payout addresses must belong to. Mainnet unless the operator runs test chains;
   * the demo network pays nobody real, so its miners still enter the addresses they will use later.
   */
  addressNetwork: PayoutNetwork;
}

/** The catalogue keyed by ticker, in display order (Maps keep insertion order). */
export async function catalogueByTicker(db: Executor): Promise<Map<string, Coin>> {
  return new Map((await listCoins(db)).map((c) => [c.ticker, c]));
}

export function presentCoin(coin: Coin, price: PriceRow | undefined): CoinInfo {
  return {
    name: coin.name,
    // Display only: the newest price whatever its age (money never moves at this number).
    coin_price: price ? decimalToNumber(price.usd) : null,
    threshold_min: coin.threshold_min,
    threshold_max: coin.threshold_max,
    interval_min: decimalToNumber(coin.interval_min),
    interval_max: decimalToNumber(coin.interval_max),
    decimals: coin.decimals,
    network: coin.network,
    explorer_tx_url: coin.explorer_tx_url,
    explorer_address_url: coin.explorer_address_url,
    payouts_enabled: coin.payouts_enabled,
  };
}

/** GET /coins: every payout coin with its price and payout bounds (the dashboard's catalogue too). */
export async function readCoinCatalogue(db: Executor): Promise<CoinsResponse> {
  const [coins, prices] = await Promise.all([listCoins(db), latestPrices(db)]);
  return Object.fromEntries(coins.map((c) => [c.ticker, presentCoin(c, prices.get(c.ticker))]));
}

/**
 * A block's explorer link from the coin's template, which names the block by `{hash}` or by `{height}`, with its
 * `{chain}` where the network braids several (Kadena's explorer); null without a template, or when it needs the chain
 * and the block's is not known (a block recorded before chains were). Values URL-encoded.
 */
export function blockExplorerLink(
  template: string | null,
  block: { hash: string; height: number; chain: number | null },
): string | null {
  if (template === null || !(template.includes('{hash}') || template.includes('{height}'))) return null;
  if (template.includes('{chain}') && block.chain === null) return null;
  return filled(template, [
    ['{hash}', block.hash],
    ['{height}', String(block.height)],
    ['{chain}', String(block.chain)],
  ]);
}

/**
 * An explorer link from a template with a `{txid}` or `{address}` placeholder;
 * null without a template. The value is URL-encoded, so a strange value cannot change the link's target.
 */
export function explorerLink(
  template: string | null,
  placeholder: '{txid}' | '{address}',
  value: string,
): string | null {
  if (!template?.includes(placeholder)) return null;
  return filled(template, [[placeholder, value]]);
}

/** The template with each placeholder replaced by its value, URL-encoded, wherever it stands. */
function filled(template: string, values: readonly [placeholder: string, value: string][]): string {
  return values.reduce(
    (link, [placeholder, value]) => link.split(placeholder).join(encodeURIComponent(value)),
    template,
  );
}
