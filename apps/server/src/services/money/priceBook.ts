import { type Executor, latestPrices, type PriceRow } from '@lodestone/db';

/**
 * The newest price of every ticker, with its age judged against a limit: money moves only at fresh
 * prices (crediting, conversions); a stale or missing price stops them with a clear reason instead.
 */
export class PriceBook {
  constructor(
    private readonly rows: ReadonlyMap<string, PriceRow>,
    readonly now: Date,
    readonly maxAgeMs: number,
  ) {}

  /** The newest price, fresh or not (for display). */
  latest(ticker: string): PriceRow | undefined {
    return this.rows.get(ticker);
  }

  /** US dollars per coin if the price is fresh; undefined if missing or stale. */
  fresh(ticker: string): string | undefined {
    const row = this.rows.get(ticker);
    if (!row) return undefined;
    return this.now.getTime() - row.takenAt.getTime() <= this.maxAgeMs ? row.usd : undefined;
  }

  /** Tickers among `tickers` without a fresh price. */
  staleAmong(tickers: Iterable<string>): string[] {
    return [...new Set(tickers)].filter((t) => this.fresh(t) === undefined).sort();
  }

  tickers(): string[] {
    return [...this.rows.keys()].sort();
  }
}

export async function loadPriceBook(db: Executor, now: Date, maxAgeMs: number): Promise<PriceBook> {
  return new PriceBook(await latestPrices(db), now, maxAgeMs);
}
