import {
  type Executor,
  insertPendingCredits,
  networkStates,
  newestFeeDay,
  saveMergedNetworkState,
  saveNetworkState,
  saveValuation,
  type WorkerActivity,
} from '@lodestone/db';
import {
  type BatchNetwork,
  type BlockValue,
  blockValue,
  Exact,
  feeShare,
  type PayoutScheme,
  type ShareBatch,
  shareValue,
} from '@lodestone/domain';
import { v5 as uuidV5 } from 'uuid';
import { loadPriceBook, type PriceBook } from '../../services/money/priceBook.js';
import { creditBatch } from './ppsCredit.js';

export interface CreditSettings {
  /** Pool fee in percent, before an account's discount. */
  feePercent: number | string;
  /** The solo fee in percent (SOLO_FEE_PERCENT), kept on each solo block found (docs/solo.md). */
  soloFeePercent?: number | string;
  /** A price older than this is stale: the batch's credits wait for a fresh one. */
  priceMaxAgeMs: number;
  /** Clock for price freshness (tests). */
  now?: () => Date;
  /** Coins set to FPPS (docs/money.md, "FPPS"); every other coin is valued by PPS. */
  schemes?: ReadonlyMap<string, PayoutScheme>;
  /**
   * Told of each valuation of a coin set to FPPS: `fallback` is why it was valued by PPS instead, or
   * undefined when FPPS held (the jobs role logs the changes: fppsValuationLog).
   */
  onFppsValuation?: (coin: string, fallback: string | undefined) => void;
}

/**
 * How old a fee-day reading may be for FPPS: the job reads every ten minutes, so an hour without one
 * means its node cannot be read, and the coin is valued by PPS until it can.
 */
export const FEE_DAY_MAX_AGE_MS = 60 * 60_000;

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
    const state = (await networkStates(trx)).find((n) => n.algorithm === batch.algorithm);
    network = state && { ...state, fees: state.fees ?? undefined };
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

type NetworkValue = Pick<BatchNetwork, 'coin' | 'reward' | 'difficulty'> & { fees?: string | undefined };

function observation(batch: ShareBatch, network: BatchNetwork) {
  return {
    algorithm: batch.algorithm,
    coin: network.coin,
    height: network.height,
    reward: BigInt(network.reward),
    fees: network.fees === undefined ? undefined : BigInt(network.fees),
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
  if (difficultyOf.size === 0) return { kind: 'credited' };
  const reward = BigInt(network.reward);
  const block = await valueBlock(trx, batch, settings, creditId, network);
  const values = new Map(
    [...difficultyOf].map(([account, d]) => [account, shareValue(d, block.value, network.difficulty)]),
  );

  const outcome = await creditBatch(trx, {
    batchId: creditId,
    algorithm: batch.algorithm,
    coin: network.coin,
    values,
    feePercent: settings.feePercent,
    prices: await prices(),
    feeShare: feeShare(block),
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

/**
 * What a block is worth to this credit, by the coin's scheme (FPPS: the subsidy plus the network's
 * average fees per block of the newest fee-day reading under an hour old; PPS otherwise, or when FPPS
 * lacks an input, with the reason told), recorded with its inputs under the credit's id.
 */
async function valueBlock(
  trx: Executor,
  batch: ShareBatch,
  settings: CreditSettings,
  creditId: string,
  network: NetworkValue,
): Promise<BlockValue> {
  const scheme = settings.schemes?.get(network.coin) ?? 'pps';
  const template = {
    reward: BigInt(network.reward),
    fees: network.fees === undefined ? undefined : BigInt(network.fees),
  };
  let reading: Awaited<ReturnType<typeof newestFeeDay>>;
  let missing: string | undefined;
  if (scheme === 'fpps') {
    reading = await newestFeeDay(trx, network.coin, new Date(batch.intervalEnd - FEE_DAY_MAX_AGE_MS));
    missing = reading ? reading.unavailable : "no reading of the network's fees in the last hour";
  }
  const { value, fallback } = blockValue(scheme, template, reading?.day);
  const reason = missing ?? fallback;
  await saveValuation(trx, {
    creditId,
    coin: network.coin,
    scheme: value.scheme,
    blockValue: value.value.toString(),
    blockFees: value.fees?.toString(),
    networkDifficulty: network.difficulty,
    feeDayId: value.scheme === 'fpps' ? reading?.id : undefined,
    fallback: reason,
    valuedAt: new Date(batch.intervalEnd),
  });
  if (scheme === 'fpps') settings.onFppsValuation?.(network.coin, reason);
  return value;
}

/** What the batch's credits came to over its networks: any not valued, else any waiting, else credited. */
function combined(outcomes: readonly BatchCredit[]): BatchCredit {
  const reasons = outcomes.flatMap((o) => (o.kind === 'not-valued' ? [o.reason] : []));
  if (reasons.length > 0) return { kind: 'not-valued', reason: reasons.join('; ') };
  const tickers = [...new Set(outcomes.flatMap((o) => (o.kind === 'waiting-for-prices' ? o.tickers : [])))];
  return tickers.length > 0 ? { kind: 'waiting-for-prices', tickers } : { kind: 'credited' };
}
