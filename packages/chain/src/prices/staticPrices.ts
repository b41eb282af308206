import {
  checkTicker,
  PriceFeedError,
  type PriceQuote,
  type PriceSnapshot,
  type PriceSource,
  positiveDecimal,
  USD_QUOTE,
} from './priceSource.js';

export interface StaticPriceSourceOptions {
  /**
   * USD price per ticker, e.g. `{ BTC: '64123.5', LTC: 71.2, EUR: '1.08' }`. Strings are read exactly;
   * numbers through their shortest text (so 0.1 stays "0.1"), which is fine for a hand-written config
   * but loses digits beyond a double's precision — prefer strings. 'EUR' is USD per 1 EUR; 'USD', if
   * listed, must be 1.
   */
  prices: Readonly<Record<string, string | number>>;
  now?: () => Date;
}

/**
 * Operator-set prices for installs without Internet access (or while no feed is trusted): validated
 * once at start-up, so a typo stops the program with a message naming the ticker instead of paying at
 * a wrong rate later.
 */
export class StaticPriceSource implements PriceSource {
  readonly name = 'static';
  readonly #quotes: readonly Readonly<PriceQuote>[];
  readonly #now: () => Date;

  constructor(options: StaticPriceSourceOptions) {
    const quotes: PriceQuote[] = [];
    let eur: PriceQuote | undefined;
    for (const [ticker, value] of Object.entries(options.prices)) {
      const what = `static price of ${ticker}`;
      if (ticker === 'USD') {
        if (positiveDecimal(value, what) !== '1') throw new PriceFeedError(`${what} must be 1, not ${String(value)}`);
        continue; // added below, once, for every snapshot
      }
      if (ticker === 'EUR') {
        eur = { ticker, usd: positiveDecimal(value, what) };
        continue;
      }
      checkTicker(ticker, 'static prices');
      quotes.push({ ticker, usd: positiveDecimal(value, what) });
    }
    if (quotes.length === 0) throw new PriceFeedError('static prices: no coin prices given');
    // Same order as HttpPriceSource: coins as configured, then USD, then EUR.
    this.#quotes = Object.freeze([...quotes, USD_QUOTE, ...(eur ? [eur] : [])].map((q) => Object.freeze(q)));
    this.#now = options.now ?? (() => new Date());
  }

  async fetch(): Promise<PriceSnapshot> {
    return { source: this.name, takenAt: this.#now(), quotes: this.#quotes.map((q) => ({ ...q })) };
  }
}
