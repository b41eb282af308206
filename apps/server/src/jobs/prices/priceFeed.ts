import { HttpPriceSource, type PriceSource, StaticPriceSource } from '@lodestone/chain';
import type { Config } from '../../config/config.js';

/**
 * The price source the configuration asks for: a CoinGecko-compatible feed when PRICE_FEED_URL is
 * set, otherwise the operator's static list (PRICES). Invalid static prices stop start-up.
 */
export function createPriceFeed(config: Pick<Config, 'priceFeedUrl' | 'priceFeedIds' | 'prices'>): PriceSource {
  if (config.priceFeedUrl) {
    return new HttpPriceSource({ url: config.priceFeedUrl, mapping: config.priceFeedIds, fiat: ['EUR'] });
  }
  return new StaticPriceSource({ prices: config.prices });
}
