import type { FoundBlockAsker, FoundBlockRef, FoundBlockStatus } from '../chains/chain.js';
import { minedCoin } from '../chains/registry.js';
import { type Config, minedTickers } from '../config/config.js';
import type { Log } from './types.js';

/** Asks a coin's nodes where a found block stands. */
export type BlockStatusOf = (coin: string, block: FoundBlockRef) => Promise<FoundBlockStatus>;

/**
 * The status of found blocks through each configured coin's nodes, by its chain's rules (one asker per
 * coin, made on first use and kept; `close()` closes their clients, such as Kaspa's WebSockets).
 */
export function nodeBlockStatus(coins: Config['coins'], log?: Log): BlockStatusOf & { close(): Promise<void> } {
  const askers = new Map<string, FoundBlockAsker>();
  const asker = (ticker: string) => {
    const known = askers.get(ticker);
    if (known) return known;
    const mined = minedTickers(coins).find((c) => c.ticker === ticker);
    const coin = mined && coins.find((c) => c.ticker === (mined.mergedWith ?? ticker));
    if (!coin) return undefined;
    const made = minedCoin(coin).blockStatus(log, ticker);
    askers.set(ticker, made);
    return made;
  };
  const statusOf = (ticker: string, block: FoundBlockRef) => {
    const found = asker(ticker);
    return found ? found.ask(block) : Promise.reject(new Error(`${ticker} is not a mined coin`));
  };
  return Object.assign(statusOf, {
    async close() {
      const closing = [...askers.values()];
      askers.clear();
      await Promise.all(closing.map((a) => a.close?.()));
    },
  });
}
