import { createHash } from 'node:crypto';
import {
  type Executor,
  insertPendingCredits,
  networkStates,
  saveMergedNetworkState,
  saveNetworkState,
  type WorkerActivity,
} from '@lodestone/db';
import { type BatchNetwork, Exact, type ShareBatch, shareValue } from '@lodestone/domain';
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
 * waits in pps_credits for the pending-credit job. Merged mining: each aux chain the batch carries
 * values the same shares again at its own reward and difficulty, credited in its own coin under its
 * own credit id (mergedCreditId), so each coin's credit is posted, or waits, on its own.
 */
export async function creditShares(
  trx: Executor,
  batch: ShareBatch,
  activity: readonly Pick<WorkerActivity, 'account' | 'acceptedDifficulty'>[],
  settings: CreditSettings,
): Promise<BatchCredit> {
  let network: NetworkValue | undefined = batch.network;
  if (batch.network) {
    await saveNetworkState(trx, observation(batch, batch.network));
  } else {
    network = (await networkStates(trx)).find((n) => n.algorithm === batch.algorithm);
  }
  const difficultyOf = new Map<string, Exact>();
  for (const w of activity) {
    const d = Exact.of(w.acceptedDifficulty);
    if (d.isZero()) continue;
    difficultyOf.set(w.account, (difficultyOf.get(w.account) ?? Exact.ZERO).plus(d));
  }
  const outcomes: BatchCredit[] = [
    network
      ? await creditNetwork(trx, batch.id, batch, network, difficultyOf, settings)
      : { kind: 'not-valued', reason: `no network state known for ${batch.algorithm}` },
  ];
  for (const aux of batch.merged ?? []) {
    await saveMergedNetworkState(trx, observation(batch, aux));
    outcomes.push(await creditNetwork(trx, mergedCreditId(batch.id, aux.coin), batch, aux, difficultyOf, settings));
  }
  return combined(outcomes);
}

type NetworkValue = Pick<BatchNetwork, 'coin' | 'reward' | 'difficulty'>;

function observation(batch: ShareBatch, network: BatchNetwork) {
  return {
    algorithm: batch.algorithm,
    coin: network.coin,
    height: network.height,
    reward: BigInt(network.reward),
    difficulty: network.difficulty,
    demo: network.demo,
    observedAt: new Date(batch.intervalEnd),
  };
}

/**
 * The credit id of an aux coin's PPS credit for a batch: a UUID derived from the batch id and the
 * ticker (name-based, RFC 9562 version 8 layout), the same on every replay of the batch, so its
 * ledger key `pps:{id}` posts once like the parent coin's `pps:{batchId}`.
 */
export function mergedCreditId(batchId: string, coin: string): string {
  const bytes = createHash('sha256').update(`${batchId}/${coin}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One network's PPS value of the batch's shares, credited now or kept until prices are fresh. */
async function creditNetwork(
  trx: Executor,
  creditId: string,
  batch: ShareBatch,
  network: NetworkValue,
  difficultyOf: ReadonlyMap<string, Exact>,
  settings: CreditSettings,
): Promise<BatchCredit> {
  const now = settings.now?.() ?? new Date();
  const reward = BigInt(network.reward);
  const values = new Map([...difficultyOf].map(([account, d]) => [account, shareValue(d, reward, network.difficulty)]));
  if (values.size === 0) return { kind: 'credited' };

  const outcome = await creditBatch(trx, {
    batchId: creditId,
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
        batchId: creditId,
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

/** What the batch's credits came to over its networks: any not valued, else any waiting, else credited. */
function combined(outcomes: readonly BatchCredit[]): BatchCredit {
  const reasons = outcomes.flatMap((o) => (o.kind === 'not-valued' ? [o.reason] : []));
  if (reasons.length > 0) return { kind: 'not-valued', reason: reasons.join('; ') };
  const tickers = [...new Set(outcomes.flatMap((o) => (o.kind === 'waiting-for-prices' ? o.tickers : [])))];
  return tickers.length > 0 ? { kind: 'waiting-for-prices', tickers } : { kind: 'credited' };
}
