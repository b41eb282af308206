import {
  accrualKey,
  type CreditAccount,
  creditAccounts,
  type Executor,
  type LedgerAccountRef,
  type LedgerLeg,
  ledgerAccountIds,
  ledgerTransactionExists,
  listCoins,
  lockAccruals,
  postLedgerTransaction,
  saveAccruals,
} from '@lodestone/db';
import {
  type AlgorithmKey,
  accrue,
  type CreditLine,
  Exact,
  type PlannedCredit,
  type PricedCoin,
  planCredits,
  type Recipient,
  recipientKey,
  tickersNeeded,
} from '@lodestone/domain';
import type { PriceBook } from '../../services/money/priceBook.js';

/**
 * PPS crediting: reads the accounts and prices a batch needs, plans the credits with the domain's
 * rule (planCredits in @lodestone/domain) and posts them as one balanced, idempotent ledger
 * transaction, carrying fractions of a unit.
 */

export interface PostCreditsInput {
  /** Idempotency key of the ledger transaction, `pps:{batchId}`. */
  key: string;
  reference: string;
  algorithm: AlgorithmKey;
  credits: readonly PlannedCredit[];
  /** The part of every credit that was transaction fees (its valuation's), for the earnings rollup. */
  feeShare?: Exact | undefined;
}

/**
 * Turns planned credits into one balanced ledger transaction: each party's exact amount is added
 * to its carried fraction, the whole units are credited and the new fraction carried; pool:pps
 * takes the other side (minus the whole units credited, per coin). Nothing is written when the key
 * was posted before. Returns the ledger transaction id, or undefined when already posted or there
 * was nothing to credit.
 */
export async function postCredits(trx: Executor, input: PostCreditsInput): Promise<bigint | undefined> {
  if (input.credits.length === 0) return undefined;
  if (await ledgerTransactionExists(trx, input.key)) return undefined;
  const ref = (r: Recipient): LedgerAccountRef => r;
  const ids = await ledgerAccountIds(
    trx,
    input.credits.map((c) => ref(c.recipient)),
  );
  const idOf = (r: Recipient) => {
    const id = ids.get('system' in r ? `s:${r.system}` : `a:${r.accountId}`);
    if (id === undefined) throw new Error(`no ledger account for ${recipientKey(r)}`);
    return id;
  };
  const keys = input.credits.map((c) => ({
    ledgerAccountId: idOf(c.recipient),
    coin: c.coin,
    kind: c.kind,
    sourceAccountId: c.source ?? 0n,
  }));
  const carried = await lockAccruals(trx, keys);
  const legs: LedgerLeg[] = [];
  const expense = new Map<string, bigint>();
  const fractions: ((typeof keys)[number] & { fraction: string })[] = [];
  input.credits.forEach((c, i) => {
    const key = keys[i] as (typeof keys)[number];
    const { whole, carried: left } = accrue(Exact.of(carried.get(accrualKey(key)) ?? '0'), c.amount);
    fractions.push({ ...key, fraction: left.toString() });
    if (whole === 0n) return;
    legs.push({
      account: ref(c.recipient),
      coin: c.coin,
      amount: whole,
      kind: c.kind,
      algorithm: input.algorithm,
      sourceAccountId: c.source ?? null,
    });
    expense.set(c.coin, (expense.get(c.coin) ?? 0n) + whole);
  });
  for (const [coin, whole] of expense) {
    legs.push({
      account: { system: 'pool:pps' },
      coin,
      amount: -whole,
      kind: 'pps_expense',
      algorithm: input.algorithm,
    });
  }
  await saveAccruals(trx, fractions);
  if (legs.length === 0) return undefined;
  const posted = await postLedgerTransaction(trx, {
    key: input.key,
    kind: 'pps_credit',
    reference: input.reference,
    legs,
    ...(input.feeShare && { feeShare: input.feeShare }),
  });
  return posted.id;
}

export interface CreditBatchInput {
  batchId: string;
  algorithm: AlgorithmKey;
  coin: string;
  /** Σ accepted difficulty per account name, exact decimal text. */
  values: ReadonlyMap<string, Exact>;
  feePercent: string | number;
  prices: PriceBook;
  /**
   * The coin an account without conversion settings is credited in, when it is not `coin`: for an aux
   * coin of merged mining, the algorithm's own coin — what the conversion settings page shows such an
   * account (docs/money.md, "Merged mining").
   */
  defaultCoin?: string;
  /** The part of the values that was transaction fees (feeShare of their valuation), for the earnings rollup. */
  feeShare?: Exact | undefined;
}

export type CreditOutcome =
  | { kind: 'credited'; ledgerTransactionId: bigint | undefined }
  | { kind: 'stale-prices'; tickers: string[]; accounts: Map<string, CreditAccount> }
  | { kind: 'unknown-coin'; coin: string };

/**
 * Credits a batch's values (smallest units of the mined coin per account name) now, when every
 * price needed is fresh. Otherwise credits nothing and says which prices are stale, so the caller
 * can keep the values for later.
 */
export async function creditBatch(trx: Executor, input: CreditBatchInput): Promise<CreditOutcome> {
  const coins = await listCoins(trx);
  const decimals = new Map(coins.map((c) => [c.ticker, c.decimals]));
  const catalogue = new Set(decimals.keys());
  if (!decimals.has(input.coin)) return { kind: 'unknown-coin', coin: input.coin };
  const accounts = await creditAccounts(trx, [...input.values.keys()], input.algorithm);
  const defaultCoin = input.defaultCoin ?? input.coin;
  const stale = input.prices.staleAmong(tickersNeeded(input.coin, accounts.values(), catalogue, defaultCoin));
  if (stale.length > 0) return { kind: 'stale-prices', tickers: stale, accounts };
  const priceOf = (ticker: string): PricedCoin => {
    const usd = input.prices.fresh(ticker);
    const d = decimals.get(ticker);
    if (usd === undefined || d === undefined) throw new Error(`no fresh price for ${ticker}`);
    return { decimals: d, usd };
  };
  const lines: CreditLine[] = [];
  for (const [username, value] of input.values) {
    const account = accounts.get(username);
    if (account) lines.push({ account, value });
  }
  const credits = planCredits({
    coin: input.coin,
    lines,
    feePercent: input.feePercent,
    priceOf,
    catalogue,
    defaultCoin,
  });
  const id = await postCredits(trx, {
    key: `pps:${input.batchId}`,
    reference: input.batchId,
    algorithm: input.algorithm,
    credits,
    feeShare: input.feeShare,
  });
  return { kind: 'credited', ledgerTransactionId: id };
}
