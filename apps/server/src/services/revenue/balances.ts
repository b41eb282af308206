import type { BalanceRecord } from '@lodestone/contract';
import {
  type Account,
  balancesOfAccount,
  type Coin,
  type CoinBalance,
  conversionSettingsOf,
  type Executor,
  latestPrices,
  listCoins,
  type PayoutSettingRow,
  type PriceRow,
  payoutSettingsOf,
  type StoredConversionSettings,
} from '@lodestone/db';
import { decimalToNumber } from '@lodestone/domain';

/** Dollar values in the balances table are shown with cents. */
export const USD_DECIMALS = 2;

/**
 * Pure: the coins the account's conversion settings credit, as crediting reads them (ppsCredit):
 * the shared list while "all algorithms" is on, else every algorithm's own list. Defaults (the coin
 * each algorithm mines, for an account that chose nothing) are not listed: a miner who never set
 * anything would otherwise see six empty rows of coins they may never mine; those coins appear with
 * the first credit.
 */
export function configuredCoins(settings: StoredConversionSettings): Set<string> {
  const out = new Set<string>();
  for (const [key, rows] of settings.lists) {
    const wanted = settings.allAlgorithms ? key === 'all' : key !== 'all';
    if (wanted) for (const r of rows) out.add(r.ticker);
  }
  return out;
}

/**
 * Pure: true when the balance of `coin` cannot be paid to the account as things stand — the coin's
 * payouts are disabled in the catalogue, or the account has no payout address for the coin. A pause
 * after an address change is not a warning: it ends by itself within 24 hours.
 */
export function cannotBePaid(coin: Coin, payoutSettings: ReadonlyMap<string, PayoutSettingRow>): boolean {
  if (!coin.payouts_enabled) return true;
  const setting = payoutSettings.get(coin.ticker);
  return !setting || setting.addresses.length === 0;
}

/**
 * Pure: the balances table. Rows in catalogue order for every coin with a non-zero balance, every
 * coin the conversion settings credit (0 until its first credit), so a miner sees at once that a coin
 * they chose has no payout address yet, and every coin they set payouts up for.
 */
export function presentBalances(input: {
  catalogue: readonly Coin[];
  balances: readonly CoinBalance[];
  configured: ReadonlySet<string>;
  payoutSettings: ReadonlyMap<string, PayoutSettingRow>;
  prices: ReadonlyMap<string, PriceRow>;
}): BalanceRecord[] {
  const amounts = new Map(input.balances.map((b) => [b.coin, b.amount]));
  return input.catalogue.flatMap((coin) => {
    const amount = amounts.get(coin.ticker) ?? 0n;
    // A coin paid out down to 0 stays listed while the miner has payout settings for it.
    if (amount === 0n && !input.configured.has(coin.ticker) && !input.payoutSettings.has(coin.ticker)) return [];
    const price = input.prices.get(coin.ticker);
    return [
      {
        coin_ticker: coin.ticker,
        // Display only (money never moves at this number): the newest price whatever its age, as the
        // coin catalogue shows it; null rather than 0 when none was ever recorded, so nobody reads a
        // missing price as a worthless coin.
        coin_price: price ? decimalToNumber(price.usd) : null,
        coin_balance: amount.toString(),
        coin_decimals: coin.decimals,
        usd_decimals: USD_DECIMALS,
        show_warning: cannotBePaid(coin, input.payoutSettings),
      },
    ];
  });
}

/** GET revenue/balance: the account's balances with prices and payout warnings. */
export async function readBalances(db: Executor, account: Account): Promise<BalanceRecord[]> {
  const [catalogue, balances, conversion, payoutSettings, prices] = await Promise.all([
    listCoins(db),
    balancesOfAccount(db, account.id),
    conversionSettingsOf(db, account.id),
    payoutSettingsOf(db, account.id),
    latestPrices(db),
  ]);
  return presentBalances({
    catalogue,
    balances,
    configured: configuredCoins(conversion),
    payoutSettings: new Map(payoutSettings.map((s) => [s.ticker, s])),
    prices,
  });
}
