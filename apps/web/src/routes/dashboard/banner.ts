import type { ConversionConfigResponse, PaymentConfigResponse } from '@lodestone/contract';
import type { AlgorithmKey } from '@lodestone/domain';
import { MESSAGES } from './messages';

/**
 * The missing-payout banner (docs/dashboard.md, The screens): the coins the account is credited in for the selected
 * algorithm — its conversion list, or the shared list when 'all algorithms' is on — that have no
 * non-empty payout address. At most 4 tickers are named, then '(+N more)'.
 */
export const BANNER_MAX_TICKERS = 4;

/** The coins earnings of `algorithm` are credited in. A coin at 0% receives nothing, so it needs no address. */
export function configuredCoins(config: ConversionConfigResponse, algorithm: AlgorithmKey): string[] {
  const list = config.all_algorithms_setting ? config.all_algorithms : config[algorithm];
  return [...new Set(list.filter((entry) => entry.proportion > 0).map((entry) => entry.ticker))];
}

export function missingPayoutTickers(configured: readonly string[], payment: PaymentConfigResponse): string[] {
  const withAddress = new Set(
    payment.payout_settings
      .filter((setting) => setting.addresses.some((a) => a.address.trim() !== ''))
      .map((setting) => setting.ticker),
  );
  return configured.filter((ticker) => !withAddress.has(ticker));
}

/** 'You have not configured a payout address for: BTC, LTC, DOGE, DGB (+2 more)'; null when nothing is missing. */
export function missingPayoutText(tickers: readonly string[]): string | null {
  if (tickers.length === 0) return null;
  const shown = tickers.slice(0, BANNER_MAX_TICKERS).join(', ');
  const more = tickers.length - BANNER_MAX_TICKERS;
  return `${MESSAGES.missingPayout}${shown}${more > 0 ? ` (+${more} more)` : ''}`;
}
