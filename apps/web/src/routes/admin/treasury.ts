import type { AdminTreasuryResponse, TreasuryCoin } from '@lodestone/contract';

/**
 * The Treasury screen's display rules (docs/admin.md, Treasury). Amounts arrive as exact decimal
 * text in coin units and are shown as they are: an operator comparing them with a wallet needs every
 * unit, so nothing here rounds.
 */

/** The wallet, or its fee reserve, lacks something to pay what is due. */
export function isShort(coin: TreasuryCoin): boolean {
  return coin.shortfall !== '0' || isFeeShort(coin);
}

export function isFeeShort(coin: TreasuryCoin): boolean {
  const shortfall = coin.wallet?.fee_reserve?.shortfall;
  return shortfall != null && shortfall !== '0';
}

/** The tickers that are short, in catalogue order. */
export function shortCoins(answer: AdminTreasuryResponse): string[] {
  return answer.coins.filter(isShort).map((c) => c.coin);
}

/** A wallet read more than this long ago is marked stale: the job reads every minute. */
export const STALE_SNAPSHOT_SECONDS = 300;

export function isStale(readAt: string | null, now: string): boolean {
  return readAt === null || Date.parse(now) - Date.parse(readAt) > STALE_SNAPSHOT_SECONDS * 1000;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
