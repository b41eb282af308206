import {
  type Executor,
  insertPendingCredits,
  networkStates,
  saveMergedNetworkState,
  saveNetworkState,
  type WorkerActivity,
} from '@lodestone/db';
import { type BatchNetwork, Exact, type ShareBatch, shareValue } from '@lodestone/domain';
import { v5 as uuidV5 } from 'uuid';
import { loadPriceBook, type PriceBook } from '../../services/money/priceBook.js';
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
  // One price book for all the batch's networks, read only when some share is worth crediting.
  let book: Promise<PriceBook> | undefined;
  const prices = () => {
    book ??= loadPriceBook(trx, settings.now?.() ?? new Date(), settings.priceMaxAgeMs);
    return book;
  };
  const credit = { batch, difficultyOf, settings, prices };
  const outcomes: BatchCredit[] = [
    network
      ? await creditNetwork(trx, credit, batch.id, network)
      : { kind: 'not-valued', reason: `no network state known for ${batch.algorithm}` },
  ];
  for (const aux of batch.merged ?? []) {
    await saveMergedNetworkState(trx, observation(batch, aux));
    // An account that chose nothing is credited the aux coin's value in the algorithm's coin.
    const defaultCoin = network?.coin ?? aux.coin;
    outcomes.push(await creditNetwork(trx, credit, mergedCreditId(batch.id, aux.coin), aux, defaultCoin));
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
    blockSeconds: network.blockSeconds,
  };
}

/**
 * The namespace of merged credit ids (RFC 9562 name-based UUIDs): itself the version 5 UUID of the
 * name "lodestone merged PPS credit" in the URL namespace, fixed here so every process derives the same ids.
 */
const MERGED_CREDIT_NAMESPACE = '68eabf25-1d57-5d6d-8c6d-e0c14316d222';

/**
 * The credit id of an aux coin's PPS credit for a batch: the name-based (version 5) UUID of the batch
 * id and the ticker, the same on every replay of the batch, so its ledger key `pps:{id}` posts once
 * like the parent coin's `pps:{batchId}`.
 */
export function mergedCreditId(batchId: string, coin: string): string {
  return uuidV5(`${batchId}/${coin}`, MERGED_CREDIT_NAMESPACE);
}

/** What every network of one batch is credited with: its shares, the settings and one price book. */
interface BatchCreditContext {
  batch: ShareBatch;
  difficultyOf: ReadonlyMap<string, Exact>;
  settings: CreditSettings;
  prices: () => Promise<PriceBook>;
}

/** One network's PPS value of the batch's shares, credited now or kept until prices are fresh. */
async function creditNetwork(
  trx: Executor,
  { batch, difficultyOf, settings, prices }: BatchCreditContext,
  creditId: string,
  network: NetworkValue,
  defaultCoin?: string,
): Promise<BatchCredit> {
  const reward = BigInt(network.reward);
  const values = new Map([...difficultyOf].map(([account, d]) => [account, shareValue(d, reward, network.difficulty)]));
  if (values.size === 0) return { kind: 'credited' };

  const outcome = await creditBatch(trx, {
    batchId: creditId,
    algorithm: batch.algorithm,
    coin: network.coin,
    values,
    feePercent: settings.feePercent,
    prices: await prices(),
    ...(defaultCoin !== undefined && { defaultCoin }),
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
