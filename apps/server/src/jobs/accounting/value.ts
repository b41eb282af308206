import {
  type Executor,
  insertPendingCredits,
  networkStates,
  saveNetworkState,
  type WorkerActivity,
} from '@lodestone/db';
import { Exact, type ShareBatch, shareValue } from '@lodestone/domain';
import { loadPriceBook } from '../../services/money/priceBook.js';
import { creditBatch } from './ppsCredit.js';

export interface CreditSettings {
  /** Pool fee in percent, before an account's discount. */
  feePercent: number | string;
  /** A price older than this is stale: the batch's credits wait for a fresh one. */
  priceMaxAgeMs: number;
  /** Clock for price freshness (tests). */
  now?: () => Date;
}

/** What happened to the PPS value of an applied batch. */
export type BatchCredit =
  | { kind: 'credited' }
  | { kind: 'waiting-for-prices'; tickers: string[] }
  | { kind: 'not-valued'; reason: string };

/**
 * Values a batch's accepted shares per account and credits them, inside the transaction that
 * applies the batch. PPS: each account's accepted difficulty × reward ÷ network difficulty of the
 * network the batch carries (saved as the newest network state), or of the newest one known for the
 * algorithm. At current prices the value goes into the ledger at once; when a price is stale it
 * waits in pps_credits for the pending-credit job.
 */
export async function creditShares(
  trx: Executor,
  batch: ShareBatch,
  activity: readonly Pick<WorkerActivity, 'account' | 'acceptedDifficulty'>[],
  settings: CreditSettings,
): Promise<BatchCredit> {
  const now = settings.now?.() ?? new Date();
  let network: { coin: string; reward: string; difficulty: string } | undefined = batch.network;
  if (batch.network) {
    await saveNetworkState(trx, {
      algorithm: batch.algorithm,
      coin: batch.network.coin,
      height: batch.network.height,
      reward: BigInt(batch.network.reward),
      difficulty: batch.network.difficulty,
      demo: batch.network.demo,
      observedAt: new Date(batch.intervalEnd),
    });
  } else {
    network = (await networkStates(trx)).find((n) => n.algorithm === batch.algorithm);
  }
  if (!network) return { kind: 'not-valued', reason: `no network state known for ${batch.algorithm}` };

  const difficultyOf = new Map<string, Exact>();
  for (const w of activity) {
    const d = Exact.of(w.acceptedDifficulty);
    if (d.isZero()) continue;
    difficultyOf.set(w.account, (difficultyOf.get(w.account) ?? Exact.ZERO).plus(d));
  }
  const reward = BigInt(network.reward);
  const values = new Map([...difficultyOf].map(([account, d]) => [account, shareValue(d, reward, network.difficulty)]));
  if (values.size === 0) return { kind: 'credited' };

  const outcome = await creditBatch(trx, {
    batchId: batch.id,
    algorithm: batch.algorithm,
    coin: network.coin,
    values,
    feePercent: settings.feePercent,
    prices: await loadPriceBook(trx, now, settings.priceMaxAgeMs),
  });
  if (outcome.kind === 'credited') return { kind: 'credited' };
  if (outcome.kind === 'unknown-coin')
    return { kind: 'not-valued', reason: `${outcome.coin} is not in the coin catalogue` };
  const pending = [...values].flatMap(([username, value]) => {
    const account = outcome.accounts.get(username);
    if (!account) return [];
    return [
      {
        batchId: batch.id,
        accountId: account.id,
        algorithm: batch.algorithm,
        coin: network.coin,
        acceptedDifficulty: (difficultyOf.get(username) ?? Exact.ZERO).toString(),
        networkDifficulty: network.difficulty,
        reward,
        value: value.toString(),
        intervalEnd: new Date(batch.intervalEnd),
      },
    ];
  });
  await insertPendingCredits(trx, pending);
  return { kind: 'waiting-for-prices', tickers: outcome.tickers };
}
