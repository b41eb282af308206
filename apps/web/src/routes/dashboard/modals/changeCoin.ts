import type { CoinInfo } from '@lodestone/contract';

/**
 * The Change Coin list (docs/dashboard.md, The screens): the catalogue's payout coins without the coin being converted,
 * filtered by ticker or name, case-insensitively. Coins whose payouts are disabled are left out:
 * converting a balance that cannot be paid into another that cannot be paid helps nobody.
 */
export function targetCoins(
  catalogue: Record<string, Pick<CoinInfo, 'name' | 'payouts_enabled'>>,
  baseCoin: string,
  query: string,
): string[] {
  const needle = query.trim().toLowerCase();
  return Object.entries(catalogue)
    .filter(([ticker, info]) => ticker !== baseCoin && info.payouts_enabled)
    .filter(([ticker, info]) => needle === '' || `${ticker} ${info.name}`.toLowerCase().includes(needle))
    .map(([ticker]) => ticker);
}
