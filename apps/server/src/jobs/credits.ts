import {
  type DB,
  type Executor,
  isMergedCoin,
  lockPendingCredits,
  markCredited,
  networkStates,
  pendingCreditBatches,
  reconcileLedger,
  savePrices,
  usernamesOf,
  valuationFeeShare,
} from '@lodestone/db';
import { type AlgorithmKey, Exact } from '@lodestone/domain';
import type { Kysely } from 'kysely';
import { loadPriceBook } from '../services/money/priceBook.js';
import { creditBatch } from './accounting/ppsCredit.js';
import type { CreditSettings } from './accounting.js';
import type { JobDefinition, Log } from './types.js';

/**
 * Credits the batches whose values waited for a fresh price, oldest first, one transaction per
 * batch (ledger key `pps:{batchId}`, the same as an instant credit would have used, so a batch is
 * never credited twice). A batch whose prices are still stale is left for the next run and the
 * others go on: with merged mining a batch's aux coin waits under an id of its own, and a stale
 * Dogecoin price must not hold back Litecoin credits behind it. Returns how many were credited.
 */
export async function creditPendingBatches(
  db: Kysely<DB>,
  settings: CreditSettings,
  log: Log,
  limit = 100,
): Promise<number> {
  let credited = 0;
  for (const batchId of await pendingCreditBatches(db, limit)) {
    const done = await db.transaction().execute(async (trx) => {
      const rows = await lockPendingCredits(trx, batchId);
      const first = rows[0];
      if (!first) return true; // another process has them, or they were credited meanwhile
      const names = await usernamesOf(
        trx,
        rows.map((r) => r.accountId),
      );
      const values = new Map<string, Exact>();
      for (const r of rows) {
        const name = names.get(r.accountId);
        if (name !== undefined) values.set(name, (values.get(name) ?? Exact.ZERO).plus(Exact.of(r.value)));
      }
      const outcome = await creditBatch(trx, {
        batchId,
        algorithm: first.algorithm,
        coin: first.coin,
        values,
        feePercent: settings.feePercent,
        prices: await loadPriceBook(trx, settings.now?.() ?? new Date(), settings.priceMaxAgeMs),
        defaultCoin: await defaultCreditCoin(trx, first.algorithm, first.coin),
        feeShare: await valuationFeeShare(trx, batchId),
      });
      if (outcome.kind === 'stale-prices') {
        log.warn({ batchId, tickers: outcome.tickers }, 'PPS credits still waiting for fresh prices');
        return false;
      }
      if (outcome.kind === 'unknown-coin') {
        log.error({ batchId, coin: outcome.coin }, 'PPS credits of a coin not in the catalogue cannot be credited');
        return false;
      }
      await markCredited(trx, batchId, outcome.ledgerTransactionId ?? null, new Date());
      return true;
    });
    if (done) credited += 1;
  }
  return credited;
}

/**
 * The coin a waiting credit goes to for an account that chose nothing, as the instant credit would
 * have had it: the coin mined, but the algorithm's own coin for an aux coin of merged mining.
 */
async function defaultCreditCoin(trx: Executor, algorithm: AlgorithmKey, coin: string): Promise<string> {
  if (!(await isMergedCoin(trx, algorithm, coin))) return coin;
  return (await networkStates(trx)).find((n) => n.algorithm === algorithm)?.coin ?? coin;
}

export function pendingCreditJob(settings: CreditSettings): JobDefinition {
  return {
    name: 'pps-pending-credits',
    everyMs: 30_000,
    offsetMs: 5_000,
    runOnStart: true,
    singleton: true,
    async run({ database, log }) {
      const n = await creditPendingBatches(database.db, settings, log);
      if (n > 0) log.info({ batches: n }, 'credited share batches that waited for prices');
    },
  };
}

/** The price feed interface of @lodestone/chain, as the jobs role uses it. */
export interface PriceFeed {
  readonly name: string;
  fetch(): Promise<{ source: string; takenAt: Date; quotes: { ticker: string; usd: string }[] }>;
}

/**
 * Records a price snapshot every `everyMs` (and at start). A failing feed is logged as an error —
 * the alert — and the last prices age until crediting refuses them as stale.
 */
export function pricesJob(feed: PriceFeed, everyMs: number): JobDefinition {
  return {
    name: 'prices',
    everyMs,
    offsetMs: 0,
    runOnStart: true,
    singleton: true,
    async run({ database, log }) {
      let snapshot: Awaited<ReturnType<PriceFeed['fetch']>>;
      try {
        snapshot = await feed.fetch();
      } catch (error) {
        log.error({ err: error, feed: feed.name }, 'price feed failed; credits will wait once prices are stale');
        return;
      }
      await savePrices(database.db, snapshot);
      log.debug({ feed: feed.name, tickers: snapshot.quotes.length }, 'prices recorded');
    },
  };
}

/** Proves the ledger every hour: balances equal their entries, none negative, transactions balanced. */
export function ledgerCheckJob(): JobDefinition {
  return {
    name: 'ledger-check',
    everyMs: 3_600_000,
    offsetMs: 30 * 60_000,
    runOnStart: true,
    singleton: true,
    async run({ database, log }) {
      const problems = await reconcileLedger(database.db);
      if (problems.length === 0) {
        log.info({}, 'ledger reconciled: every balance equals its entries');
        return;
      }
      log.error({ problems: problems.slice(0, 20), count: problems.length }, 'LEDGER RECONCILIATION FAILED');
      // A failed run, so the job's failure shows where monitoring looks (lodestone_job_last_failed).
      throw new Error(`ledger reconciliation failed: ${problems.length} problem(s)`);
    },
  };
}
